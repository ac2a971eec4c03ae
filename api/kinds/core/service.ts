/**
 * Services (core/v1). Defaults give what `kubectl get svc -o yaml` shows on a real cluster
 * (ClusterIP, SessionAffinity None, TCP ports targeting themselves, the Cluster traffic policies,
 * SingleStack IPv4). The cluster IP itself is allocated by admission (`api/admission/cluster-ip.ts`)
 * after validation; here we only keep `clusterIP` and `clusterIPs` in step and, on update, carry the
 * allocated values over when a client leaves them out (as `kubectl replace` does).
 */
import { isIP } from 'node:net';
import { defineKind, ageColumn, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { coreField, CORE_V1, defineCore, stringList, stringMap } from '../../schema/core-types-ref.js';
import { defineKindSchema, metaRef } from '../../schema/meta.js';
import { boolean, described, integer, intOrString, list, object, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { isExternallyAccessible, isHeadless, validateService, validateServiceUpdate } from './service-validation.js';
import { column, formatLabels } from './table-cells.js';
import type { Service, ServicePort, ServiceSpec } from './types.js';

/** How long ClientIP session affinity sticks by default: three hours. */
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

defineCore(
  'ServicePort',
  object(
    'A port the service exposes.',
    {
      appProtocol: string('Application protocol hint: an IANA service name or a prefixed name like example.com/proto.'),
      name: string('Name of the port, unique in the service; required when there are several ports.'),
      nodePort: integer('Port on every node, for NodePort and LoadBalancer services; allocated when not given.'),
      port: integer('Port the service listens on.'),
      protocol: { ...string('TCP, UDP or SCTP. Defaults to TCP.'), default: 'TCP' },
      targetPort: described(intOrString('Port number or named container port on the selected pods.'), 'Port on the pods traffic goes to; defaults to `port`.'),
    },
    { required: ['port'] },
  ),
);

defineCore(
  'ClientIPConfig',
  object('Settings of ClientIP session affinity.', {
    timeoutSeconds: integer('How long a client sticks to one endpoint, 1 to 86400 seconds. Defaults to 10800.'),
  }),
);

defineCore(
  'SessionAffinityConfig',
  object('Session affinity settings.', { clientIP: coreField('ClientIPConfig', 'Settings for ClientIP affinity.') }),
);

defineCore(
  'ServiceSpec',
  object('What a service exposes and how.', {
    allocateLoadBalancerNodePorts: boolean('Whether a LoadBalancer service gets node ports. Defaults to true.'),
    clusterIP: string('The service’s virtual IP: allocated when empty, "None" for a headless service. Immutable.'),
    clusterIPs: stringList('The service’s virtual IPs, one per IP family; the first equals clusterIP.'),
    externalIPs: stringList('Outside IPs nodes accept traffic for, not managed by Kubernetes.'),
    externalName: string('The DNS name an ExternalName service is an alias (CNAME) for.'),
    externalTrafficPolicy: string('Cluster or Local: whether outside traffic may be sent to endpoints on other nodes.'),
    healthCheckNodePort: integer('Node port of the health check, for LoadBalancer services with the Local policy.'),
    internalTrafficPolicy: string('Cluster or Local: whether in-cluster traffic may go to endpoints on other nodes.'),
    ipFamilies: stringList('IPv4 and/or IPv6: the families of the cluster IPs, in order.'),
    ipFamilyPolicy: string('SingleStack, PreferDualStack or RequireDualStack.'),
    loadBalancerClass: string('The load balancer implementation to use; immutable once set.'),
    loadBalancerIP: string('Deprecated: a load balancer IP to ask the provider for.'),
    loadBalancerSourceRanges: stringList('Client CIDRs a provider load balancer admits.'),
    ports: list(coreField('ServicePort', 'One port.'), 'The ports the service exposes.', {
      mergeKey: 'port',
      strategy: 'merge',
      listType: 'map',
      mapKeys: ['port', 'protocol'],
    }),
    publishNotReadyAddresses: boolean('Publish endpoints of pods that are not ready too.'),
    selector: stringMap('Pods with these labels receive the traffic; none means endpoints are managed by hand.', true),
    sessionAffinity: string('None or ClientIP. Defaults to None.'),
    sessionAffinityConfig: coreField('SessionAffinityConfig', 'Session affinity settings.'),
    trafficDistribution: string('A preference for how traffic is spread over endpoints, e.g. PreferClose.'),
    type: string('ClusterIP, NodePort, LoadBalancer or ExternalName. Defaults to ClusterIP.'),
  }),
);

defineCore(
  'PortStatus',
  object(
    'The state of one load balancer port.',
    {
      error: string('Why the port is failing, CamelCase; empty when it works.'),
      port: integer('The port number.'),
      protocol: string('TCP, UDP or SCTP.'),
    },
    { required: ['port', 'protocol'] },
  ),
);

defineCore(
  'LoadBalancerIngress',
  object('An address of a load balancer.', {
    hostname: string('DNS name of the load balancer.'),
    ip: string('IP of the load balancer.'),
    ipMode: string('VIP or Proxy: how traffic sent to the IP reaches the pods.'),
    ports: list(coreField('PortStatus', 'One port.'), 'The state of each port.', { listType: 'atomic' }),
  }),
);

defineCore(
  'LoadBalancerStatus',
  object('The state of a load balancer.', {
    ingress: list(coreField('LoadBalancerIngress', 'One address.'), 'Addresses of the load balancer.', { listType: 'atomic' }),
  }),
);

defineCore(
  'ServiceStatus',
  object('The observed state of a service.', {
    conditions: list(described(metaRef('Condition'), 'One condition.'), 'Current conditions.', { mergeKey: 'type', strategy: 'merge' }),
    loadBalancer: coreField('LoadBalancerStatus', 'The load balancer, if any.'),
  }),
);

const serviceSchema = defineKindSchema(
  `${CORE_V1}Service`,
  { group: '', version: 'v1', kind: 'Service' },
  'A stable name and virtual IP in front of a set of pods (or an alias of an outside name).',
  {
    spec: coreField('ServiceSpec', 'What the service exposes.'),
    status: coreField('ServiceStatus', 'The observed state of the service. Read-only.'),
  },
);

const needsClusterIP = (spec: ServiceSpec): boolean => spec.type !== 'ExternalName';
const needsNodePort = (spec: ServiceSpec): boolean => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const needsHealthCheckNodePort = (spec: ServiceSpec): boolean => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  spec.type ||= 'ClusterIP';
  for (const port of spec.ports ?? []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (isExternallyAccessible(spec)) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer')) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    spec.allocateLoadBalancerNodePorts ??= true;
    for (const ingress of svc.status?.loadBalancer?.ingress ?? []) if (ingress.ip && !ingress.ipMode) ingress.ipMode = 'VIP';
  }
}

/** `clusterIP` and `clusterIPs[0]` are one value; whichever the client gave fills the other. */
function syncClusterIPs(spec: ServiceSpec): void {
  if (spec.clusterIP && (spec.clusterIPs ?? []).length === 0) spec.clusterIPs = [spec.clusterIP];
  else if (!spec.clusterIP && spec.clusterIPs?.[0]) spec.clusterIP = spec.clusterIPs[0];
}

/** IP family fields of a service that needs cluster IPs; this cluster is single-stack IPv4. */
function initIPFamilies(spec: ServiceSpec): void {
  if (!needsClusterIP(spec)) return;
  const selectorless = Object.keys(spec.selector ?? {}).length === 0;
  if (isHeadless(spec) && selectorless) {
    spec.ipFamilyPolicy ??= 'RequireDualStack';
    if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = ['IPv4'];
    return;
  }
  spec.ipFamilyPolicy ??= 'SingleStack';
  if ((spec.ipFamilies ?? []).length > 0) return;
  const fromIPs = (spec.clusterIPs ?? []).filter((ip) => ip !== 'None').map((ip) => (isIP(ip) === 6 ? 'IPv6' : 'IPv4'));
  spec.ipFamilies = fromIPs.length > 0 ? fromIPs : ['IPv4'];
}

function prepareNewService(svc: Service): void {
  svc.status = { loadBalancer: {} };
  const spec = (svc.spec ??= {});
  syncClusterIPs(spec);
  initIPFamilies(spec);
}

/** Allocated values a client left out of an update are kept, while the service still needs them. */
function keepAllocatedValues(spec: ServiceSpec, prev: ServiceSpec): void {
  if (needsClusterIP(prev) && needsClusterIP(spec)) {
    spec.clusterIP ||= prev.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (prev.clusterIPs ?? []).length > 0) spec.clusterIPs = prev.clusterIPs;
    spec.ipFamilyPolicy ??= prev.ipFamilyPolicy;
    if ((spec.ipFamilies ?? []).length === 0 && (prev.ipFamilies ?? []).length > 0) spec.ipFamilies = prev.ipFamilies;
  }
  if (needsNodePort(prev) && needsNodePort(spec)) {
    const usedNow = new Set((spec.ports ?? []).map((p) => p.nodePort).filter((n) => n));
    const byName = new Map((prev.ports ?? []).map((p) => [p.name ?? '', p.nodePort]));
    for (const port of spec.ports ?? []) {
      const previous = byName.get(port.name ?? '');
      if (!port.nodePort && previous && !usedNow.has(previous)) port.nodePort = previous;
    }
  }
  if (needsHealthCheckNodePort(prev) && needsHealthCheckNodePort(spec)) spec.healthCheckNodePort ||= prev.healthCheckNodePort;
}

/**
 * What a client meant by touching one of the pair (Kubernetes' `normalizeClusterIPs`): a changed
 * `clusterIP` beside unchanged `clusterIPs` changes both, so validation reports the change where
 * Kubernetes does (`spec.clusterIPs[0]`); a cleared one beside unchanged `clusterIPs` clears both.
 */
function normalizeClusterIPs(spec: ServiceSpec, prev: ServiceSpec): void {
  if (spec.clusterIP === prev.clusterIP || !semanticEqual(spec.clusterIPs, prev.clusterIPs)) return;
  if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
  else if (prev.clusterIP) delete spec.clusterIPs;
}

const nodePortsOf = (spec: ServiceSpec): Array<number | undefined> => (spec.ports ?? []).map((p: ServicePort) => p.nodePort);

/**
 * Fields that no longer apply after a type change are dropped, unless the client changed them too
 * (then validation reports them): cluster IPs leaving for ExternalName, node ports leaving for
 * ClusterIP, and so on. A service that is no longer a LoadBalancer has no load balancer status.
 */
function dropTypeDependentFields(svc: Service, spec: ServiceSpec, prev: ServiceSpec): void {
  if (needsClusterIP(prev) && !needsClusterIP(spec)) {
    if (spec.clusterIP === prev.clusterIP && semanticEqual(spec.clusterIPs, prev.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(spec.ipFamilies, prev.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === prev.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(prev) && !needsNodePort(spec)) {
    if (semanticEqual(nodePortsOf(spec), nodePortsOf(prev))) for (const port of spec.ports ?? []) delete port.nodePort;
    if (spec.healthCheckNodePort === prev.healthCheckNodePort) delete spec.healthCheckNodePort;
  }
  if (prev.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === prev.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (spec.loadBalancerClass === prev.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (isExternallyAccessible(prev) && !isExternallyAccessible(spec) && spec.externalTrafficPolicy === prev.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  if (spec.type !== 'LoadBalancer') svc.status = { ...svc.status, loadBalancer: {} };
}

export function prepareServiceUpdate(svc: Service, old: Service): void {
  const spec = (svc.spec ??= {});
  const prev = old.spec ?? {};
  keepAllocatedValues(spec, prev);
  normalizeClusterIPs(spec, prev);
  dropTypeDependentFields(svc, spec, prev);
  syncClusterIPs(spec);
  initIPFamilies(spec);
}

/** Load balancer addresses, IPs before hostnames per entry, sorted and without repeats. */
function loadBalancerAddresses(svc: Service): string[] {
  const addresses = new Set<string>();
  for (const ingress of svc.status?.loadBalancer?.ingress ?? []) {
    const address = ingress.ip || ingress.hostname;
    if (address) addresses.add(address);
  }
  return [...addresses].sort();
}

/** The EXTERNAL-IP cell: external IPs, load balancer addresses, `<pending>` or the external name. */
function serviceExternalIP(svc: Service): string {
  const spec = svc.spec ?? {};
  const externalIPs = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** The PORT(S) cell: `80/TCP`, `80:30080/TCP` with a node port, `<none>` without ports. */
function servicePorts(ports: readonly ServicePort[] | undefined): string {
  const cells = (ports ?? []).map((p) => (p.nodePort ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port ?? 0}/${p.protocol ?? ''}`));
  return cells.length > 0 ? cells.join(',') : '<none>';
}

const serviceColumns: PrinterColumn<Service>[] = [
  nameColumn as PrinterColumn<Service>,
  column('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.', (svc) => svc.spec?.type ?? ''),
  column('Cluster-IP', 'string', 'The service’s virtual IP, or None for a headless service.', (svc) => svc.spec?.clusterIPs?.[0] ?? '<none>'),
  column('External-IP', 'string', 'Addresses the service is reachable at from outside the cluster.', serviceExternalIP),
  column('Port(s)', 'string', 'The ports the service exposes.', (svc) => servicePorts(svc.spec?.ports)),
  ageColumn as PrinterColumn<Service>,
  column('Selector', 'string', 'Labels of the pods that receive the traffic.', (svc) => formatLabels(svc.spec?.selector), 1),
];

export const services = defineKind<Service>({
  group: '',
  version: 'v1',
  kind: 'Service',
  resource: 'services',
  scope: 'namespace',
  shortNames: ['svc'],
  categories: ['all'],
  schema: serviceSchema,
  nameRule: 'dns1123-label',
  status: true,
  allowCreateOnUpdate: true,
  returnDeletedObject: true,
  defaults: defaultService,
  prepareForCreate: prepareNewService,
  prepareForUpdate: prepareServiceUpdate,
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  columns: serviceColumns,
  selectableFields: {
    'spec.clusterIP': (svc) => svc.spec?.clusterIP ?? '',
    'spec.type': (svc) => svc.spec?.type ?? '',
  },
});
