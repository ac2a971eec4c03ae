/**
 * Watches served from the revision log, for one process. A watch that starts in the past replays
 * the log in slices of revisions, then switches to live events, which the store publishes right
 * after each committed batch. Both the last replay slice and each publish run synchronously on the
 * one JS thread, so no commit can fall between "replay reached the current revision" and "now
 * live": events arrive in order, exactly once, with no gap.
 *
 * Each watcher keeps a cursor: every revision up to it has been delivered or seen not to match.
 *
 * @example
 *   const w = watchers.add(keyRange('/registry/core/pods/t1/'), 41, handler); // replays 42.., then live
 *   watchers.publish(committedRows, 57); // after a COMMIT
 */
import { StorageError } from '../errors.js';
import type { StoreWatch, WatchEvent, WatchHandler } from '../store.js';
import type { KeyRange } from './key-range.js';
import { toWatchEvent, type LogRow } from './schema.js';

/** What the watchers need from the store. */
export interface LogSource {
  currentRevision(): number;
  compactedRevision(): number;
  /** Rows in the key range with revision in (from, to], in revision order. Throws StorageError. */
  rowsBetween(range: KeyRange, from: number, to: number): LogRow[];
}

/** How many revisions one replay step reads before yielding the event loop. */
const REPLAY_SLICE = 1000;

type WatcherState = 'replaying' | 'live' | 'closed';

const TRANSITIONS: Record<WatcherState, readonly WatcherState[]> = {
  replaying: ['live', 'closed'],
  live: ['closed'],
  closed: [],
};

class LogWatcher implements StoreWatch {
  private state: WatcherState;

  constructor(
    private readonly watchers: LogWatchers,
    private readonly source: LogSource,
    private readonly range: KeyRange,
    private cursor: number,
    private readonly handler: WatchHandler,
  ) {
    this.state = cursor < source.currentRevision() ? 'replaying' : 'live';
    if (this.state === 'replaying') setImmediate(() => this.replayStep());
  }

  /** Every commit reaches a live watcher in order, and progress is answered from the same log. */
  readonly orderedProgress = true;

  close(): void {
    if (this.state === 'closed') return;
    this.moveTo('closed');
    this.watchers.remove(this);
  }

  requestProgress(): void {
    // A live watcher hears of every commit as it happens; a replaying one reports when it goes live.
    if (this.state === 'live') setImmediate(() => this.reachedWithoutEvent(this.source.currentRevision()));
  }

  /** Ends the watch with an error; the handler hears nothing after it. */
  fail(err: Error): void {
    if (this.state === 'closed') return;
    this.close();
    try {
      this.handler.onError(err);
    } catch {
      // The watch is over either way; a throwing handler must not break the store's write path.
    }
  }

  /** Live delivery of a committed batch that ends at `revision`. */
  publish(rows: readonly LogRow[], revision: number): void {
    if (this.state !== 'live') return; // a replaying watcher reads these rows from the log
    for (const row of rows) {
      if (row.id > this.cursor && row.key.startsWith(this.range.start)) this.deliver(toWatchEvent(row));
    }
    this.reachedWithoutEvent(revision);
  }

  private replayStep(): void {
    if (this.state !== 'replaying') return;
    const current = this.source.currentRevision();
    if (this.cursor >= current) {
      this.goLive();
      return;
    }
    // Compaction deletes superseded rows and tombstones up to its revision: below it the log no
    // longer holds every event, so this watcher could not be gap-free any more.
    const compacted = this.source.compactedRevision();
    if (this.cursor < compacted) {
      this.fail(new StorageError('TooOld', this.range.start, `watch fell behind compaction at ${compacted}`, compacted));
      return;
    }
    const to = Math.min(this.cursor + REPLAY_SLICE, current);
    let rows: LogRow[];
    try {
      rows = this.source.rowsBetween(this.range, this.cursor, to);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    for (const row of rows) {
      if (this.state !== 'replaying') return; // the handler closed the watch
      this.deliver(toWatchEvent(row));
    }
    if (this.state !== 'replaying') return;
    this.cursor = to;
    if (to >= current) this.goLive();
    else setImmediate(() => this.replayStep());
  }

  private goLive(): void {
    this.moveTo('live');
    this.reachedWithoutEvent(this.source.currentRevision());
  }

  private deliver(event: WatchEvent): void {
    if (this.state === 'closed') return;
    this.cursor = event.revision;
    try {
      this.handler.onEvent(event);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** The watcher has seen everything up to `revision`; tells the handler when no event said so. */
  private reachedWithoutEvent(revision: number): void {
    if (this.state === 'closed' || revision <= this.cursor) return;
    this.cursor = revision;
    try {
      this.handler.onProgress?.(revision);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private moveTo(next: WatcherState): void {
    if (!TRANSITIONS[this.state].includes(next)) {
      throw new Error(`watcher cannot go from ${this.state} to ${next}`);
    }
    this.state = next;
  }
}

/** Every open watch of one store. */
export class LogWatchers {
  private readonly open = new Set<LogWatcher>();

  constructor(private readonly source: LogSource) {}

  /** Starts a watch delivering every event in `range` with a revision above `sinceRevision`. */
  add(range: KeyRange, sinceRevision: number, handler: WatchHandler): StoreWatch {
    const watcher = new LogWatcher(this, this.source, range, sinceRevision, handler);
    this.open.add(watcher);
    return watcher;
  }

  remove(watcher: LogWatcher): void {
    this.open.delete(watcher);
  }

  /** Called after each COMMIT with the rows it wrote (in revision order) and its last revision. */
  publish(rows: readonly LogRow[], revision: number): void {
    // A snapshot: handlers may open or close watches while we deliver.
    for (const watcher of [...this.open]) watcher.publish(rows, revision);
  }

  /** Ends every watch with `err` (the store is closing). */
  failAll(err: Error): void {
    for (const watcher of [...this.open]) watcher.fail(err);
  }
}
