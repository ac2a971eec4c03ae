/**
 * The EventRecorder of the controllers: events.k8s.io/v1 Events written through the client as the
 * calling controller (its reportingController and reportingInstance), in the regarding object's
 * space and namespace (`default` for an object without one, as client-go does; the system space
 * for objects above the spaces, such as Nodes).
 *
 * As client-go's `tools/events` broadcaster, an event isomorphic to one recorded recently (same
 * action, reason, regarding and related objects) is not a new Event: the second occurrence patches
 * a `series` (count 2) into the first, later ones count in memory, and the count is written when
 * the series ends (no occurrence for six minutes) or every thirty minutes while it lasts. As the
 * core EventCorrelator, a token bucket per source and object (burst 25, one more every five
 * minutes) drops what a controller stuck in a loop would write.
 *
 * `record` never blocks and never fails: writes go through a bounded queue drained by one
 * worker; when the queue is full the event is dropped and logged. A failed write is retried a
 * few times when the server could not be reached, never when it refused the event.
 *
 * @example
 *   const recorder = new ClientEventRecorder({ client, reportingController: 'deployment-controller', reportingInstance: 'deployment-controller-host1', log });
 *   recorder.record({ regarding: deployment, type: 'Normal', reason: 'ScalingReplicaSet', action: 'Scale', note: 'Scaled up replica set web-5d8 to 3' });
 */
import { events as eventsV1, type Event } from '../../api/kinds/events/event.js';
import type { ObjectReference } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { ApiError } from '../../api/status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { sleep } from '../../src/client/sleep.js';
import { EventSpamFilter } from './event-spam-filter.js';
import type { EventRecorder, EventToRecord } from './event-recorder.js';

export interface ClientEventRecorderOptions {
  /** Acts as the recording controller. */
  client: KubeClient;
  reportingController: string;
  reportingInstance: string;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Writes waiting at most; more are dropped. */
  queueSize?: number;
  spamFilter?: EventSpamFilter;
  now?: () => number;
  /** A series without occurrences for this long is finished (its count written, then forgotten). */
  finishMs?: number;
  /** A lasting series has its count written this often. */
  refreshMs?: number;
  retryDelayMs?: number;
}

/** client-go's timings (`tools/events/event_broadcaster.go`): finishTime 6 min, refreshTime 30 min. */
const FINISH_MS = 6 * 60_000;
const REFRESH_MS = 30 * 60_000;
const QUEUE_SIZE = 1000;
/** Attempts for a write the server could not be reached for (client-go tries 12 times, 10 s apart). */
const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 1_000;

type Write = { kind: 'create'; event: Event } | { kind: 'series'; event: Event };

interface CachedEvent {
  tenant: string;
  event: Event;
  /** When the count was last written. */
  writtenAt: number;
  /** Occurrences counted since the last write. */
  unwritten: boolean;
}

/** The reference client-go's GetReference makes (kind and apiVersion must be on the object). */
export function referenceTo(obj: KubeObject): ObjectReference {
  const ref: ObjectReference = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name, uid: obj.metadata.uid, apiVersion: obj.apiVersion, resourceVersion: obj.metadata.resourceVersion };
  for (const key of Object.keys(ref) as Array<keyof ObjectReference>) if (!ref[key]) delete ref[key];
  return ref;
}

/** RFC 3339 with microseconds, as metav1.MicroTime is written. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** kube's event name: the regarding object's name and the time in nanoseconds, in hex. */
export function eventName(regardingName: string, ms: number, sequence: number): string {
  // Milliseconds are all the clock gives; the sequence fills the nanoseconds, so two events of one millisecond differ.
  return `${regardingName}.${(BigInt(ms) * 1_000_000n + BigInt(sequence % 1_000_000)).toString(16)}`;
}

/** The aggregation key (client-go's getKey) with the space, so two spaces' same-named objects never share a series. */
function isomorphismKey(tenant: string, e: Event): string {
  return JSON.stringify([tenant, e.action, e.reason, e.reportingController, e.regarding, e.related ?? null]);
}

/** The spam key (upstream's getSpamKey: source and object) with the space. */
function spamKey(tenant: string, e: Event): string {
  const r = e.regarding ?? {};
  return JSON.stringify([tenant, e.reportingController, e.reportingInstance, r.kind, r.namespace, r.name, r.uid, r.apiVersion]);
}

function retryable(err: unknown): boolean {
  // A Status from the server means it judged the request: another try would be judged alike.
  return !(err instanceof ApiError) || err.code >= 500 || err.code === 429;
}

export class ClientEventRecorder implements EventRecorder {
  private readonly queue: Array<{ tenant: string; write: Write }> = [];
  private readonly cache = new Map<string, CachedEvent>();
  private readonly spam: EventSpamFilter;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private draining: Promise<void> | undefined;
  private sequence = 0;
  private dropped = 0;
  private stopped = false;

  constructor(private readonly options: ClientEventRecorderOptions) {
    this.now = options.now ?? Date.now;
    this.spam = options.spamFilter ?? new EventSpamFilter({ now: this.now });
    this.timer = setInterval(() => this.flushSeries(), Math.min(options.finishMs ?? FINISH_MS, options.refreshMs ?? REFRESH_MS));
    this.timer.unref();
  }

  record(toRecord: EventToRecord): void {
    if (this.stopped) return;
    const now = this.now();
    const regarding = referenceTo(toRecord.regarding);
    const tenant = toRecord.regarding.metadata.tenant ?? SYSTEM_TENANT;
    const event: Event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: eventName(regarding.name ?? '', now, this.sequence++), namespace: regarding.namespace || 'default' },
      eventTime: microTime(now),
      reportingController: this.options.reportingController,
      reportingInstance: this.options.reportingInstance,
      action: toRecord.action,
      reason: toRecord.reason,
      regarding,
      ...(toRecord.related ? { related: referenceTo(toRecord.related) } : {}),
      note: toRecord.note,
      type: toRecord.type,
    };
    const key = isomorphismKey(tenant, event);
    const known = this.cache.get(key);
    if (known?.event.series) {
      // A running series: counted now, written when it ends or at the next refresh.
      known.event.series = { count: (known.event.series.count ?? 0) + 1, lastObservedTime: microTime(now) };
      known.unwritten = true;
      return;
    }
    if (!this.spam.allow(spamKey(tenant, event))) return;
    if (known) {
      known.event.series = { count: 2, lastObservedTime: microTime(now) };
      known.writtenAt = now;
      this.enqueue(tenant, { kind: 'series', event: structuredClone(known.event) });
      return;
    }
    this.cache.set(key, { tenant, event, writtenAt: now, unwritten: false });
    this.enqueue(tenant, { kind: 'create', event: structuredClone(event) });
  }

  /** Stops recording; writes already queued are finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  /** Resolves once every queued write is done (for tests and shutdown). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** client-go's finishSeries and refreshExistingEventSeries, in one pass. */
  flushSeries(): void {
    const now = this.now();
    const finishMs = this.options.finishMs ?? FINISH_MS;
    const refreshMs = this.options.refreshMs ?? REFRESH_MS;
    for (const [key, cached] of this.cache) {
      const series = cached.event.series;
      const last = Date.parse(series?.lastObservedTime ?? cached.event.eventTime ?? '');
      const finished = now - last >= finishMs;
      if (series && cached.unwritten && (finished || now - cached.writtenAt >= refreshMs)) {
        cached.unwritten = false;
        cached.writtenAt = now;
        this.enqueue(cached.tenant, { kind: 'series', event: structuredClone(cached.event) });
      }
      if (finished) this.cache.delete(key);
    }
  }

  private enqueue(tenant: string, write: Write): void {
    if (this.queue.length >= (this.options.queueSize ?? QUEUE_SIZE)) {
      // Dropped rather than waited for: a reconcile must never wait on its events.
      if (this.dropped++ % 100 === 0) this.options.log.info({ dropped: this.dropped, reason: write.event.reason, controller: this.options.reportingController }, 'event queue full, dropping events');
      return;
    }
    this.queue.push({ tenant, write });
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.write(next.tenant, next.write);
  }

  private async write(tenant: string, write: Write): Promise<void> {
    const { event } = write;
    const events = this.options.client.space(tenant).namespace(event.metadata.namespace!).resource<Event>(eventsV1);
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (write.kind === 'series') {
          try {
            await events.patch(event.metadata.name!, 'strategic', { series: event.series });
            return;
          } catch (err) {
            // Expired or deleted meanwhile: the series starts again as a new event, as client-go does.
            if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
          }
        }
        await events.create(event);
        return;
      } catch (err) {
        if (err instanceof ApiError && err.reason === 'AlreadyExists' && write.kind === 'create') return;
        if (!retryable(err) || attempt >= MAX_ATTEMPTS || this.stopped) {
          this.options.log.error({ err, reason: event.reason, regarding: event.regarding, tenant }, 'event not written');
          return;
        }
        await sleep(this.options.retryDelayMs ?? RETRY_DELAY_MS, undefined);
      }
    }
  }
}
