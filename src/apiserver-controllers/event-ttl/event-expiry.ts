/**
 * Events expire `--event-ttl` (default an hour, as kube-apiserver's) after their last write.
 * kube-apiserver attaches an etcd lease to every event write; our embedded store has no leases, so
 * one mechanism serves both backends: a sweep (each minute, or twice per shorter TTL) over the events the watch cache holds
 * (memory, no storage read) deletes, through the generic store, every event whose last write is
 * older than the TTL, with the resourceVersion it was judged at as a precondition, so an event
 * written meanwhile is kept. The last write is the newest of `creationTimestamp` and the times in
 * `managedFields` (every write through the API stamps its manager's entry). Several servers on one
 * etcd may all sweep: a second delete of the same event finds it gone or changed, and is dropped.
 */
import { ALL_TENANTS, type GenericStore } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { WatchCaches } from '../../../api/registry/watch-cache.js';
import { ApiError } from '../../../api/status.js';

/** kube-apiserver's `--event-ttl` default. */
export const EVENT_TTL_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;

/** How often to sweep: each minute, or twice per TTL when the TTL is shorter, so no event outlives it by much. */
export function sweepIntervalMs(ttlMs: number): number {
  return Math.max(100, Math.min(SWEEP_INTERVAL_MS, Math.floor(ttlMs / 2)));
}

export interface EventExpiryOptions {
  generic: GenericStore;
  watchCaches: WatchCaches;
  /** The core/v1 Event kind: the storage of both event APIs. */
  events: ResourceDefinition;
  ttlMs?: number;
  intervalMs?: number;
  now?: () => number;
  log: { error(obj: object, msg: string): void };
}

/** When the event was last written (ms), from its creation and its managers' write times. */
export function lastWrite(event: KubeObject): number {
  const times = [event.metadata.creationTimestamp, ...(event.metadata.managedFields ?? []).map((f) => f.time)];
  return Math.max(0, ...times.map((t) => (t ? Date.parse(t) : 0)).filter((t) => !Number.isNaN(t)));
}

export class EventExpiry {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly options: EventExpiryOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs ?? sweepIntervalMs(this.options.ttlMs ?? EVENT_TTL_MS));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Deletes the expired events; resolves with how many went. One sweep at a time. */
  sweep(): Promise<number> {
    this.sweeping ??= this.deleteExpired().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async deleteExpired(): Promise<number> {
    const { generic, watchCaches, events, log } = this.options;
    const deadline = (this.options.now ?? Date.now)() - (this.options.ttlMs ?? EVENT_TTL_MS);
    let deleted = 0;
    try {
      const { items } = await watchCaches.list(events, { tenant: ALL_TENANTS }, {});
      for (const event of items) {
        if (lastWrite(event) > deadline) continue;
        const meta = event.metadata;
        try {
          await generic.delete(events, { tenant: meta.tenant!, namespace: meta.namespace, name: meta.name! }, { preconditions: { resourceVersion: meta.resourceVersion } });
          deleted += 1;
        } catch (err) {
          // Gone already, or written since it was judged (then it is no longer expired).
          if (!(err instanceof ApiError && (err.reason === 'NotFound' || err.reason === 'Conflict'))) throw err;
        }
      }
    } catch (err) {
      log.error({ err }, 'event expiry failed');
    }
    return deleted;
  }
}
