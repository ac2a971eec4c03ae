/**
 * Background collection, Kubernetes' `attemptToDeleteItem`: a dependent judges each owner its
 * references name, reading the owner from the API (not the graph, which may lag) in the
 * dependent's own space and namespace:
 * - solid: the owner exists with that uid and is not deleting its dependents in the foreground;
 * - dangling: nothing at that name, or another object (another uid), e.g. a uid of another space;
 * - waiting: the owner is being deleted in the foreground.
 * With a solid owner the dependent stays and drops its dangling and waiting references; without
 * one it is deleted, in the foreground when a waiting owner needs its own dependents gone first.
 */
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from '../../api/registry/garbage-collection.js';
import { isNotFound } from '../../src/client/api-status.js';
import { done, requeue, type ReconcileResult } from '../runtime/controller.js';
import { isDeletingDependents, type GraphNode } from './graph.js';
import { deleteObject, removeOwnerReferences, resourceAt, unblockOwnerReferences, type WriteOutcome } from './object-writes.js';
import type { CollectorDeps, Step } from './steps.js';

/** The judgement of one reference; `unresolvable` and `unknown` stop the dependent's judgement. */
type Verdict = 'solid' | 'dangling' | 'waiting' | 'unresolvable' | 'unknown';

async function judgeOwner(deps: CollectorDeps, dependent: GraphNode, ref: OwnerReference): Promise<Verdict> {
  const kind = deps.ownerKind(dependent.key.tenant, ref);
  // A kind the space does not serve (yet): judged again later, as Kubernetes retries a failed REST mapping.
  if (kind.kind === 'unknown') return 'unknown';
  if (kind.kind === 'outside') return 'unresolvable';
  const { resource } = kind;
  // A space-scoped object naming a namespaced owner: Kubernetes never collects it.
  if (resource.namespaced && !dependent.resource.namespaced) return 'unresolvable';
  let owner: KubeObject;
  try {
    owner = await resourceAt(deps.client, resource, dependent.key.tenant, dependent.key.namespace).get(ref.name);
  } catch (err) {
    if (isNotFound(err)) return 'dangling';
    throw err;
  }
  if (owner.metadata.uid !== ref.uid) return 'dangling';
  return isDeletingDependents(owner) ? 'waiting' : 'solid';
}

function afterWrite(outcome: WriteOutcome): ReconcileResult {
  return outcome === 'done' ? done : requeue;
}

/** The policy an object is collected with: what its own finalizers already ask for, else background. */
function ownPolicy(obj: KubeObject): PropagationPolicy {
  const finalizers = obj.metadata.finalizers ?? [];
  if (finalizers.includes(ORPHAN_FINALIZER)) return 'Orphan';
  if (finalizers.includes(FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}

export const reconcileBackground: Step = async (deps, node) => {
  const meta = node.object.metadata;
  // Already being deleted: its own finalizers decide the rest.
  if (meta.deletionTimestamp) return done;
  const refs = meta.ownerReferences ?? [];
  if (refs.length === 0) return done;

  const solid: OwnerReference[] = [];
  const released: OwnerReference[] = [];
  let waiting = false;
  for (const ref of refs) {
    const verdict = await judgeOwner(deps, node, ref);
    if (verdict === 'unknown') return requeue;
    if (verdict === 'unresolvable') return done;
    if (verdict === 'solid') solid.push(ref);
    else released.push(ref);
    if (verdict === 'waiting') waiting = true;
  }

  if (solid.length > 0) {
    if (released.length === 0) return done;
    // Another owner keeps it; a waiting owner would otherwise wait for it forever.
    await removeOwnerReferences(deps.client, node, new Set(released.map((r) => r.uid)));
    return done;
  }
  const dependents = deps.graph.dependentsOf(node);
  if (waiting && dependents.length > 0) {
    // Its own dependents must go before it, so its waiting owner waits for them too. If one of
    // them already waits on its dependents, references could form a cycle: stop blocking first.
    if (dependents.some((edge) => isDeletingDependents(edge.node.object))) await unblockOwnerReferences(deps.client, node);
    return afterWrite(await deleteObject(deps.client, node, 'Foreground'));
  }
  return afterWrite(await deleteObject(deps.client, node, ownPolicy(node.object)));
};
