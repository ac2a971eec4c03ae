/**
 * Nodes (core/v1), above every space (cluster scope, like Tenants): the machines pods run on.
 * There is no kubelet here, so nodes are written by system users (as kubectl's own tests do on a
 * kubelet-less kube-apiserver) and later by a scheduler and node simulator. A node registers with
 * its status, as kubelets do; afterwards status changes go through the status subresource.
 * What a tenant sees of nodes is decided in `src/server/handlers/nodes-in-space.ts`.
 * Kubernetes' behaviour: `pkg/registry/core/node/strategy.go`, `ValidateNode` and the node printer.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import type { KubeObject } from '../../registry/object.js';
import { CORE_V1, coreField, defineCore, resourceList, stringList } from '../../schema/core-types-ref.js';
import { defineKindSchema, timeField } from '../../schema/meta.js';
import { boolean, int64, integer, list, object, string } from '../../schema/schema.js';
import { child, index } from '../../validation/field-path.js';
import { validateCIDR } from '../../validation/ip.js';
import { isValidLabelValue, validateQualifiedName } from '../../validation/labels.js';
import { column } from './table-cells.js';

export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

export interface NodeAddress {
  type?: string;
  address?: string;
}

export interface Node extends KubeObject {
  spec?: { podCIDR?: string; podCIDRs?: string[]; providerID?: string; unschedulable?: boolean; taints?: Taint[]; [field: string]: unknown };
  status?: {
    conditions?: Array<{ type?: string; status?: string; [field: string]: unknown }>;
    addresses?: NodeAddress[];
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string; [field: string]: unknown };
    [field: string]: unknown;
  };
}

const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

defineCore(
  'Taint',
  object('A mark on a node that repels pods which do not tolerate it.', {
    key: string('The taint key.'),
    value: string('The taint value.'),
    effect: string('NoSchedule, PreferNoSchedule or NoExecute.'),
    timeAdded: timeField('When a NoExecute taint was added.'),
  }),
);

defineCore(
  'ConfigMapNodeConfigSource',
  object('A ConfigMap holding a node configuration (deprecated dynamic kubelet config).', {
    namespace: string('Namespace of the ConfigMap.'),
    name: string('Name of the ConfigMap.'),
    uid: string('UID of the ConfigMap.'),
    resourceVersion: string('resourceVersion of the ConfigMap.'),
    kubeletConfigKey: string('The key holding the KubeletConfiguration.'),
  }),
);

defineCore('NodeConfigSource', object('Where a node gets its configuration.', { configMap: coreField('ConfigMapNodeConfigSource', 'A ConfigMap source.') }));

defineCore(
  'NodeSpec',
  object('The attributes a node is created with.', {
    podCIDR: string('The pod IP range assigned to the node.'),
    podCIDRs: list(string('One range.'), 'The pod IP ranges assigned to the node, at most one per IP family.', { strategy: 'merge' }),
    providerID: string('The node ID given by the cloud provider: <ProviderName>://<ProviderSpecificNodeID>.'),
    unschedulable: boolean('Whether new pods may not be scheduled onto the node.'),
    taints: list(coreField('Taint', 'One taint.'), "The node's taints.", { listType: 'atomic' }),
    configSource: coreField('NodeConfigSource', 'Deprecated: the source of the node configuration.'),
    externalID: string('Deprecated.'),
  }),
);

defineCore(
  'NodeCondition',
  object('One observed condition of a node.', {
    type: string('Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable.'),
    status: string('True, False or Unknown.'),
    lastHeartbeatTime: timeField('Last time the condition was reported.'),
    lastTransitionTime: timeField('Last time the status changed.'),
    reason: string('Machine-readable reason of the last transition.'),
    message: string('Human-readable details of the last transition.'),
  }),
);

defineCore('NodeAddress', object('One address of a node.', { type: string('Hostname, InternalIP, ExternalIP, InternalDNS or ExternalDNS.'), address: string('The address.') }));
defineCore('DaemonEndpoint', object('A port a node daemon listens on.', { Port: integer('The port number.') }));
defineCore('NodeDaemonEndpoints', object('Ports of daemons on the node.', { kubeletEndpoint: coreField('DaemonEndpoint', 'The kubelet port.') }));
defineCore('NodeSwapStatus', object('Swap memory of the node.', { capacity: int64('Swap capacity in bytes.') }));

defineCore(
  'NodeSystemInfo',
  object('Identities and versions reported by the node.', {
    machineID: string('The machine-id of the node.'),
    systemUUID: string('The system UUID of the node.'),
    bootID: string('The boot ID of the node.'),
    kernelVersion: string('Kernel version (uname -r).'),
    osImage: string('OS image, from /etc/os-release.'),
    containerRuntimeVersion: string('Container runtime version (<runtime>://<version>).'),
    kubeletVersion: string('Kubelet version.'),
    kubeProxyVersion: string('Deprecated: kube-proxy version.'),
    operatingSystem: string('The operating system, e.g. linux.'),
    architecture: string('The architecture, e.g. amd64.'),
    swap: coreField('NodeSwapStatus', 'Swap memory information.'),
  }),
);

defineCore('ContainerImage', object('A container image on the node.', { names: stringList('Names of the image.'), sizeBytes: int64('Size in bytes.') }));
defineCore('AttachedVolume', object('A volume attached to the node.', { name: string('Name of the volume.'), devicePath: string('Where the volume is available.') }));

defineCore(
  'NodeConfigStatus',
  object('Deprecated: status of the dynamic kubelet config.', {
    assigned: coreField('NodeConfigSource', 'The assigned config.'),
    active: coreField('NodeConfigSource', 'The active config.'),
    lastKnownGood: coreField('NodeConfigSource', 'The last known good config.'),
    error: string('Problems reconciling the config.'),
  }),
);

defineCore(
  'NodeRuntimeHandlerFeatures',
  object('Features of a runtime handler.', {
    recursiveReadOnlyMounts: boolean('Whether recursive read-only mounts are supported.'),
    userNamespaces: boolean('Whether user namespaces are supported.'),
  }),
);
defineCore('NodeRuntimeHandler', object('A runtime handler of the node.', { name: string('Handler name; empty for the default.'), features: coreField('NodeRuntimeHandlerFeatures', 'Supported features.') }));
defineCore('NodeFeatures', object('Features the node supports.', { supplementalGroupsPolicy: boolean('Whether SupplementalGroupsPolicy is supported.') }));

defineCore(
  'NodeStatus',
  object('The observed state of a node.', {
    capacity: resourceList('Total resources of the node.'),
    allocatable: resourceList('Resources available for scheduling.'),
    phase: string('Deprecated and never set.'),
    conditions: list(coreField('NodeCondition', 'One condition.'), 'Observed conditions.', { mergeKey: 'type', strategy: 'merge' }),
    addresses: list(coreField('NodeAddress', 'One address.'), 'Addresses of the node.', { mergeKey: 'type', strategy: 'merge' }),
    daemonEndpoints: coreField('NodeDaemonEndpoints', 'Endpoints of daemons on the node.'),
    nodeInfo: coreField('NodeSystemInfo', 'Identities and versions.'),
    images: list(coreField('ContainerImage', 'One image.'), 'Container images on the node.', { listType: 'atomic' }),
    volumesInUse: stringList('Attachable volumes in use.'),
    volumesAttached: list(coreField('AttachedVolume', 'One volume.'), 'Volumes attached to the node.', { listType: 'atomic' }),
    config: coreField('NodeConfigStatus', 'Deprecated: dynamic kubelet config status.'),
    runtimeHandlers: list(coreField('NodeRuntimeHandler', 'One handler.'), 'Available runtime handlers.', { listType: 'atomic' }),
    features: coreField('NodeFeatures', 'Features the node supports.'),
  }),
);

const nodeSchema = defineKindSchema(`${CORE_V1}Node`, { group: '', version: 'v1', kind: 'Node' }, 'A worker node that runs pods.', {
  spec: coreField('NodeSpec', 'The desired behavior of the node.'),
  status: coreField('NodeStatus', 'The most recently observed status of the node. Read-only.'),
});

function validateTaints(taints: readonly Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((taint, i) => {
    const p = index(path, i);
    errs.push(...validateQualifiedName(taint.key ?? '', child(p, 'key')));
    if (taint.value) errs.push(...isValidLabelValue(taint.value).map((m) => fieldErrors.invalid(child(p, 'value'), taint.value, m)));
    if (!taint.effect) errs.push(fieldErrors.required(child(p, 'effect')));
    else if (!TAINT_EFFECTS.includes(taint.effect)) errs.push(fieldErrors.notSupported(child(p, 'effect'), taint.effect, TAINT_EFFECTS));
    const id = `${taint.key ?? ''}:${taint.effect ?? ''}`;
    if (seen.has(id)) errs.push(fieldErrors.duplicate(p, 'taints must be unique by key and effect pair'));
    seen.add(id);
  });
  return errs;
}

function validateNode(node: Node): FieldError[] {
  const spec = node.spec ?? {};
  const errs = validateTaints(spec.taints, 'spec.taints');
  const cidrs = spec.podCIDRs ?? [];
  cidrs.forEach((cidr, i) => errs.push(...validateCIDR(cidr, index('spec.podCIDRs', i))));
  if (cidrs.length > 2) errs.push(fieldErrors.invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  return errs;
}

/** Once set, the pod ranges and the provider ID stay (Kubernetes' ValidateNodeUpdate). */
function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs: FieldError[] = [];
  const was = old.spec?.podCIDRs ?? [];
  const now = node.spec?.podCIDRs ?? [];
  if (was.length > 0 && (now.length !== was.length || now.some((c, i) => c !== was[i]))) {
    errs.push(fieldErrors.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  if (old.spec?.providerID && node.spec?.providerID !== old.spec.providerID) {
    errs.push(fieldErrors.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

/** `Ready`, `NotReady` or `Unknown` from the Ready condition, then `SchedulingDisabled` for a cordoned node. */
function nodeStatusText(node: Node): string {
  const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').at(-1);
  const parts = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (node.spec?.unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

/** Roles from `node-role.kubernetes.io/<role>` labels and the legacy `kubernetes.io/role`, sorted, as kubectl prints them. */
function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith(ROLE_LABEL_PREFIX) && k.length > ROLE_LABEL_PREFIX.length) roles.add(k.slice(ROLE_LABEL_PREFIX.length));
    else if (k === LEGACY_ROLE_LABEL && v !== '') roles.add(v);
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>';
}

const addressOf = (node: Node, type: string): string => node.status?.addresses?.find((a) => a.type === type)?.address ?? '<none>';
const orUnknown = (value: string | undefined): string => value || '<unknown>';

const nodeColumns: PrinterColumn<Node>[] = [
  nameColumn as PrinterColumn<Node>,
  column('Status', 'string', 'The status of the node', nodeStatusText),
  column('Roles', 'string', 'The roles of the node', nodeRoles),
  ageColumn as PrinterColumn<Node>,
  column('Version', 'string', 'Kubelet Version reported by the node.', (n) => n.status?.nodeInfo?.kubeletVersion ?? ''),
  column('Internal-IP', 'string', 'List of addresses reachable to the node.', (n) => addressOf(n, 'InternalIP'), 1),
  column('External-IP', 'string', 'List of addresses reachable to the node.', (n) => addressOf(n, 'ExternalIP'), 1),
  column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', (n) => orUnknown(n.status?.nodeInfo?.osImage), 1),
  column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", (n) => orUnknown(n.status?.nodeInfo?.kernelVersion), 1),
  column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', (n) => orUnknown(n.status?.nodeInfo?.containerRuntimeVersion), 1),
];

export const nodes = defineKind<Node>({
  group: '',
  version: 'v1',
  kind: 'Node',
  resource: 'nodes',
  scope: 'cluster',
  readableFromSpaces: true,
  shortNames: ['no'],
  schema: nodeSchema,
  status: true,
  createWithStatus: true,
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  columns: nodeColumns,
  selectableFields: { 'spec.unschedulable': (n) => String(n.spec?.unschedulable ?? false) },
});
