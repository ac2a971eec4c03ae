/**
 * The embedded `Store`: SQLite through better-sqlite3, an append-only revision log in the style of
 * kine (see `schema.ts`), for a single process (`npm start` with zero setup). Writes go through
 * group commit (`write-queue.ts`) and are acknowledged only after their COMMIT is on disk; watches
 * are served from the log (`log-watchers.ts`); a periodic compactor keeps a window of history.
 *
 * One process owns the database file: the revision counter, the watchers and the write queue live
 * in this object.
 *
 * @example
 *   const store = await openSqliteStore('.kube-spaces/state.db');
 *   const kv = await store.create('/registry/core/configmaps/t1/ns1/cm', '{"data":{}}');
 *   await store.update(kv.key, '{"data":{"a":"1"}}', kv.modRevision);
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { decodeContinue, encodeContinue } from '../continue-token.js';
import { StorageError } from '../errors.js';
import type {
  GetOptions,
  GetResult,
  KeyValue,
  ListOptions,
  ListResult,
  Store,
  StoreWatch,
  WatchHandler,
  WatchOptions,
} from '../store.js';
import { castSqliteError, isStatementFailure } from './errors.js';
import { LogWatchers } from './log-watchers.js';
import { keyRange } from './key-range.js';
import { initializeDatabase, prepareStatements, toKeyValue, type KeyRow, type LogRow, type Statements } from './schema.js';
import { WriteQueue, type Outcome } from './write-queue.js';

export interface SqliteStoreOptions {
  /** Revisions of history the periodic compactor keeps. Default 10000. */
  compactWindow?: number;
  /** How often the compactor runs, in ms. Default 60000; 0 disables it. */
  compactIntervalMs?: number;
}

/**
 * Opens (creating if needed) the database at `path` and returns a Store on it.
 * Any failure to open is StorageError 'Unavailable'.
 */
export async function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): Promise<Store> {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    initializeDatabase(db);
    return new SqliteStore(db, opts.compactWindow ?? 10_000, opts.compactIntervalMs ?? 60_000);
  } catch (err) {
    db?.close();
    const message = err instanceof Error ? err.message : String(err);
    throw new StorageError('Unavailable', path, `cannot open sqlite store at ${path}: ${message}`);
  }
}

type WriteOp =
  | { kind: 'create'; key: string; value: string }
  | { kind: 'update'; key: string; value: string; expectedRevision: number }
  | { kind: 'delete'; key: string; expectedRevision: number | undefined };

/** How many revisions one compaction transaction covers before yielding the event loop. */
const COMPACT_SLICE = 1000;

class SqliteStore implements Store {
  readonly backend = 'sqlite';
  readonly orderedProgress = true;
  private readonly sql: Statements;
  private readonly writes: WriteQueue<WriteOp, KeyValue>;
  private readonly watchers: LogWatchers;
  private readonly applyBatch: Database.Transaction<(ops: readonly WriteOp[]) => BatchResult>;
  private readonly compactSlice: Database.Transaction<(from: number, to: number) => void>;
  private readonly compactor: NodeJS.Timeout | undefined;
  /** Mirrors the database (this process is its only writer): advanced after each COMMIT. */
  private revision: number;
  private compacted: number;
  private compacting = false;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly compactWindow: number,
    compactIntervalMs: number,
  ) {
    this.sql = prepareStatements(db);
    this.revision = this.sql.lastRevision.get()?.seq ?? 0;
    this.compacted = this.sql.compactedRevision.get()?.value ?? 0;
    this.applyBatch = db.transaction((ops: readonly WriteOp[]) => this.applyWrites(ops));
    this.compactSlice = db.transaction((from: number, to: number) => {
      this.sql.deleteSuperseded.run({ from, to });
      this.sql.deleteTombstones.run({ from, to });
      this.sql.setCompactedRevision.run(to);
    });
    this.writes = new WriteQueue((ops) => this.commitBatch(ops));
    this.watchers = new LogWatchers({
      currentRevision: () => this.revision,
      compactedRevision: () => this.compacted,
      rowsBetween: (range, from, to) => this.read(range.start, () => this.sql.rowsBetween.all({ ...range, from, to })),
    });
    if (compactIntervalMs > 0) {
      this.compactor = setInterval(() => this.compactWindowed(), compactIntervalMs);
      this.compactor.unref(); // an idle store must not keep the process alive
    }
  }

  async get(key: string, opts: GetOptions = {}): Promise<GetResult> {
    this.assertOpen(key);
    const revision = this.readRevision(key, opts.revision);
    const row = this.read(key, () => this.sql.latestAt.get(key, revision));
    return { kv: row && !row.deleted ? toKeyValue(row) : null, revision };
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen(prefix);
    const { start, end } = keyRange(prefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    // One row more than the page tells whether another page follows.
    const sqlLimit = limit > 0 ? limit + 1 : -1;
    let revision: number;
    let rows: KeyRow[];
    if (opts.continue) {
      const token = decodeContinue(start, opts.continue);
      revision = this.readRevision(prefix, token.rev);
      const params = { start: token.after, end, revision, limit: sqlLimit };
      rows = this.read(prefix, () => this.sql.nextPage.all(params));
    } else {
      revision = this.readRevision(prefix, opts.revision);
      const params = { start, end, revision, limit: sqlLimit };
      rows = this.read(prefix, () => this.sql.firstPage.all(params));
    }
    if (limit === 0 || rows.length <= limit) {
      return { items: rows.map(toKeyValue), revision, remaining: 0 };
    }
    const items = rows.slice(0, limit).map(toKeyValue);
    const last = items[items.length - 1]!.key;
    const remaining = this.read(prefix, () => this.sql.countAfter.get({ start: last, end, revision })?.n ?? 0);
    return { items, revision, continue: encodeContinue({ rev: revision, after: last }), remaining };
  }

  create(key: string, value: string): Promise<KeyValue> {
    return this.write({ kind: 'create', key, value });
  }

  update(key: string, value: string, expectedRevision: number): Promise<KeyValue> {
    return this.write({ kind: 'update', key, value, expectedRevision });
  }

  delete(key: string, expectedRevision?: number): Promise<KeyValue> {
    return this.write({ kind: 'delete', key, expectedRevision });
  }

  async watch(prefix: string, opts: WatchOptions, handler: WatchHandler): Promise<StoreWatch> {
    this.assertOpen(prefix);
    const since = opts.sinceRevision ?? this.revision;
    if (since < this.compacted) throw this.tooOld(prefix, since);
    return this.watchers.add(keyRange(prefix), since, handler);
  }

  async currentRevision(): Promise<number> {
    this.assertOpen('');
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen('');
    return this.compacted;
  }

  /**
   * Deletes every row superseded by a later row at or below `revision`, and every tombstone at or
   * below it; the latest row of a live key is never superseded, so it stays. Runs in slices of
   * COMPACT_SLICE revisions, each its own transaction, so writes keep flowing. A revision at or
   * below the compacted one is a no-op; one above the current revision compacts up to it.
   */
  async compact(revision: number): Promise<void> {
    this.assertOpen('');
    const target = Math.min(revision, this.revision);
    while (!this.closed && this.compacted < target) {
      const from = this.compacted;
      const to = Math.min(from + COMPACT_SLICE, target);
      this.read('', () => this.compactSlice.immediate(from, to));
      this.compacted = to;
      if (to < target) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async ping(): Promise<void> {
    this.assertOpen('');
    this.read('', () => this.sql.ping.get());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Writes already queued were accepted: commit them before the database goes away.
    this.writes.drain();
    this.closed = true;
    if (this.compactor) clearInterval(this.compactor);
    this.watchers.failAll(new StorageError('Unavailable', '', 'the store was closed'));
    this.read('', () => this.db.close());
  }

  private write(op: WriteOp): Promise<KeyValue> {
    if (this.closed) return Promise.reject(unavailable(op.key));
    return this.writes.enqueue(op);
  }

  /** Runs one batch in one IMMEDIATE transaction; after its COMMIT, tells the watchers. */
  private commitBatch(ops: readonly WriteOp[]): Outcome<KeyValue>[] {
    let result: BatchResult;
    try {
      result = this.applyBatch.immediate(ops);
    } catch (err) {
      throw castSqliteError(err, ops[0]?.key ?? '');
    }
    const last = result.rows[result.rows.length - 1];
    if (last) {
      this.revision = last.id;
      this.watchers.publish(result.rows, last.id);
    }
    return result.outcomes;
  }

  /** Inside the transaction: each write checked against the rows before it, then appended. */
  private applyWrites(ops: readonly WriteOp[]): BatchResult {
    const rows: LogRow[] = [];
    let revision = this.revision;
    const outcomes = ops.map((op): Outcome<KeyValue> => {
      try {
        const row = this.nextRow(op, revision + 1);
        this.sql.insert.run(row);
        rows.push(row);
        revision = row.id;
        return { ok: true, value: toKeyValue(row) };
      } catch (err) {
        // A failed check, or a constraint that undid only its own statement: this write fails,
        // the batch goes on. Anything else aborts the transaction (the caller rolls back).
        if (err instanceof StorageError || isStatementFailure(err)) {
          return { ok: false, error: castSqliteError(err, op.key) };
        }
        throw err;
      }
    });
    return { outcomes, rows };
  }

  /** The row `op` appends at revision `id`, or the StorageError that refuses it. */
  private nextRow(op: WriteOp, id: number): LogRow {
    const latest = this.sql.latest.get(op.key);
    const live = latest && !latest.deleted ? latest : undefined;
    if (op.kind === 'create') {
      if (live) throw new StorageError('AlreadyExists', op.key, `${op.key} already exists`);
      return {
        id, key: op.key, created: 1, deleted: 0, create_revision: id,
        prev_revision: latest?.id ?? 0, value: op.value, prev_value: null,
      };
    }
    if (!live) throw new StorageError('NotFound', op.key, `${op.key} not found`);
    if (op.expectedRevision !== undefined && op.expectedRevision !== live.id) {
      throw new StorageError(
        'Conflict', op.key,
        `${op.key} is at revision ${live.id}, not ${op.expectedRevision}`, live.id,
      );
    }
    const deleted = op.kind === 'delete';
    return {
      id, key: op.key, created: 0, deleted: deleted ? 1 : 0, create_revision: live.create_revision,
      prev_revision: live.id, value: deleted ? live.value : op.value, prev_value: live.value,
    };
  }

  /** The periodic compactor: keep the last `compactWindow` revisions. */
  private compactWindowed(): void {
    const target = this.revision - this.compactWindow;
    if (this.compacting || target <= this.compacted) return;
    this.compacting = true;
    this.compact(target)
      // Nobody to report to: the next run retries, and a failing database shows on writes and ping.
      .catch(() => {})
      .finally(() => {
        this.compacting = false;
      });
  }

  /** The revision a read is served at: 0/absent is the current one; a future one is clamped to it. */
  private readRevision(key: string, requested: number | undefined): number {
    const revision = requested && requested > 0 ? Math.min(requested, this.revision) : this.revision;
    if (revision < this.compacted) throw this.tooOld(key, revision);
    return revision;
  }

  private tooOld(key: string, revision: number): StorageError {
    return new StorageError(
      'TooOld', key,
      `revision ${revision} has been compacted; the oldest kept is ${this.compacted}`, this.compacted,
    );
  }

  /** Runs a synchronous database call, casting driver errors at the boundary. */
  private read<T>(key: string, call: () => T): T {
    try {
      return call();
    } catch (err) {
      throw castSqliteError(err, key);
    }
  }

  private assertOpen(key: string): void {
    if (this.closed) throw unavailable(key);
  }
}

interface BatchResult {
  outcomes: Outcome<KeyValue>[];
  /** The rows appended, in revision order. */
  rows: LogRow[];
}

function unavailable(key: string): StorageError {
  return new StorageError('Unavailable', key, 'the sqlite store is closed');
}
