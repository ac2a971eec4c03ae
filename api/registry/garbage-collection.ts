/**
 * How a DELETE hands an object's dependents to the garbage collector, as kube-apiserver's
 * `deletionFinalizersForGarbageCollection` does (`registry/generic/registry/store.go`): an
 * `orphan` finalizer keeps the dependents (their ownerReferences are removed first), a
 * `foregroundDeletion` finalizer deletes them before the owner; neither means background deletion.
 *
 * @example
 *   deletionFinalizers(configMaps, cm, { propagationPolicy: 'Foreground' }) // ['foregroundDeletion']
 *   deletionFinalizers(replicationControllers, rc, {})                      // ['orphan']: the kind's default
 *   deletionFinalizers(configMaps, cm, {})                                  // undefined: nothing to change
 */
import type { KubeObject } from './object.js';
import type { GarbageCollectionPolicy, ResourceDefinition } from './resource-definition.js';

/** Kubernetes' `metav1.FinalizerOrphanDependents`. */
export const ORPHAN_FINALIZER = 'orphan';
/** Kubernetes' `metav1.FinalizerDeleteDependents`. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** The parts of DeleteOptions that choose what happens to dependents. */
export interface PropagationOptions {
  propagationPolicy?: PropagationPolicy;
  /** Deprecated in Kubernetes, still honoured; a request never carries both (422). */
  orphanDependents?: boolean;
}

/**
 * A kind's policy. Cluster-scoped kinds (tenants) sit above every space, and ownerReferences never
 * leave a space, so the collector does not handle them: a finalizer on them would never be removed.
 */
export function garbageCollectionPolicy(def: ResourceDefinition): GarbageCollectionPolicy {
  return def.garbageCollectionPolicy ?? (def.scope === 'cluster' ? 'Unsupported' : 'DeleteDependents');
}

/** Kubernetes' `shouldOrphanDependents`: the request, then a finalizer already set, then the kind's default. */
function shouldOrphan(policy: GarbageCollectionPolicy, finalizers: readonly string[], opts: PropagationOptions): boolean {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Orphan';
  if (finalizers.includes(ORPHAN_FINALIZER)) return true;
  if (finalizers.includes(FOREGROUND_FINALIZER)) return false;
  return policy === 'OrphanDependents';
}

/** Kubernetes' `shouldDeleteDependents`: foreground only when asked for, now or by an earlier DELETE. */
function shouldDeleteInForeground(finalizers: readonly string[], opts: PropagationOptions): boolean {
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Foreground';
  return finalizers.includes(FOREGROUND_FINALIZER);
}

/**
 * The finalizers `obj` should carry once a DELETE with `opts` has been accepted, or undefined when
 * they stay as they are. Other finalizers keep their order; the collector's go last. A kind the
 * collector leaves alone loses any collector finalizer, which nobody would ever remove.
 */
export function deletionFinalizers(def: ResourceDefinition, obj: KubeObject, opts: PropagationOptions): string[] | undefined {
  const policy = garbageCollectionPolicy(def);
  const current = obj.metadata.finalizers ?? [];
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (policy !== 'Unsupported') {
    if (shouldOrphan(policy, current, opts)) next.push(ORPHAN_FINALIZER);
    if (shouldDeleteInForeground(current, opts)) next.push(FOREGROUND_FINALIZER);
  }
  const before = new Set(current);
  const after = new Set(next);
  const same = before.size === after.size && [...after].every((f) => before.has(f));
  return same ? undefined : next;
}
