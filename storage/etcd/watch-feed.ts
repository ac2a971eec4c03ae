/**
 * One etcd watch over every key, shared by the store's watches that start from a known revision
 * (the watch cache's, one per kind), demultiplexed by prefix.
 *
 * Why: a kind's cache may serve a consistent read once it holds every write up to the store's
 * current revision. A kind nobody writes learns that only from progress, and etcd before 3.4.31
 * and 3.5.13 may answer a progress request ahead of events it has queued (see
 * `orderedProgressIn`). The feed passes every revision etcd makes, other keys' writes included,
 * so its own position is progress in order with the events by construction, on any etcd. And
 * every kind shares one gRPC stream instead of opening its own.
 *
 * A watch that starts before what the feed still holds (its ring of recent events) is not served
 * here; the store opens a watch of its own for it.
 *
 * @example
 *   const feed = new WatchFeed((since, handler) => openEveryKeyWatch(since, handler));
 *   const watch = await feed.subscribe('/registry/core/pods/', 41, handler); // undefined: not from the feed
 */
import type { StoreWatch, WatchEvent, WatchHandler } from '../store.js';

/** Opens the underlying watch of every key after `since`, delivering the store's keys only. */
export type OpenSource = (since: number, handler: WatchHandler) => Promise<StoreWatch>;

/**
 * Recent events kept for watches that start a little behind the feed (a cache's listing takes
 * time): up to twice this many, and at most this many bytes of values (large objects must not hold
 * gigabytes), trimmed in batches to the count and half the bytes.
 */
export const FEED_RING_EVENTS = 4_096;
export const FEED_RING_BYTES = 32 * 1024 * 1024;

class FeedWatch implements StoreWatch {
  readonly orderedProgress = true;
  /** Everything up to this revision has reached the handler (events, or progress). */
  known: number;
  /** A progress request waits for the feed to pass `known`. */
  progressWanted = false;
  closed = false;

  constructor(
    private readonly feed: WatchFeed,
    readonly prefix: string,
    /** Events after this revision are this watch's. */
    readonly since: number,
    readonly handler: WatchHandler,
  ) {
    this.known = since;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.feed.remove(this);
  }

  requestProgress(): void {
    if (this.closed) return;
    if (this.feed.revision > this.known) queueMicrotask(() => this.feed.answerProgress(this));
    else this.progressWanted = true;
  }
}

export class WatchFeed {
  /** Every event up to this revision has been delivered. */
  revision = 0;
  /** The ring holds every event after this revision. */
  private horizon = 0;
  private ring: WatchEvent[] = [];
  private ringBytes = 0;
  private readonly watches = new Set<FeedWatch>();
  private source: Promise<StoreWatch> | undefined;
  /** Counts sources, so a failed one's late calls are told apart from the current one's. */
  private generation = 0;

  constructor(
    private readonly open: OpenSource,
    private readonly ringEvents = FEED_RING_EVENTS,
    private readonly ringMaxBytes = FEED_RING_BYTES,
  ) {}

  /**
   * A watch of the keys under `prefix` after revision `since`, served by the feed; undefined when
   * the feed cannot serve it (it starts after `since`, or could not start).
   */
  async subscribe(prefix: string, since: number, handler: WatchHandler): Promise<StoreWatch | undefined> {
    const source = (this.source ??= this.start(since));
    try {
      await source;
    } catch {
      return undefined;
    }
    // A source that failed while this watch waited for it serves nobody.
    if (source !== this.source || since < this.horizon) return undefined;
    const watch = new FeedWatch(this, prefix, since, handler);
    // The ring's replay and the live events join in one turn: nothing falls between them.
    for (const event of this.ring) if (event.revision > since && event.key.startsWith(prefix)) this.deliver(watch, event);
    this.watches.add(watch);
    return watch;
  }

  remove(watch: FeedWatch): void {
    this.watches.delete(watch);
  }

  /** Fails every watch (the store is closing, or the source failed); the next subscribe starts a new source. */
  fail(err: Error): void {
    const watches = [...this.watches];
    this.watches.clear();
    const source = this.source;
    this.source = undefined;
    this.generation += 1;
    this.ring = [];
    this.ringBytes = 0;
    void source?.then((s) => s.close(), () => undefined);
    for (const watch of watches) {
      watch.closed = true;
      watch.handler.onError(err);
    }
  }

  answerProgress(watch: FeedWatch): void {
    if (watch.closed || this.revision <= watch.known) return;
    watch.progressWanted = false;
    watch.known = this.revision;
    watch.handler.onProgress?.(this.revision);
  }

  private async start(since: number): Promise<StoreWatch> {
    this.revision = since;
    this.horizon = since;
    this.ring = [];
    this.ringBytes = 0;
    const generation = ++this.generation;
    const current = (): boolean => generation === this.generation;
    try {
      return await this.open(since, {
        onEvent: (event) => current() && this.onEvent(event),
        onProgress: (revision) => current() && this.onProgress(revision),
        onError: (err) => current() && this.fail(err),
      });
    } catch (err) {
      this.source = undefined;
      throw err;
    }
  }

  private onEvent(event: WatchEvent): void {
    this.revision = event.revision;
    this.ring.push(event);
    this.ringBytes += eventBytes(event);
    if (this.ring.length > this.ringEvents * 2 || this.ringBytes > this.ringMaxBytes) this.trim();
    for (const watch of this.watches) {
      if (event.revision > watch.since && event.key.startsWith(watch.prefix)) this.deliver(watch, event);
      else if (watch.progressWanted) this.answerProgress(watch);
    }
  }

  /** Dropped in batches, so the cost is amortised over the events that caused it. */
  private trim(): void {
    let dropped = 0;
    while (dropped < this.ring.length && (this.ring.length - dropped > this.ringEvents || this.ringBytes > this.ringMaxBytes / 2)) {
      this.ringBytes -= eventBytes(this.ring[dropped]!);
      dropped += 1;
    }
    if (dropped === 0) return;
    this.horizon = this.ring[dropped - 1]!.revision;
    this.ring = this.ring.slice(dropped);
  }

  private onProgress(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    for (const watch of this.watches) if (watch.progressWanted) this.answerProgress(watch);
  }

  private deliver(watch: FeedWatch, event: WatchEvent): void {
    watch.known = event.revision;
    watch.progressWanted = false;
    watch.handler.onEvent(event);
  }
}

function eventBytes(event: WatchEvent): number {
  return event.value.length + (event.prevValue?.length ?? 0);
}
