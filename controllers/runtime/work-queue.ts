/**
 * A work queue of object keys, as client-go's: a key waiting twice is queued once, a key being
 * processed is never handed to a second worker (it is queued again for after), failures back off
 * exponentially per key, and `forget` resets the backoff after a success.
 */
import { keyString, parseKeyString, type ObjectKey } from '../../src/client/object-key.js';

export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  /** One pending delayed add per key, the earliest (client-go's delaying queue). */
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; at: number }>();
  private waiters: Array<(key: ObjectKey | null) => void> = [];
  private shuttingDown = false;

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 30_000,
  ) {}

  add(key: ObjectKey): void {
    if (this.shuttingDown) return;
    const k = keyString(key);
    if (this.dirty.has(k)) return;
    this.dirty.add(k);
    if (this.processing.has(k)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.dirty.delete(k);
      this.processing.add(k);
      waiter(key);
    } else {
      this.queue.push(k);
    }
  }

  /** Queues the key after `delayMs`; a key already waiting keeps the earlier of the two times. */
  addAfter(key: ObjectKey, delayMs: number): void {
    if (this.shuttingDown) return;
    const k = keyString(key);
    const at = Date.now() + delayMs;
    const pending = this.timers.get(k);
    if (pending) {
      if (pending.at <= at) return;
      clearTimeout(pending.timer);
    }
    const timer = setTimeout(() => {
      this.timers.delete(k);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.timers.set(k, { timer, at });
  }

  /** Queues the key again after its backoff, which doubles with each failure. */
  addRateLimited(key: ObjectKey): void {
    const k = keyString(key);
    const n = this.failures.get(k) ?? 0;
    this.failures.set(k, n + 1);
    this.addAfter(key, Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs));
  }

  forget(key: ObjectKey): void {
    this.failures.delete(keyString(key));
  }

  /** The next key to process, or null once the queue shuts down. */
  get(): Promise<ObjectKey | null> {
    if (this.shuttingDown) return Promise.resolve(null);
    const k = this.queue.shift();
    if (k !== undefined) {
      this.dirty.delete(k);
      this.processing.add(k);
      return Promise.resolve(parseKeyString(k));
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks processing of a key finished; if it was added meanwhile, it is queued again. */
  done(key: ObjectKey): void {
    const k = keyString(key);
    this.processing.delete(k);
    if (this.dirty.has(k)) {
      this.dirty.delete(k);
      this.add(key);
    }
  }

  get length(): number {
    return this.queue.length;
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const w of this.waiters.splice(0)) w(null);
  }
}
