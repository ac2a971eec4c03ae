/**
 * Creations and deletions a controller has asked for and not yet seen in its informer, per owner
 * (kube's ControllerExpectations with UIDTrackingControllerExpectations' deletion keys). While any
 * are outstanding the owner does not manage its replicas again, so an informer that is slow to
 * show the pods just created never makes the controller create them twice. Expectations expire
 * after five minutes, as kube's, so a lost watch event cannot stall an owner forever.
 *
 * @example
 *   expectations.expect(rsKey, { creations: 3, deletions: [] });
 *   expectations.creationObserved(rsKey);        // from the pod informer's add
 *   expectations.satisfied(rsKey);               // false until all three are seen
 */
import { keyString, type ObjectKey } from '../../src/client/object-key.js';

export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

interface Expected {
  creations: number;
  /** keyString of each pod whose deletion was asked for. */
  deletions: Set<string>;
  at: number;
}

export class Expectations {
  private readonly byOwner = new Map<string, Expected>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Replaces what is expected of the owner (a new round of manageReplicas). */
  expect(owner: ObjectKey, wanted: { creations: number; deletions: ObjectKey[] }): void {
    this.byOwner.set(keyString(owner), { creations: wanted.creations, deletions: new Set(wanted.deletions.map(keyString)), at: this.now() });
  }

  /** Whether the owner may act again: nothing outstanding, nothing recorded, or the record expired. */
  satisfied(owner: ObjectKey): boolean {
    const expected = this.byOwner.get(keyString(owner));
    if (!expected) return true;
    if (expected.creations <= 0 && expected.deletions.size === 0) return true;
    return this.now() - expected.at > EXPECTATIONS_TTL_MS;
  }

  creationObserved(owner: ObjectKey): void {
    const expected = this.byOwner.get(keyString(owner));
    if (expected && expected.creations > 0) expected.creations -= 1;
  }

  /** A creation that will never be observed (it failed or was skipped). */
  lowerCreations(owner: ObjectKey, count: number): void {
    const expected = this.byOwner.get(keyString(owner));
    if (expected) expected.creations = Math.max(0, expected.creations - count);
  }

  deletionObserved(owner: ObjectKey, pod: ObjectKey): void {
    this.byOwner.get(keyString(owner))?.deletions.delete(keyString(pod));
  }

  /** The owner is gone: forget it. */
  forget(owner: ObjectKey): void {
    this.byOwner.delete(keyString(owner));
  }
}
