/**
 * The garbage collector's writes, each aimed at the exact object a graph node saw (its space, kind,
 * location and uid): an object replaced by another of the same name is never touched, and one
 * already gone is success. Writes go through the client as the collector's own user, so
 * authorization, admission and validation apply as to anyone's.
 */
import type { PropagationPolicy } from '../../api/registry/garbage-collection.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ResourceClient } from '../../src/client/resource-client.js';
import type { CollectedResource } from './collected-kinds.js';
import type { GraphNode } from './graph.js';

/** `done`: the write happened or is moot (object gone or replaced); `stale`: the object changed, reconcile again. */
export type WriteOutcome = 'done' | 'stale';

/** Read-modify-write attempts before a conflict is given up (client-go's RetryOnConflict tries 5 times). */
const EDIT_ATTEMPTS = 5;

/** The resource in the object's own space (and namespace, for a namespaced kind) of `node`. */
export function resourceAt(client: KubeClient, resource: CollectedResource, tenant: string, namespace: string): ResourceClient {
  const space = client.space(tenant);
  return (resource.namespaced ? space.namespace(namespace) : space).resource(resource);
}

function nodeResource(client: KubeClient, node: GraphNode): ResourceClient {
  return resourceAt(client, node.resource, node.key.tenant, node.key.namespace);
}

/**
 * Read-modify-write of the node's object; `change` returns undefined when there is nothing to
 * change. The update carries the version read, so a concurrent write (or a replacement of the
 * object) is a conflict, and the next attempt reads again.
 */
async function edit(client: KubeClient, node: GraphNode, change: (obj: KubeObject) => KubeObject | undefined): Promise<void> {
  const objects = nodeResource(client, node);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const current = await objects.get(node.key.name);
      if (current.metadata.uid !== node.uid) return;
      const changed = change(current);
      if (changed === undefined) return;
      await objects.update(changed);
      return;
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || attempt === EDIT_ATTEMPTS) throw err;
    }
  }
}

/** Removes `finalizer` from the object; once no finalizer is left, a marked object goes. */
export function removeFinalizer(client: KubeClient, node: GraphNode, finalizer: string): Promise<void> {
  return edit(client, node, (obj) => {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return undefined;
    return { ...obj, metadata: { ...obj.metadata, finalizers: finalizers.filter((f) => f !== finalizer) } };
  });
}

/** Removes the references to the owners with these uids. */
export function removeOwnerReferences(client: KubeClient, node: GraphNode, ownerUids: ReadonlySet<string>): Promise<void> {
  return edit(client, node, (obj) => {
    const refs = obj.metadata.ownerReferences ?? [];
    const kept = refs.filter((r) => !ownerUids.has(r.uid));
    if (kept.length === refs.length) return undefined;
    const { ownerReferences: _dropped, ...rest } = obj.metadata;
    return { ...obj, metadata: kept.length > 0 ? { ...rest, ownerReferences: kept } : rest };
  });
}

/** Clears `blockOwnerDeletion` on every reference: breaks a foreground cycle (Kubernetes does the same). */
export function unblockOwnerReferences(client: KubeClient, node: GraphNode): Promise<void> {
  return edit(client, node, (obj) => {
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
export async function deleteObject(client: KubeClient, node: GraphNode, policy: PropagationPolicy): Promise<WriteOutcome> {
  const objects = nodeResource(client, node);
  const name = node.key.name;
  const judged = node.object.metadata;
  try {
    await objects.delete(name, { propagationPolicy: policy, preconditions: { uid: node.uid, resourceVersion: judged.resourceVersion } });
    return 'done';
  } catch (err) {
    if (isNotFound(err)) return 'done';
    if (!isConflict(err)) throw err;
  }
  let live: KubeObject;
  try {
    live = await objects.get(name);
  } catch (err) {
    if (isNotFound(err)) return 'done';
    throw err;
  }
  if (live.metadata.uid !== node.uid) return 'done';
  if (JSON.stringify(live.metadata.ownerReferences ?? []) !== JSON.stringify(judged.ownerReferences ?? [])) return 'stale';
  try {
    await objects.delete(name, { propagationPolicy: policy, preconditions: { uid: node.uid } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return 'done';
}
