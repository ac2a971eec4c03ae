/**
 * One store watch = one etcd watch on its own gRPC stream, kept alive across connection losses.
 *
 * etcd3's `Watcher` is not used: it moves its resume point to the revision in each response
 * header, which during a catch-up is the store's current revision, not the last event sent; after
 * a reconnect it silently skips the rest of the catch-up (measured: a watch from revision 2 over
 * 3,000 writes, killed after the first 1,000-event batch, resumed at 3,002 and lost 2,000 events).
 * Here the resume point is the last revision actually delivered, and a new stream replays from
 * the revision after it, so events stay ordered, gap-free and exactly-once. If etcd compacted that
 * revision during the outage, the watch ends with TooOld.
 *
 * @example
 *   const watch = new EtcdWatch(deps, '/registry/core/pods/', 41, handler);
 *   await watch.start();   // etcd created the watch; events after revision 41 follow
 *   watch.close();
 */
import type { IDuplexStream, IEvent, IWatchRequest, IWatchResponse, WatchClient } from 'etcd3';
import { StorageError } from '../errors.js';
import type { StoreWatch, WatchEvent, WatchHandler } from '../store.js';
import { toStorageError } from './errors.js';
import type { Keyspace } from './keyspace.js';

type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse>;

/**
 * idle: not started · connecting: a stream is opening or awaiting etcd's "created" ·
 * watching: events flow · retrying: the stream broke, a new one opens after a backoff ·
 * closed: final (closed by the caller, the store, or a failure).
 */
type WatchState = 'idle' | 'connecting' | 'watching' | 'retrying' | 'closed';

const TRANSITIONS: Record<WatchState, readonly WatchState[]> = {
  idle: ['connecting', 'closed'],
  connecting: ['watching', 'retrying', 'closed'],
  watching: ['retrying', 'closed'],
  retrying: ['connecting', 'closed'],
  closed: [],
};

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 3_000;

export interface EtcdWatchDeps {
  watchClient: WatchClient;
  keyspace: Keyspace;
  /** etcd told us its compacted revision (it does so when it cancels a watch for it). */
  learnCompactedRevision(revision: number): void;
  /** The watch reached `closed`; the store stops tracking it. */
  forget(watch: EtcdWatch): void;
  /** Whether etcd's answer to a progress request comes in order with the events (else none is sent). */
  orderedProgress(): boolean;
}

export interface EtcdWatchOptions {
  /**
   * Watch every key in etcd, delivering only those under the prefix: the writes to other keys
   * (another store root, another program) still move the watch on, reported as progress, so the
   * watch passes every revision etcd makes. For the store's shared feed (watch-feed.ts).
   */
  everyKey?: boolean;
}

export class EtcdWatch implements StoreWatch {
  private state: WatchState = 'idle';
  private stream: WatchStream | undefined;
  /**
   * Every event up to this revision has been delivered (or precedes the watch); a new stream
   * starts right after it. Undefined until etcd reports where a watch "from now" begins.
   */
  private delivered: number | undefined;
  /** The etcd key every delivered key starts with. */
  private readonly prefixKey: Buffer;
  /** Events of a response etcd split into fragments, held until its last fragment. */
  private fragments: IEvent[] = [];
  private retryDelay = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Settles start(): set until the first stream is created or fails. */
  private starting: { resolve: () => void; reject: (err: StorageError) => void } | undefined;

  constructor(
    private readonly deps: EtcdWatchDeps,
    readonly prefix: string,
    sinceRevision: number | undefined,
    private readonly handler: WatchHandler,
    private readonly options: EtcdWatchOptions = {},
  ) {
    this.delivered = sinceRevision;
    this.prefixKey = deps.keyspace.key(prefix);
  }

  /** Whether a progress request is answered in order with the events: an etcd that orders them. */
  get orderedProgress(): boolean {
    return this.deps.orderedProgress();
  }

  /** Resolves once etcd created the watch; rejects (and closes) if the first attempt fails. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.starting = { resolve, reject };
      this.connect();
    });
  }

  close(): void {
    if (this.state !== 'closed') this.finish();
  }

  requestProgress(): void {
    // etcd answers with an empty response at its current revision; while the stream is
    // reconnecting the request is dropped (the caller asks again). An etcd whose answer may
    // overtake queued events is never asked: its progress would skip them (see `deliver`).
    if (this.state === 'watching' && this.deps.orderedProgress()) this.stream?.write({ progress_request: {} });
  }

  /** Ends the watch for good: start() rejects, or the handler hears onError. */
  fail(err: StorageError): void {
    if (this.state === 'closed') return;
    const starting = this.starting;
    this.finish();
    if (starting) starting.reject(err);
    else this.handler.onError(err);
  }

  private moveTo(next: WatchState): void {
    if (!TRANSITIONS[this.state].includes(next)) {
      throw new Error(`etcd watch on ${this.prefix}: impossible transition ${this.state} → ${next}`);
    }
    this.state = next;
  }

  private finish(): void {
    this.moveTo('closed');
    clearTimeout(this.retryTimer);
    this.dropStream();
    this.starting = undefined;
    this.deps.forget(this);
  }

  private connect(): void {
    this.moveTo('connecting');
    this.deps.watchClient.watch().then(
      (stream) => this.attach(stream),
      (err: unknown) => this.lost(err),
    );
  }

  private attach(stream: WatchStream): void {
    if (this.state !== 'connecting') {
      endStream(stream); // closed while the stream was opening
      return;
    }
    this.stream = stream;
    // Listeners stay for the stream's whole life (an 'error' with no listener would crash), and
    // ignore it once it has been replaced.
    stream.on('data', (res) => {
      if (stream === this.stream) this.receive(res);
    });
    stream.on('error', (err) => {
      if (stream === this.stream) this.lost(err);
    });
    stream.on('end', () => {
      if (stream === this.stream) this.lost(new Error('etcd ended the watch stream'));
    });
    stream.write({
      create_request: {
        // Every key: from the zero byte to etcd's "end of the keyspace".
        key: this.options.everyKey ? ZERO_BYTE : this.prefixKey,
        range_end: this.options.everyKey ? ZERO_BYTE : this.deps.keyspace.prefixEnd(this.prefix),
        // 0 is etcd's "from now"; otherwise replay from the first revision not yet delivered.
        start_revision: this.delivered === undefined ? 0 : this.delivered + 1,
        prev_kv: true,
        progress_notify: true,
        // Without fragments, a catch-up batch of large values could exceed the receive limit and
        // fail the same way on every retry.
        fragment: true,
      },
    });
  }

  private receive(res: IWatchResponse): void {
    if (res.canceled) {
      this.fail(this.cancellation(res));
    } else if (res.created) {
      this.created(Number(res.header.revision));
    } else if (res.fragment) {
      this.fragments.push(...res.events);
    } else if (this.fragments.length > 0) {
      this.deliver([...this.fragments.splice(0), ...res.events]);
    } else if (res.events.length > 0) {
      this.deliver(res.events);
    } else {
      this.progress(Number(res.header.revision));
    }
  }

  private created(headerRevision: number): void {
    // A watch "from now" starts right after the revision etcd reports in its "created" header.
    this.delivered ??= headerRevision;
    this.moveTo('watching');
    this.retryDelay = FIRST_RETRY_MS;
    const starting = this.starting;
    this.starting = undefined;
    starting?.resolve();
  }

  private cancellation(res: IWatchResponse): StorageError {
    const compacted = Number(res.compact_revision);
    if (compacted > 0) {
      this.deps.learnCompactedRevision(compacted);
      return new StorageError('TooOld', this.prefix, `etcd compacted revision ${compacted}; the watch needed the events after ${this.delivered}`, compacted);
    }
    return toStorageError(new Error(`etcd canceled the watch: ${res.cancel_reason || 'no reason given'}`), this.prefix);
  }

  private deliver(events: IEvent[]): void {
    // etcd never splits one revision's events across responses (fragments are joined above),
    // so whole responses are either new or replays of what an earlier stream delivered.
    const after = this.delivered!;
    let passedOver = false;
    for (const ev of events) {
      if (this.state === 'closed') return; // the handler closed the watch
      const revision = Number(ev.kv.mod_revision);
      if (revision <= after) continue;
      if (this.options.everyKey && !startsWith(ev.kv.key, this.prefixKey)) {
        this.delivered = revision;
        passedOver = true;
        continue;
      }
      passedOver = false;
      const event = this.toWatchEvent(ev, revision);
      if (event === undefined) {
        this.fail(new StorageError('TooOld', this.prefix, `etcd no longer has the value deleted at revision ${revision}: it was compacted while the watch caught up`));
        return;
      }
      this.delivered = revision;
      if (!this.call(() => this.handler.onEvent(event))) return;
    }
    // The response ended with writes to other keys: the watch has passed them.
    if (passedOver) this.call(() => this.handler.onProgress?.(this.delivered!));
  }

  /** The store's event for an etcd event; undefined for a delete whose previous value is gone. */
  private toWatchEvent(ev: IEvent, revision: number): WatchEvent | undefined {
    const key = this.deps.keyspace.strip(ev.kv.key);
    // etcd sends prev_kv as null when it could not read the previous revision.
    const prev = ev.prev_kv ?? undefined;
    if (ev.type === 'Delete') {
      if (prev === undefined) return undefined;
      const value = prev.value.toString();
      return { type: 'delete', key, revision, value, prevValue: value, createRevision: Number(prev.create_revision) };
    }
    const value = ev.kv.value.toString();
    const createRevision = Number(ev.kv.create_revision);
    if (createRevision === revision) return { type: 'create', key, revision, value, createRevision };
    // As Kubernetes does, an update whose previous value was compacted away still counts.
    return prev === undefined
      ? { type: 'update', key, revision, value, createRevision }
      : { type: 'update', key, revision, value, prevValue: prev.value.toString(), createRevision };
  }

  private progress(revision: number): void {
    // etcd sends periodic progress only to watches that have been sent every earlier event.
    if (revision < this.delivered!) return;
    this.delivered = revision;
    this.call(() => this.handler.onProgress?.(revision));
  }

  /**
   * Runs a handler callback. A throwing handler is a bug that would break exactly-once delivery:
   * the watch stops and the error is rethrown outside the gRPC stream's callback, where it
   * surfaces as an uncaught exception instead of being mistaken for a stream failure.
   */
  private call(callback: () => void): boolean {
    try {
      callback();
      return true;
    } catch (err) {
      this.close();
      queueMicrotask(() => {
        throw err;
      });
      return false;
    }
  }

  private lost(err: unknown): void {
    if (this.state === 'closed') return;
    this.dropStream();
    if (this.starting) {
      this.fail(toStorageError(err, this.prefix)); // the caller of watch() hears about it
      return;
    }
    this.moveTo('retrying');
    this.retryTimer = setTimeout(() => this.connect(), this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_MS);
  }

  private dropStream(): void {
    const stream = this.stream;
    this.stream = undefined;
    this.fragments = [];
    if (stream) endStream(stream);
  }
}

const ZERO_BYTE = Buffer.from([0]);

function startsWith(key: Buffer, prefix: Buffer): boolean {
  return key.length >= prefix.length && key.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

/**
 * Half-closes, then cancels. The order matters: etcd3 resets every connection to the host when a
 * still-writable stream errors, and cancelling makes the stream error; once ended it is not
 * writable, so dropping one watch does not disturb the store's other calls.
 */
function endStream(stream: WatchStream): void {
  stream.end();
  stream.cancel();
}
