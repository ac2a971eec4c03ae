/**
 * LimitRanger admission, as kube-apiserver's plugin: on pod create, the namespace's LimitRanges
 * fill in the `default` limits and `defaultRequest` requests a container (or init container) does
 * not state, recorded in the `kubernetes.io/limit-ranger` annotation (mutating phase, before the
 * pod is validated); then `min`, `max` and `maxLimitRequestRatio` of Container and Pod items are
 * enforced on pods, and of PersistentVolumeClaim items on claims (create and update), refused
 * with kube's words (`pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, …]`).
 * Pod updates are left alone, as containers' resources cannot change.
 */
import { ratioUnits } from '../kinds/core/limit-range.js';
import type { Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod, PodSpec, ResourceList } from '../kinds/core/types.js';
import { addUsage, toUsage, type Usage } from '../quota/resource-usage.js';
import { admissionForbidden } from '../registry/api-errors.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import { formatQuantity, parseQuantity, type Quantity } from '../validation/quantity.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/** The LimitRanges of a namespace, from the server's informer. */
export type LimitRangeReader = (tenant: string, namespace: string) => LimitRange[];

function concerns(attrs: AdmissionAttributes): 'pod' | 'claim' | undefined {
  if (attrs.def.group !== '' || attrs.subresource !== undefined || attrs.namespace === undefined) return undefined;
  if (attrs.def.resource === 'pods') return attrs.operation === 'create' ? 'pod' : undefined;
  if (attrs.def.resource === 'persistentvolumeclaims') return attrs.operation === 'create' || attrs.operation === 'update' ? 'claim' : undefined;
  return undefined;
}

/** Fills what the container lacks; returns the annotation phrases (`cpu, memory request for container c`). */
function mergeContainerDefaults(c: Container, item: LimitRangeItem, kind: string): string[] {
  const fill = (part: 'limits' | 'requests', defaults: ResourceList | undefined): string[] => {
    const set: string[] = [];
    const current = c.resources?.[part] ?? {};
    for (const [name, value] of Object.entries(defaults ?? {})) {
      if (name in current) continue;
      current[name] = value;
      set.push(name);
    }
    if (set.length > 0) c.resources = { ...c.resources, [part]: current };
    return set.sort();
  };
  const limits = fill('limits', item.default);
  const requests = fill('requests', item.defaultRequest);
  return [
    ...(requests.length > 0 ? [`${requests.join(', ')} request for ${kind} ${c.name ?? ''}`] : []),
    ...(limits.length > 0 ? [`${limits.join(', ')} limit for ${kind} ${c.name ?? ''}`] : []),
  ];
}

function applyDefaults(pod: Pod, lr: LimitRange): void {
  const item = (lr.spec?.limits ?? []).find((l) => l.type === 'Container');
  if (!item) return;
  const spec = pod.spec ?? {};
  const phrases = [
    ...(spec.containers ?? []).flatMap((c) => mergeContainerDefaults(c, item, 'container')),
    ...(spec.initContainers ?? []).flatMap((c) => mergeContainerDefaults(c, item, 'init container')),
  ];
  if (phrases.length === 0) return;
  pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${phrases.join('; ')}` };
}

type Found = Quantity | undefined;
const text = (q: Quantity): string => formatQuantity(q);
const quantityOf = (list: ResourceList | Usage | undefined, name: string): Found =>
  list instanceof Map ? list.get(name) : list?.[name] === undefined ? undefined : parseQuantity(list[name]!);

function minConstraint(type: string, name: string, enforced: Quantity, req: Found, lim: Found): string | undefined {
  const u = ratioUnits([enforced, ...(req ? [req] : []), ...(lim ? [lim] : [])]);
  if (!req) return `minimum ${name} usage per ${type} is ${text(enforced)}.  No request is specified`;
  if (u.value(req) < u.value(enforced)) return `minimum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req)}`;
  if (lim && u.value(lim) < u.value(enforced)) return `minimum ${name} usage per ${type} is ${text(enforced)}, but limit is ${text(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, req: Found, lim: Found): string | undefined {
  const u = ratioUnits([enforced, ...(req ? [req] : []), ...(lim ? [lim] : [])]);
  if (!lim) return `maximum ${name} usage per ${type} is ${text(enforced)}.  No limit is specified`;
  if (u.value(lim) > u.value(enforced)) return `maximum ${name} usage per ${type} is ${text(enforced)}, but limit is ${text(lim)}`;
  if (req && u.value(req) > u.value(enforced)) return `maximum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req)}`;
  return undefined;
}

function maxRequestConstraint(type: string, name: string, enforced: Quantity, req: Found): string | undefined {
  const u = ratioUnits([enforced, ...(req ? [req] : [])]);
  if (!req) return `maximum ${name} usage per ${type} is ${text(enforced)}.  No request is specified`;
  if (u.value(req) > u.value(enforced)) return `maximum ${name} usage per ${type} is ${text(enforced)}, but request is ${text(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, req: Found, lim: Found): string | undefined {
  const u = ratioUnits([enforced, ...(req ? [req] : []), ...(lim ? [lim] : [])]);
  if (!req || req.nanos === 0n) return `${name} max limit to request ratio per ${type} is ${text(enforced)}, but no request is specified or request is 0`;
  if (!lim || lim.nanos === 0n) return `${name} max limit to request ratio per ${type} is ${text(enforced)}, but no limit is specified or limit is 0`;
  const observed = u.value(lim) / u.value(req);
  if (observed * u.scale > u.value(enforced)) return `${name} max limit to request ratio per ${type} is ${text(enforced)}, but provided ratio is ${observed.toFixed(6)}`;
  return undefined;
}

/** Checks one set of requests and limits against an item's bounds, resources in name order. */
function checkBounds(item: LimitRangeItem, requests: ResourceList | Usage | undefined, limits: ResourceList | Usage | undefined): string[] {
  const type = item.type ?? '';
  const errs: Array<string | undefined> = [];
  const each = (bounds: ResourceList | undefined, check: (name: string, enforced: Quantity) => string | undefined): void => {
    for (const name of Object.keys(bounds ?? {}).sort()) {
      const enforced = parseQuantity(bounds![name]!);
      if (enforced) errs.push(check(name, enforced));
    }
  };
  each(item.min, (name, enforced) => minConstraint(type, name, enforced, quantityOf(requests, name), quantityOf(limits, name)));
  each(item.max, (name, enforced) => maxConstraint(type, name, enforced, quantityOf(requests, name), quantityOf(limits, name)));
  each(item.maxLimitRequestRatio, (name, enforced) => ratioConstraint(type, name, enforced, quantityOf(requests, name), quantityOf(limits, name)));
  return errs.filter((e): e is string => e !== undefined);
}

/** A pod's requests or limits for Pod items: the containers' sum, or an init container's own if larger. */
function podTotal(spec: PodSpec, part: 'requests' | 'limits'): Usage {
  let total: Usage = new Map();
  for (const c of spec.containers ?? []) total = addUsage(total, toUsage(c.resources?.[part]));
  for (const c of spec.initContainers ?? []) {
    for (const [name, value] of Object.entries(c.resources?.[part] ?? {})) {
      const q = parseQuantity(value);
      if (q && q.nanos > (total.get(name)?.nanos ?? 0n)) total.set(name, q);
    }
  }
  return total;
}

function podErrors(pod: Pod, lr: LimitRange): string[] {
  const spec = pod.spec ?? {};
  const errs: string[] = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type === 'Container') {
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) errs.push(...checkBounds(item, c.resources?.requests, c.resources?.limits));
    }
    if (item.type === 'Pod') errs.push(...checkBounds(item, podTotal(spec, 'requests'), podTotal(spec, 'limits')));
  }
  return errs;
}

function claimErrors(claim: PersistentVolumeClaim, lr: LimitRange): string[] {
  const requests = claim.spec?.resources?.requests;
  const errs: Array<string | undefined> = [];
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const name of Object.keys(item.min ?? {}).sort()) errs.push(minConstraint(item.type, name, parseQuantity(item.min![name]!)!, quantityOf(requests, name), undefined));
    for (const name of Object.keys(item.max ?? {}).sort()) errs.push(maxRequestConstraint(item.type, name, parseQuantity(item.max![name]!)!, quantityOf(requests, name)));
  }
  return errs.filter((e): e is string => e !== undefined);
}

/** Go's utilerrors aggregate: one error as itself, several as `[a, b]`. */
function aggregate(errs: string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

export function limitRanger(readLimitRanges: LimitRangeReader): AdmissionPlugin {
  return {
    mutate(attrs) {
      if (concerns(attrs) !== 'pod') return;
      for (const lr of readLimitRanges(attrs.tenant, attrs.namespace!)) applyDefaults(attrs.object as Pod, lr);
    },
    admit(attrs) {
      const kind = concerns(attrs);
      if (!kind) return;
      for (const lr of readLimitRanges(attrs.tenant, attrs.namespace!)) {
        const errs = kind === 'pod' ? podErrors(attrs.object as Pod, lr) : claimErrors(attrs.object as KubeObject as PersistentVolumeClaim, lr);
        if (errs.length > 0) throw admissionForbidden(attrs.def, attrs.object, aggregate(errs));
      }
    },
  };
}
