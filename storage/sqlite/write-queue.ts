/**
 * Group commit. better-sqlite3 is synchronous and a durable COMMIT holds the event loop for its
 * fsync, so one write per transaction caps near 2.9k writes/s while 1000-row transactions reach
 * ~31k rows/s (docs: machine-baselines.md). Writes that arrive in the same turn of the event loop
 * are therefore queued and handed to `commit` together; `commit` checks and applies them one by
 * one inside one transaction and reports each one's own outcome, and every promise settles only
 * after that transaction's COMMIT has returned.
 *
 * @example
 *   const queue = new WriteQueue<Op, KeyValue>((ops) => applyAllInOneTransaction(ops));
 *   const kv = await queue.enqueue({ kind: 'create', key, value });
 */

/** One write's own result inside a committed batch. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Applies a batch atomically and returns one outcome per op, in order. Throwing means the whole
 * batch was rolled back: every op fails with the thrown error.
 */
export type CommitBatch<Op, T> = (ops: readonly Op[]) => Outcome<T>[];

interface Pending<Op, T> {
  op: Op;
  resolve(value: T): void;
  reject(err: unknown): void;
}

/** Large enough to amortize the fsync, small enough that one batch blocks the loop only briefly. */
const MAX_BATCH = 1000;

export class WriteQueue<Op, T> {
  private pending: Pending<Op, T>[] = [];
  private scheduled = false;

  constructor(private readonly commit: CommitBatch<Op, T>) {}

  enqueue(op: Op): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: it gathers every write issued in this turn of the loop,
        // including those from other I/O callbacks of the same poll phase.
        setImmediate(() => this.flushBatch());
      }
    });
  }

  /** Commits everything queued now, synchronously (used by close so queued writes are not lost). */
  drain(): void {
    while (this.pending.length > 0) this.commitNext();
  }

  private flushBatch(): void {
    this.scheduled = false;
    this.commitNext();
    if (this.pending.length > 0 && !this.scheduled) {
      // Over the cap: let reads and I/O run before the next batch.
      this.scheduled = true;
      setImmediate(() => this.flushBatch());
    }
  }

  private commitNext(): void {
    const batch = this.pending.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    let outcomes: Outcome<T>[];
    try {
      outcomes = this.commit(batch.map((p) => p.op));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) p.reject(new Error(`group commit returned no outcome for write ${i}`));
      else if (outcome.ok) p.resolve(outcome.value);
      else p.reject(outcome.error);
    });
  }
}
