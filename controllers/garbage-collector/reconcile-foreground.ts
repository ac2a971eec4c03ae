/**
 * Foreground deletion: an owner marked for deletion with the `foregroundDeletion` finalizer has its
 * dependents deleted first. Each dependent is queued to judge its own owners (another owner may
 * keep it; this one, waiting, does not). Once no dependent that blocks (`blockOwnerDeletion`)
 * remains, the finalizer goes and, with no other finalizer, the owner too. Dependents that do not
 * block are deleted all the same, but the owner does not wait for them.
 */
import { FOREGROUND_FINALIZER } from '../../api/registry/garbage-collection.js';
import { done } from '../runtime/controller.js';
import { isDeletingDependents } from './graph.js';
import { removeFinalizer } from './object-writes.js';
import type { Step } from './steps.js';

export const reconcileForeground: Step = async (deps, owner) => {
  if (!isDeletingDependents(owner.object)) return 'continue';
  const dependents = deps.graph.dependentsOf(owner);
  if (!dependents.some((edge) => edge.ref.blockOwnerDeletion === true)) {
    await removeFinalizer(deps.client, owner, FOREGROUND_FINALIZER);
    return done;
  }
  for (const { node } of dependents) if (!node.object.metadata.deletionTimestamp) deps.enqueue(node);
  // No timer: a blocking dependent that goes, or drops its reference, queues this owner again.
  return done;
};
