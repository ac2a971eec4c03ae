/**
 * What an object uses of a quota, per kind, as kube's quota evaluators
 * (`pkg/quota/v1/evaluator/core`: pods, services, persistent volume claims; every other resource
 * an object count, `count/<resource>.<group>`). The admission plugin charges a write with it and
 * the quota controller sums it over a namespace, so both count alike.
 *
 * @example
 *   const pods = evaluatorFor('', 'pods');
 *   pods.usage(pod, Date.now()) // Map { 'count/pods' => 1, 'pods' => 1, 'requests.cpu' => 100m, … }
 */
import { podQOSClass } from '../kinds/core/pod-qos.js';
import type { Container, PersistentVolumeClaim, Pod, PodSpec, ResourceList, ScopedResourceSelectorRequirement, Service } from '../kinds/core/types.js';
import type { KubeObject } from '../registry/object.js';
import { parseQuantity } from '../validation/quantity.js';
import { addUsage, count, toUsage, type Usage } from './resource-usage.js';

export interface QuotaEvaluator {
  /** Whether an operation can change usage (object counts change on create only). */
  handles(operation: 'create' | 'update' | 'delete'): boolean;
  /** The resources of `names` this evaluator measures. */
  matchingResources(names: string[]): string[];
  /** Whether an object falls in a scope requirement of a quota. */
  matchesScope(req: ScopedResourceSelectorRequirement, obj: KubeObject): boolean;
  /** What the object uses now (`now` decides whether a deleted pod's grace has run out). */
  usage(obj: KubeObject, now: number): Usage;
  /** Refusal text when the object cannot be charged for `required` (a container without a cpu limit), else undefined. */
  constraints(required: string[], obj: KubeObject): string | undefined;
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` for others. */
export function objectCountName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** Core resources whose count also has a bare name (`configmaps` beside `count/configmaps`). */
const LEGACY_COUNT_NAMES = new Set(['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas', 'services', 'persistentvolumeclaims', 'pods']);

/** Never charged, as kube-apiserver's default quota configuration ignores them (events come and go by the thousand). */
export function isQuotaIgnored(group: string, resource: string): boolean {
  return resource === 'events' && (group === '' || group === 'events.k8s.io');
}

/** A space's limit on all its objects together (a Tenant's `spec.hard`; ResourceQuotas have no such name). */
export const TOTAL_OBJECT_COUNT = 'count/*';

/** A space's limit on the bytes its objects take in storage, as stored (a Tenant's `spec.hard`). */
export const STORED_BYTES = 'storage/bytes';

/** A write that takes `bytes` more of storage, as an evaluator of that amount. */
export function storedBytesEvaluator(bytes: number): QuotaEvaluator {
  return {
    handles: () => true,
    matchingResources: (hard) => hard.filter((n) => n === STORED_BYTES),
    matchesScope: () => false,
    usage: () => new Map([[STORED_BYTES, count(bytes)]]),
    constraints: () => undefined,
  };
}

function objectCountEvaluator(group: string, resource: string, extraNames: string[] = []): QuotaEvaluator {
  const names = [objectCountName(group, resource), ...(group === '' && LEGACY_COUNT_NAMES.has(resource) ? [resource] : []), ...extraNames];
  return {
    handles: (operation) => operation === 'create',
    matchingResources: (hard) => hard.filter((n) => names.includes(n)),
    matchesScope: () => false,
    usage: () => new Map(names.map((n) => [n, count(1)])),
    constraints: () => undefined,
  };
}

// ---- pods ------------------------------------------------------------------------------------

const POD_RESOURCES = new Set([
  'count/pods', 'pods', 'cpu', 'memory', 'ephemeral-storage',
  'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
]);
/** Resources every container must state when a quota limits them (kube's "BACKWARD COMPATIBILITY REQUIREMENT"). */
const CONTAINER_REQUIRED = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

function isExtendedResource(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');
}

function isPodResource(name: string): boolean {
  return POD_RESOURCES.has(name) || name.startsWith('requests.hugepages-') || (name.startsWith('requests.') && isExtendedResource(name.slice('requests.'.length)));
}

/** The quota resources of a set of requests and limits (kube's podComputeUsageHelper). */
function computeUsage(requests: Usage, limits: Usage): Usage {
  const result: Usage = new Map([['pods', count(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request) {
      result.set(name, request);
      result.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit) result.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      result.set(name, request);
      result.set(`requests.${name}`, request);
    } else if (isExtendedResource(name)) {
      result.set(`requests.${name}`, request);
    }
  }
  return result;
}

function maxUsage(a: Usage, b: Usage): Usage {
  const result: Usage = new Map(a);
  for (const [name, q] of b) {
    const cur = result.get(name);
    if (!cur || q.nanos > cur.nanos) result.set(name, q);
  }
  return result;
}

/**
 * A pod's effective requests (or limits): its containers' sum, or more if an init container
 * needs more on its own (restartable init containers, sidecars, run beside the others and add
 * up), plus the pod overhead — resourcehelper.PodRequests.
 */
function podResources(spec: PodSpec, part: 'requests' | 'limits'): Usage {
  const of = (c: Container): Usage => toUsage(c.resources?.[part]);
  let total: Usage = new Map();
  for (const c of spec.containers ?? []) total = addUsage(total, of(c));
  let sidecars: Usage = new Map();
  let init: Usage = new Map();
  for (const c of spec.initContainers ?? []) {
    let need = of(c);
    if (c.restartPolicy === 'Always') {
      total = addUsage(total, need);
      sidecars = addUsage(sidecars, need);
      need = sidecars;
    } else {
      need = addUsage(need, sidecars);
    }
    init = maxUsage(init, need);
  }
  total = maxUsage(total, init);
  const overhead = (spec as { overhead?: ResourceList }).overhead;
  return overhead ? addUsage(total, toUsage(overhead)) : total;
}

/** Whether a pod still counts for compute resources: not terminal, and not past its deletion grace (kube's QuotaV1Pod). */
export function podCountsForQuota(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (deletion && grace !== undefined && now > Date.parse(deletion) + grace * 1000) return false;
  return true;
}

function usesCrossNamespaceAffinity(spec: PodSpec): boolean {
  const affinity = spec.affinity as Record<string, { requiredDuringSchedulingIgnoredDuringExecution?: Array<Record<string, unknown>>; preferredDuringSchedulingIgnoredDuringExecution?: Array<{ podAffinityTerm?: Record<string, unknown> }> }> | undefined;
  const terms = ['podAffinity', 'podAntiAffinity'].flatMap((k) => [
    ...(affinity?.[k]?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(affinity?.[k]?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((p) => p.podAffinityTerm ?? {}),
  ]);
  return terms.some((t) => t.namespaceSelector !== undefined || ((t.namespaces as unknown[] | undefined)?.length ?? 0) > 0);
}

function matchesPodScope(req: ScopedResourceSelectorRequirement, obj: KubeObject): boolean {
  const spec = ((obj as Pod).spec ?? {}) as PodSpec;
  switch (req.scopeName) {
    case 'Terminating':
      return spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return !(spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds >= 0);
    case 'BestEffort':
      return podQOSClass(spec) === 'BestEffort';
    case 'NotBestEffort':
      return podQOSClass(spec) !== 'BestEffort';
    case 'PriorityClass': {
      const name = spec.priorityClassName ?? '';
      switch (req.operator) {
        case 'In':
          return (req.values ?? []).includes(name);
        case 'NotIn':
          return !(req.values ?? []).includes(name);
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        default:
          return false;
      }
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(spec);
    default:
      return false;
  }
}

const podEvaluator: QuotaEvaluator = {
  // Pod resize is off: a pod's resources never change after create.
  handles: (operation) => operation === 'create',
  matchingResources: (names) => names.filter(isPodResource),
  matchesScope: matchesPodScope,
  usage(obj, now) {
    const pod = obj as Pod;
    const result: Usage = new Map([['count/pods', count(1)]]);
    if (!podCountsForQuota(pod, now)) return result;
    const spec = pod.spec ?? {};
    for (const [name, q] of computeUsage(podResources(spec, 'requests'), podResources(spec, 'limits'))) result.set(name, q);
    return result;
  },
  constraints(required, obj) {
    const spec = (obj as Pod).spec ?? {};
    const needed = required.filter((r) => CONTAINER_REQUIRED.has(r));
    if (needed.length === 0) return undefined;
    const missing = new Map<string, Set<string>>();
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      const stated = computeUsage(toUsage(c.resources?.requests), toUsage(c.resources?.limits));
      for (const r of needed) if (!stated.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name ?? ''));
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
};

// ---- services --------------------------------------------------------------------------------

const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);

const serviceEvaluator: QuotaEvaluator = {
  handles: (operation) => operation === 'create' || operation === 'update',
  matchingResources: (names) => names.filter((n) => SERVICE_RESOURCES.has(n)),
  matchesScope: () => false,
  usage(obj) {
    const spec = (obj as Service).spec ?? {};
    const ports = spec.ports ?? [];
    const result: Usage = new Map([
      ['count/services', count(1)],
      ['services', count(1)],
    ]);
    if (spec.type === 'NodePort') result.set('services.nodeports', count(ports.length));
    if (spec.type === 'LoadBalancer') {
      // Node ports are not allocated yet: count what the service asks for.
      const nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
      result.set('services.nodeports', count(nodePorts));
      result.set('services.loadbalancers', count(1));
    }
    return result;
  },
  constraints: () => undefined,
};

// ---- persistent volume claims ------------------------------------------------------------------

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const CLAIM_RESOURCES = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage']);

const claimEvaluator: QuotaEvaluator = {
  handles: (operation) => operation === 'create' || operation === 'update',
  matchingResources: (names) =>
    names.filter((n) => CLAIM_RESOURCES.has(n) || n.endsWith(`${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`) || n.endsWith(`${STORAGE_CLASS_SUFFIX}requests.storage`)),
  matchesScope: () => false,
  usage(obj) {
    const claim = obj as PersistentVolumeClaim;
    const storageClass = claim.spec?.storageClassName ?? claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
    const result: Usage = new Map([
      ['count/persistentvolumeclaims', count(1)],
      ['persistentvolumeclaims', count(1)],
    ]);
    if (storageClass) result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, count(1));
    const request = claim.spec?.resources?.requests?.storage;
    const storage = request === undefined ? undefined : parseQuantity(request);
    if (storage) {
      result.set('requests.storage', storage);
      if (storageClass) result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return result;
  },
  constraints: () => undefined,
};

/** The evaluator of a resource: the core kinds above, else an object count. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator {
  if (group === '') {
    if (resource === 'pods') return podEvaluator;
    if (resource === 'services') return serviceEvaluator;
    if (resource === 'persistentvolumeclaims') return claimEvaluator;
  }
  return objectCountEvaluator(group, resource);
}

/**
 * What an object uses of its space's limits (a Tenant's `spec.hard`): one of its kind's count,
 * and one of the space's total (`count/*`), whatever the kind.
 */
export function spaceEvaluatorFor(group: string, resource: string): QuotaEvaluator {
  return objectCountEvaluator(group, resource, [TOTAL_OBJECT_COUNT]);
}
