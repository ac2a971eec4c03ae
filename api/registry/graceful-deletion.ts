/**
 * Graceful deletion, as kube-apiserver's `rest.BeforeDelete` does it for kinds with a graceful
 * strategy (pods): a DELETE does not remove the object but marks it with a `deletionTimestamp` a
 * grace period ahead and `deletionGracePeriodSeconds`, and whoever runs it (a kubelet, here the node
 * simulator) deletes it once it has stopped, with a grace period of 0. While the deletion is
 * pending, another DELETE may only shorten it; 0 ends it at once.
 *
 * @example
 *   gracefulDeletion(pods, boundPod, undefined)  // { timestamp: <now + 30 s>, gracePeriodSeconds: 30 }
 *   gracefulDeletion(pods, markedPod, undefined) // 'pending'
 */
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';
import { nowTimestamp } from './timestamp.js';

/** When a DELETE marks an object: its `deletionTimestamp` and `deletionGracePeriodSeconds`. */
export interface DeletionMark {
  timestamp: string;
  gracePeriodSeconds: number;
}

/**
 * What a DELETE asking `asked` seconds (undefined: the object's default) does to `obj`: mark it
 * (a new or shortened deadline), leave a pending deletion alone ('pending'), or nothing graceful
 * (undefined: the kind has no grace period, the period is 0, or a deletion without one is under way).
 */
export function gracefulDeletion(def: ResourceDefinition, obj: KubeObject, asked: number | undefined, now = Date.now()): DeletionMark | 'pending' | undefined {
  if (!def.deletionGracePeriod) return undefined;
  const meta = obj.metadata;
  if (meta.deletionTimestamp) {
    const period = meta.deletionGracePeriodSeconds ?? 0;
    // Marked without a grace period (finalizers), or a deletion that stopped between its update and its delete: go on now.
    if (period === 0) return undefined;
    if (asked === undefined || asked >= period) return 'pending';
    const started = Date.parse(meta.deletionTimestamp) - period * 1000;
    return { timestamp: nowTimestamp(started + asked * 1000), gracePeriodSeconds: asked };
  }
  const period = def.deletionGracePeriod(obj, asked);
  return period > 0 ? { timestamp: nowTimestamp(now + period * 1000), gracePeriodSeconds: period } : undefined;
}
