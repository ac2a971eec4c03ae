/**
 * Orphaning: an owner marked for deletion with the `orphan` finalizer first has its reference
 * removed from every dependent (which stay), then loses the finalizer and, with no other, goes.
 */
import { ORPHAN_FINALIZER } from '../../api/registry/garbage-collection.js';
import { done } from '../runtime/controller.js';
import { isOrphaning } from './graph.js';
import { removeFinalizer, removeOwnerReferences } from './object-writes.js';
import type { Step } from './steps.js';

export const reconcileOrphan: Step = async (deps, owner) => {
  if (!isOrphaning(owner.object)) return 'continue';
  const ownerUid = new Set([owner.uid]);
  for (const { node } of deps.graph.dependentsOf(owner)) await removeOwnerReferences(deps.client, node, ownerUid);
  await removeFinalizer(deps.client, owner, ORPHAN_FINALIZER);
  return done;
};
