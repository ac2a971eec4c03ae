/**
 * The garbage collector's writes, each aimed at the exact object a graph node saw (its space, kind,
 * location and uid): an object replaced by another of the same name is never touched, and one
 * already gone is success. Writes go through the generic store, so admission and validation apply
 * as to any client's.
 */
import type { GenericStore, ObjectLocation } from '../../api/registry/generic-store.js';
import type { PropagationPolicy } from '../../api/registry/garbage-collection.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { ApiError } from '../../api/status.js';
import type { GraphNode } from './graph.js';

/** `done`: the write happened or is moot (object gone or replaced); `stale`: the object changed, reconcile again. */
export type WriteOutcome = 'done' | 'stale';

function locationOf(node: GraphNode): ObjectLocation {
  return { tenant: node.key.tenant, namespace: node.def.scope === 'namespace' ? node.key.namespace : undefined, name: node.key.name };
}

function isReason(err: unknown, reason: ApiError['reason']): boolean {
  return err instanceof ApiError && err.reason === reason;
}

/** Read-modify-write of the node's object; `edit` returns undefined when there is nothing to change. */
async function edit(generic: GenericStore, node: GraphNode, change: (obj: KubeObject) => KubeObject | undefined): Promise<void> {
  try {
    await generic.mutate(node.def, locationOf(node), (current) => (current.metadata.uid === node.uid ? (change(current) ?? current) : current));
  } catch (err) {
    if (!isReason(err, 'NotFound')) throw err;
  }
}

/** Removes `finalizer` from the object; once no finalizer is left, a marked object goes. */
export function removeFinalizer(generic: GenericStore, node: GraphNode, finalizer: string): Promise<void> {
  return edit(generic, node, (obj) => {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return undefined;
    return { ...obj, metadata: { ...obj.metadata, finalizers: finalizers.filter((f) => f !== finalizer) } };
  });
}

/** Removes the references to the owners with these uids. */
export function removeOwnerReferences(generic: GenericStore, node: GraphNode, ownerUids: ReadonlySet<string>): Promise<void> {
  return edit(generic, node, (obj) => {
    const refs = obj.metadata.ownerReferences ?? [];
    const kept = refs.filter((r) => !ownerUids.has(r.uid));
    if (kept.length === refs.length) return undefined;
    const { ownerReferences: _dropped, ...rest } = obj.metadata;
    return { ...obj, metadata: kept.length > 0 ? { ...rest, ownerReferences: kept } : rest };
  });
}

/** Clears `blockOwnerDeletion` on every reference: breaks a foreground cycle (Kubernetes does the same). */
export function unblockOwnerReferences(generic: GenericStore, node: GraphNode): Promise<void> {
  return edit(generic, node, (obj) => {
    const refs = obj.metadata.ownerReferences ?? [];
    if (!refs.some((r) => r.blockOwnerDeletion)) return undefined;
    const unblocked: OwnerReference[] = refs.map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
    return { ...obj, metadata: { ...obj.metadata, ownerReferences: unblocked } };
  });
}

/**
 * Deletes the node's object, provided it is still the version whose owners were judged. A newer
 * version with the same ownerReferences (a status write, say) is deleted all the same; one whose
 * references changed is `stale` and judged again (Kubernetes' `deleteObject` does the same).
 */
export async function deleteObject(generic: GenericStore, node: GraphNode, policy: PropagationPolicy): Promise<WriteOutcome> {
  const loc = locationOf(node);
  const judged = node.object.metadata;
  try {
    await generic.delete(node.def, loc, { propagationPolicy: policy, preconditions: { uid: node.uid, resourceVersion: judged.resourceVersion } });
    return 'done';
  } catch (err) {
    if (isReason(err, 'NotFound')) return 'done';
    if (!isReason(err, 'Conflict')) throw err;
  }
  let live: KubeObject;
  try {
    live = await generic.get(node.def, loc);
  } catch (err) {
    if (isReason(err, 'NotFound')) return 'done';
    throw err;
  }
  if (live.metadata.uid !== node.uid) return 'done';
  if (JSON.stringify(live.metadata.ownerReferences ?? []) !== JSON.stringify(judged.ownerReferences ?? [])) return 'stale';
  try {
    await generic.delete(node.def, loc, { propagationPolicy: policy, preconditions: { uid: node.uid } });
  } catch (err) {
    if (!isReason(err, 'NotFound')) throw err;
  }
  return 'done';
}
