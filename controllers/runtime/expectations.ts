/**
 * Controller expectations, as kube-controller-manager's: after creating or deleting N objects a
 * controller waits until its informer has seen them before counting again, so a reconcile that
 * runs before the cache caught up never creates a second batch. Expectations expire (5 minutes),
 * so a lost watch event cannot stall a controller for ever. Keys carry the tenant (keyString).
 *
 * @example
 *   expectations.expect(key, { adds: 2 });
 *   // informer: a pod of that owner appears → expectations.observeAdd(key)
 *   if (!expectations.satisfied(key)) return; // wait for the cache
 */
import { keyString, type ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from './clock.js';

const EXPIRY_MS = 5 * 60_000;

interface Pending {
  adds: number;
  deletes: number;
  at: number;
}

export class Expectations {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly clock: Clock = realClock) {}

  /** Whether the cache has seen everything this owner did (or the wait expired). */
  satisfied(key: ObjectKey): boolean {
    const p = this.pending.get(keyString(key));
    if (!p) return true;
    if ((p.adds <= 0 && p.deletes <= 0) || this.clock.now() - p.at > EXPIRY_MS) {
      this.pending.delete(keyString(key));
      return true;
    }
    return false;
  }

  expect(key: ObjectKey, counts: { adds?: number; deletes?: number }): void {
    const k = keyString(key);
    const p = this.pending.get(k) ?? { adds: 0, deletes: 0, at: 0 };
    this.pending.set(k, { adds: Math.max(p.adds, 0) + (counts.adds ?? 0), deletes: Math.max(p.deletes, 0) + (counts.deletes ?? 0), at: this.clock.now() });
  }

  observeAdd(key: ObjectKey): void {
    const p = this.pending.get(keyString(key));
    if (p) p.adds -= 1;
  }

  observeDelete(key: ObjectKey): void {
    const p = this.pending.get(keyString(key));
    if (p) p.deletes -= 1;
  }

  forget(key: ObjectKey): void {
    this.pending.delete(keyString(key));
  }
}
