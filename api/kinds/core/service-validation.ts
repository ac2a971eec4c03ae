/**
 * Service validation with Kubernetes' wording: ports, type-dependent fields, session affinity,
 * cluster IPs and IP families, traffic policies, and what may not change on update (cluster IPs,
 * the primary IP family, the load balancer class, the health check node port).
 */
import { isIP } from 'node:net';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index } from '../../validation/field-path.js';
import { validateCIDR, validateIP, validateNonSpecialIP } from '../../validation/ip.js';
import { validateLabels, validateQualifiedName } from '../../validation/labels.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { isValidPortNum, validatePortNumOrName } from '../../validation/ports.js';
import { PROTOCOLS } from './container-validation.js';
import type { Service, ServicePort, ServiceSpec } from './types.js';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

export function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === 'None';
}

/** NodePort and LoadBalancer services, and ClusterIP ones with external IPs, are reachable from outside. */
export function isExternallyAccessible(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && (spec.externalIPs ?? []).length > 0);
}

/**
 * Service names are RFC 1035 labels (they become DNS names that must not start with a digit).
 * The kind's name rule checks the RFC 1123 label form; this adds what 1035 requires beyond it.
 */
function validateServiceName(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  for (const [field, value, prefix] of [
    ['name', svc.metadata.name, false],
    ['generateName', svc.metadata.generateName, true],
  ] as const) {
    if (!value) continue;
    const checked = prefix && value.length > 1 && value.endsWith('-') ? `${value.slice(0, -1)}a` : value;
    if (isDNS1123Label(checked).length > 0) continue;
    errs.push(...isDNS1035Label(checked).map((msg) => fieldErrors.invalid(`metadata.${field}`, value, msg)));
  }
  return errs;
}

function validateServicePort(port: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !port.name) {
    errs.push(fieldErrors.required(child(path, 'name')));
  } else if (port.name) {
    errs.push(...isDNS1123Label(port.name).map((m) => fieldErrors.invalid(child(path, 'name'), port.name, m)));
    if (names.has(port.name)) errs.push(fieldErrors.duplicate(child(path, 'name'), port.name));
    else names.add(port.name);
  }
  errs.push(...isValidPortNum(port.port ?? 0).map((m) => fieldErrors.invalid(child(path, 'port'), port.port ?? 0, m)));
  if (!port.protocol) errs.push(fieldErrors.required(child(path, 'protocol')));
  else if (!PROTOCOLS.includes(port.protocol)) errs.push(fieldErrors.notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(port.targetPort, child(path, 'targetPort')));
  if (port.appProtocol !== undefined) errs.push(...validateQualifiedName(port.appProtocol, child(path, 'appProtocol')));
  return errs;
}

function validateClusterIPs(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ipsPath = 'spec.clusterIPs';
  const ips = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(fieldErrors.required(ipsPath));
    else if (ips[0] !== spec.clusterIP) errs.push(fieldErrors.invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    errs.push(fieldErrors.invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errs.push(fieldErrors.notSupported(index('spec.ipFamilies', i), family, IP_FAMILIES));
    if (seen.has(family)) errs.push(fieldErrors.duplicate(index('spec.ipFamilies', i), family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(fieldErrors.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let invalid = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalid = true;
        errs.push(fieldErrors.invalid(ipsPath, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateIP(ip, index(ipsPath, i));
    if (ipErrs.length > 0) invalid = true;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(fieldErrors.invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (invalid) return errs;
  if (ips.length > 1 && new Set(ips.map((ip) => isIP(ip))).size !== ips.length) {
    errs.push(fieldErrors.invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec)) {
    ips.forEach((ip, i) => {
      const family = spec.ipFamilies?.[i];
      if (family === 'IPv4' && isIP(ip) === 6) errs.push(fieldErrors.invalid(index(ipsPath, i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (family === 'IPv6' && isIP(ip) !== 6) errs.push(fieldErrors.invalid(index(ipsPath, i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

function validateTypeDependentFields(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  const ports = spec.ports ?? [];
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && isHeadless(spec)) {
    errs.push(fieldErrors.invalid('spec.clusterIPs[0]', spec.clusterIPs![0], `may not be set to 'None' for ${spec.type} services`));
  }
  if (spec.type === 'ExternalName') {
    if ((spec.clusterIPs ?? []).length > 0) errs.push(fieldErrors.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if ((spec.ipFamilies ?? []).length > 0) errs.push(fieldErrors.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (spec.ipFamilyPolicy !== undefined) errs.push(fieldErrors.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname) errs.push(...isDNS1123Subdomain(cname).map((m) => fieldErrors.invalid('spec.externalName', cname, m)));
    else errs.push(fieldErrors.required('spec.externalName'));
  }
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(fieldErrors.forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  // Kubernetes reports these at `LoadBalancerSourceRanges` (sic); values may be space-padded.
  const sourceRanges = spec.loadBalancerSourceRanges ?? [];
  if (sourceRanges.length > 0 && spec.type !== 'LoadBalancer') {
    errs.push(fieldErrors.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
  }
  sourceRanges.forEach((range, i) => errs.push(...validateCIDR(range.trim(), index('spec.LoadBalancerSourceRanges', i))));
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.type !== 'LoadBalancer') {
    errs.push(fieldErrors.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (spec.type === 'LoadBalancer') {
    if (spec.loadBalancerClass !== undefined) errs.push(...validateQualifiedName(spec.loadBalancerClass, 'spec.loadBalancerClass'));
  } else if (spec.loadBalancerClass !== undefined) {
    errs.push(fieldErrors.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

function validateTrafficPolicies(spec: ServiceSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (!isExternallyAccessible(spec)) {
    if (spec.externalTrafficPolicy) errs.push(fieldErrors.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else if (!spec.externalTrafficPolicy) {
    errs.push(fieldErrors.required('spec.externalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(spec.externalTrafficPolicy)) {
    errs.push(fieldErrors.notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, TRAFFIC_POLICIES));
  }
  const needsHealthCheck = spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
  if (!needsHealthCheck && spec.healthCheckNodePort) {
    errs.push(fieldErrors.invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  }
  if (spec.internalTrafficPolicy === undefined) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') errs.push(fieldErrors.required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errs.push(fieldErrors.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldErrors.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const ports = spec.ports ?? [];
  const errs = validateServiceName(svc);
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errs.push(fieldErrors.required('spec.ports'));
  errs.push(...validateTypeDependentFields(spec));
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, index('spec.ports', i))));
  if (spec.selector) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (!spec.sessionAffinity) errs.push(fieldErrors.required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(spec.sessionAffinity)) errs.push(fieldErrors.notSupported('spec.sessionAffinity', spec.sessionAffinity, SESSION_AFFINITIES));
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    const tp = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
    if (timeout === undefined) errs.push(fieldErrors.required(tp, 'when session affinity type is ClientIP'));
    else if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
      errs.push(fieldErrors.invalid(tp, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`));
    }
  } else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(fieldErrors.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPs(spec));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const ipErrs = validateIP(ip, index('spec.externalIPs', i));
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateNonSpecialIP(ip, index('spec.externalIPs', i))));
  });
  if (!spec.type) errs.push(fieldErrors.required('spec.type'));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(fieldErrors.notSupported('spec.type', spec.type, SERVICE_TYPES));
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    if (p.nodePort) {
      const id = `${p.protocol ?? ''}/${p.nodePort}`;
      if (nodePorts.has(id)) errs.push(fieldErrors.duplicate(child(index('spec.ports', i), 'nodePort'), p.nodePort));
      nodePorts.add(id);
    }
    const id = `${p.protocol ?? ''}/${p.port ?? 0}`;
    if (portKeys.has(id)) errs.push(fieldErrors.duplicate(index('spec.ports', i), { port: p.port ?? 0, protocol: p.protocol ?? '' }));
    portKeys.add(id);
  });
  errs.push(...validateTrafficPolicies(spec));
  return errs;
}

/**
 * Cluster IPs may be added or released (dual-stack upgrades and downgrades) but not changed, except
 * to, from or on ExternalName (Kubernetes' `validateUpgradeDowngradeClusterIPs`).
 */
function validateClusterIPsUpdate(spec: ServiceSpec, prev: ServiceSpec): FieldError[] {
  const next = spec.clusterIPs ?? [];
  const before = prev.clusterIPs ?? [];
  const changed = (i: number) => fieldErrors.invalid(index('spec.clusterIPs', i), next, 'may not change once set');
  const errs: FieldError[] = [];
  if (next.length === before.length) {
    before.forEach((ip, i) => {
      if (ip !== next[i]) errs.push(changed(i));
    });
  } else if (before.length > next.length) {
    if (next.length === 0) errs.push(fieldErrors.invalid('spec.clusterIPs[0]', next, 'primary clusterIP can not be unset'));
    if (before.length > 0 && next.length > 0 && next[0] !== before[0]) errs.push(changed(0));
    if (next.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? 'null', "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    }
  } else if (before.length > 0 && next[0] !== before[0]) {
    errs.push(changed(0));
  }
  return errs;
}

/**
 * The same for IP families (`validateUpgradeDowngradeIPFamilies`); a headless service, or one
 * turning headless or back, may change them. Kubernetes reports some of these with the cluster IPs
 * as the value, and so do we.
 */
function validateIPFamiliesUpdate(spec: ServiceSpec, prev: ServiceSpec): FieldError[] {
  if (isHeadless(spec) || isHeadless(prev)) return [];
  const next = spec.ipFamilies ?? [];
  const before = prev.ipFamilies ?? [];
  const path = 'spec.ipFamilies[0]';
  const errs: FieldError[] = [];
  if (next.length === before.length) {
    before.forEach((family, i) => {
      if (family !== next[i]) errs.push(fieldErrors.invalid(path, next, 'may not change once set'));
    });
  } else if (before.length > next.length) {
    if ((spec.clusterIPs ?? []).length === 0) errs.push(fieldErrors.invalid(path, next, 'primary ipFamily can not be unset'));
    if (next.length > 0 && next[0] !== before[0]) errs.push(fieldErrors.invalid(path, spec.clusterIPs ?? [], 'may not change once set'));
    if (next.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(fieldErrors.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? 'null', "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (before.length > 0 && next.length > 0 && next[0] !== before[0]) {
    errs.push(fieldErrors.invalid(path, spec.clusterIPs ?? [], 'may not change once set'));
  }
  return errs;
}

/** What may not change on update: cluster IPs and IP families (except around ExternalName), the load balancer class, the health check node port. */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const prev = old.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.type !== 'ExternalName' && prev.type !== 'ExternalName') {
    if (!(isHeadless(spec) && isHeadless(prev))) errs.push(...validateClusterIPsUpdate(spec, prev));
    errs.push(...validateIPFamiliesUpdate(spec, prev));
  }
  if (spec.type === 'LoadBalancer' && prev.type === 'LoadBalancer' && spec.loadBalancerClass !== prev.loadBalancerClass) {
    errs.push(fieldErrors.invalid('spec.loadBalancerClass', spec.loadBalancerClass ?? 'null', 'may not change once set'));
  }
  const healthCheck = (s: ServiceSpec): boolean => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
  if (healthCheck(spec) && healthCheck(prev) && spec.healthCheckNodePort !== prev.healthCheckNodePort) {
    errs.push(fieldErrors.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return errs;
}
