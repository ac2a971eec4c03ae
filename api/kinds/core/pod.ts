/**
 * Pods (core/v1). Beyond the PodSpec defaults, a pod gets what Kubernetes' pod defaulting and
 * admission give it: requests copied from limits, service links, the `default` service account,
 * priority 0, and the not-ready/unreachable tolerations. It starts Pending with its QoS class.
 * Only images, activeDeadlineSeconds, added tolerations and removed scheduling gates may change.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { defineKind, type UpdateSubresource } from '../../registry/resource-definition.js';
import { coreField, CORE_V1 } from '../../schema/core-types.js';
import { defineKindSchema } from '../../schema/meta.js';
import { semanticEqual } from '../../validation/equality.js';
import { child, index } from '../../validation/field-path.js';
import { inclusiveRangeError } from '../../validation/ports.js';
import { validateContainersOnlyForPod } from './container-validation.js';
import { podColumns } from './pod-columns.js';
import { podQOSClass } from './pod-qos.js';
import { defaultPodSpec } from './pod-spec-defaults.js';
import { validatePodSpec, validateTolerations } from './pod-spec-validation.js';
import type { Container, Pod, PodSpec, PodStatus, Toleration } from './types.js';

const MAX_INT32 = 2147483647;

/** Priorities of the two built-in PriorityClasses; other classes are resolved by admission. */
const SYSTEM_PRIORITIES: Record<string, number> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** Evictions from failing nodes wait this long, as Kubernetes' DefaultTolerationSeconds admission sets. */
const DEFAULT_TOLERATION_SECONDS = 300;
const NODE_CONDITION_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

const UPDATABLE_POD_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** A request defaults to the limit when only the limit is given (pods only, not templates). */
function requestsFromLimits(containers: readonly Container[] | undefined): void {
  for (const c of containers ?? []) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    c.resources!.requests ??= {};
    for (const [name, value] of Object.entries(limits)) c.resources!.requests[name] ??= value;
  }
}

/** On the host network a container port is a host port. */
function hostPortsFromContainerPorts(containers: readonly Container[] | undefined): void {
  for (const c of containers ?? []) for (const port of c.ports ?? []) if (!port.hostPort) port.hostPort = port.containerPort;
}

/** Adds the not-ready and unreachable tolerations unless the pod already tolerates those taints. */
function defaultTolerations(spec: PodSpec): void {
  const tolerates = (taint: string): boolean =>
    (spec.tolerations ?? []).some((t) => (!t.key || t.key === taint) && (!t.effect || t.effect === 'NoExecute'));
  const missing = NODE_CONDITION_TAINTS.filter((taint) => !tolerates(taint));
  if (missing.length === 0) return;
  spec.tolerations = [
    ...(spec.tolerations ?? []),
    ...missing.map((key): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS })),
  ];
}

/**
 * The single and plural IP fields of a status say the same thing, as Kubernetes' v1 conversion
 * keeps them (`podIP` wins when they differ): a kubelet or a test writing only `podIP` is shown
 * in `kubectl get pods -o wide`, whose IP column reads `podIPs[0]`.
 */
function syncStatusIPs(status: PodStatus): void {
  for (const [single, plural] of [['podIP', 'podIPs'], ['hostIP', 'hostIPs']] as const) {
    const ip = status[single];
    const ips = status[plural];
    if (ip && ips?.[0]?.ip !== ip) status[plural] = [{ ip }];
    else if (!ip && ips?.[0]?.ip) status[single] = ips[0].ip;
  }
}

function defaultPod(pod: Pod): void {
  if (pod.status) syncStatusIPs(pod.status);
  const spec = (pod.spec ??= {});
  requestsFromLimits(spec.containers);
  requestsFromLimits(spec.initContainers);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork) {
    hostPortsFromContainerPorts(spec.containers);
    hostPortsFromContainerPorts(spec.initContainers);
  }
  // What the ServiceAccount and Priority admission plugins fill in.
  spec.serviceAccountName ||= spec.serviceAccount || 'default';
  if (spec.priority === undefined) {
    const priority = spec.priorityClassName ? SYSTEM_PRIORITIES[spec.priorityClassName] : 0;
    if (priority !== undefined) spec.priority = priority;
  }
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  defaultTolerations(spec);
  defaultPodSpec(spec);
}

function prepareNewPod(pod: Pod): void {
  const spec = pod.spec ?? {};
  pod.status = { phase: 'Pending', qosClass: podQOSClass(spec) };
  if ((spec.schedulingGates ?? []).length > 0) {
    pod.status.conditions = [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
  }
}

function validatePod(pod: Pod): FieldError[] {
  const spec = pod.spec ?? {};
  const errs = validatePodSpec(spec, 'spec', { resourceIsPod: true });
  errs.push(...validateContainersOnlyForPod(spec.containers, 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(spec.initContainers, 'spec.initContainers'));
  if (spec.nodeName && (spec.schedulingGates ?? []).length > 0) {
    errs.push(fieldErrors.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** Ephemeral containers only arrive through their own subresource. */
function validateNewPod(pod: Pod): FieldError[] {
  return (pod.spec?.ephemeralContainers ?? []).length > 0 ? [fieldErrors.forbidden('spec.ephemeralContainers', 'cannot be set on create')] : [];
}

/** The ephemeralcontainers subresource may add ephemeral containers, never change or remove one. */
function validateEphemeralContainersUpdate(pod: Pod, old: Pod): FieldError[] {
  const next = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  const errs: FieldError[] = [];
  for (const existing of old.spec?.ephemeralContainers ?? []) {
    const now = next.get(existing.name);
    if (!now) errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(existing.name)} may not be removed\n`));
    else if (!semanticEqual(existing, now)) errs.push(fieldErrors.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(existing.name)} may not be changed\n`));
  }
  return errs;
}

function validateContainerUpdates(next: readonly Container[] | undefined, prev: readonly Container[] | undefined, path: string): { errs: FieldError[]; stop: boolean } {
  if ((next ?? []).length !== (prev ?? []).length) return { errs: [fieldErrors.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  (next ?? []).forEach((c, i) => {
    if (!c.image) errs.push(fieldErrors.required(child(index(path, i), 'image')));
  });
  return { errs, stop: false };
}

/** Existing tolerations stay (only their tolerationSeconds may change); new ones may be added. */
function validateOnlyAddedTolerations(next: readonly Toleration[] | undefined, prev: readonly Toleration[] | undefined): FieldError[] {
  for (const old of prev ?? []) {
    const kept = (next ?? []).some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!kept) return [fieldErrors.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, 'spec.tolerations');
}

function validatePodUpdate(pod: Pod, old: Pod, subresource?: UpdateSubresource): FieldError[] {
  if (subresource === 'ephemeralcontainers') return validateEphemeralContainersUpdate(pod, old);
  // A binding sets the node once, which the pod's own updates may never do.
  if (subresource === 'binding') return [];
  const spec = pod.spec ?? {};
  const prev = old.spec ?? {};
  const errs: FieldError[] = [];
  for (const field of ['containers', 'initContainers'] as const) {
    const result = validateContainerUpdates(spec[field], prev[field], `spec.${field}`);
    errs.push(...result.errs);
    if (result.stop) return errs;
  }
  if (spec.activeDeadlineSeconds !== undefined) {
    const next = spec.activeDeadlineSeconds;
    if (next < 0 || next > MAX_INT32) return [...errs, fieldErrors.invalid('spec.activeDeadlineSeconds', next, inclusiveRangeError(0, MAX_INT32))];
    if (prev.activeDeadlineSeconds !== undefined && prev.activeDeadlineSeconds < next) {
      return [...errs, fieldErrors.invalid('spec.activeDeadlineSeconds', next, 'must be less than or equal to previous value')];
    }
  } else if (prev.activeDeadlineSeconds !== undefined) {
    errs.push(fieldErrors.invalid('spec.activeDeadlineSeconds', 'null', 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(spec.tolerations, prev.tolerations));
  const addedGates = (spec.schedulingGates ?? []).filter((g) => !(prev.schedulingGates ?? []).some((o) => o.name === g.name));
  for (const gate of addedGates) {
    const i = (spec.schedulingGates ?? []).indexOf(gate);
    errs.push(fieldErrors.forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${gate.name ?? ''}'`));
  }

  // Everything else must be as it was: blank out the fields that may change, then compare.
  const munged: PodSpec = structuredClone(spec);
  munged.containers = munged.containers?.map((c, i) => ({ ...c, image: prev.containers?.[i]?.image }));
  munged.initContainers = munged.initContainers?.map((c, i) => ({ ...c, image: prev.initContainers?.[i]?.image }));
  munged.activeDeadlineSeconds = prev.activeDeadlineSeconds;
  munged.schedulingGates = prev.schedulingGates;
  munged.tolerations = prev.tolerations;
  if ((prev.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = prev.terminationGracePeriodSeconds;
  }
  if (!semanticEqual(munged, prev)) {
    errs.push(fieldErrors.forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_FIELDS.join(',')}`));
  }
  return errs;
}

/**
 * Kubernetes' `podStrategy.CheckGracefulDelete`: the asked grace period, else the pod's own; an
 * unscheduled or finished pod has nothing to stop and goes at once; a negative period is 1.
 */
function podDeletionGracePeriod(pod: Pod, asked: number | undefined): number {
  const phase = pod.status?.phase;
  if (!pod.spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
  const period = asked ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  return period < 0 ? 1 : period;
}

const podSchema = defineKindSchema(
  `${CORE_V1}Pod`,
  { group: '', version: 'v1', kind: 'Pod' },
  'A group of containers that run together on one node, sharing network and storage.',
  {
    spec: coreField('PodSpec', 'The desired behavior of the pod.'),
    status: coreField('PodStatus', 'The observed state of the pod. Read-only.'),
  },
);

export const pods = defineKind<Pod>({
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  scope: 'namespace',
  shortNames: ['po'],
  categories: ['all'],
  schema: podSchema,
  status: true,
  returnDeletedObject: true,
  defaults: defaultPod,
  prepareForCreate: prepareNewPod,
  validate: validatePod,
  validateCreate: validateNewPod,
  validateUpdate: validatePodUpdate,
  deletionGracePeriod: podDeletionGracePeriod,
  columns: podColumns,
  // Served by their own handlers (src/server/handlers/pod-subresources.ts, read-handlers.ts), as kube-apiserver lists them.
  subresources: [
    { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
    { name: 'binding', kind: 'Binding', verbs: ['create'] },
    { name: 'ephemeralcontainers', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
    { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
    { name: 'log', kind: 'Pod', verbs: ['get'] },
    { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
  ],
  selectableFields: {
    'spec.nodeName': (pod) => pod.spec?.nodeName ?? '',
    'spec.restartPolicy': (pod) => pod.spec?.restartPolicy ?? '',
    'spec.schedulerName': (pod) => pod.spec?.schedulerName ?? '',
    'spec.serviceAccountName': (pod) => pod.spec?.serviceAccountName ?? '',
    'spec.hostNetwork': (pod) => String(pod.spec?.hostNetwork ?? false),
    'status.phase': (pod) => pod.status?.phase ?? '',
    'status.podIP': (pod) => pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP ?? '',
    'status.nominatedNodeName': (pod) => pod.status?.nominatedNodeName ?? '',
  },
});
