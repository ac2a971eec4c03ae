/**
 * The on-disk model of the embedded store, in the style of kine: one append-only `log` table in
 * which every write is a row and the row's id is the store's global revision. A key's value at
 * revision R is its latest row with id <= R, unless that row is a delete tombstone. Rows carry the
 * previous value, so a watch event (update and delete need `prevValue`) is one row, never a join.
 */
import type Database from 'better-sqlite3';
import type { KeyValue, WatchEvent } from '../store.js';
import type { KeyRange } from './key-range.js';

/** One row of the revision log. */
export interface LogRow {
  /** The revision of this write. */
  id: number;
  key: string;
  /** 1 when this write created a new incarnation of the key. */
  created: 0 | 1;
  /** 1 for a delete tombstone; its `value` is the last value the key held. */
  deleted: 0 | 1;
  /** The revision that created this incarnation (the row's own id when `created`). */
  create_revision: number;
  /** The id of the key's previous row (0 when there is none left). */
  prev_revision: number;
  value: string;
  /** The value before this write; null on create. */
  prev_value: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  key             TEXT    NOT NULL,
  created         INTEGER NOT NULL,
  deleted         INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision   INTEGER NOT NULL,
  value           TEXT    NOT NULL,
  prev_value      TEXT
);
-- With \`deleted\` in it, counting a list's remaining keys reads only this index.
CREATE INDEX IF NOT EXISTS log_key_id_deleted ON log (key, id, deleted);
-- Two writes that both saw the same previous row cannot both land: the loser fails here even if
-- the explicit check before the insert were wrong.
CREATE UNIQUE INDEX IF NOT EXISTS log_key_prev_revision ON log (key, prev_revision);
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted_revision', 0);
`;

/** What reads and write checks need of a row; `prev_value` is left on disk (values reach MiBs). */
export type KeyRow = Pick<LogRow, 'id' | 'key' | 'deleted' | 'create_revision' | 'value'>;
const KEY_ROW = 'l.id, l.key, l.deleted, l.create_revision, l.value';

/**
 * Live keys at @revision in the key range: each key's latest row at or below the revision, unless
 * it is a tombstone. `lower` is '>=' for a first page (from the range start) and '>' after the
 * last key of the previous page.
 */
function liveAt(lower: '>=' | '>'): string {
  // `+l.id` keeps the planner on the key index (a range of keys), not a scan of the log by id.
  return `l.key ${lower} @start AND l.key < @end AND +l.id <= @revision AND l.deleted = 0
    AND NOT EXISTS (SELECT 1 FROM log n WHERE n.key = l.key AND n.id > l.id AND n.id <= @revision)`;
}

export function prepareStatements(db: Database.Database) {
  return {
    /** The key's latest row (tombstones included), the base for a write's checks. */
    latest: db.prepare<[string], KeyRow>(`SELECT ${KEY_ROW} FROM log l WHERE key = ? ORDER BY id DESC LIMIT 1`),
    latestAt: db.prepare<[string, number], KeyRow>(
      `SELECT ${KEY_ROW} FROM log l WHERE key = ? AND id <= ? ORDER BY id DESC LIMIT 1`,
    ),
    insert: db.prepare<[LogRow], never>(
      `INSERT INTO log (id, key, created, deleted, create_revision, prev_revision, value, prev_value)
       VALUES (@id, @key, @created, @deleted, @create_revision, @prev_revision, @value, @prev_value)`,
    ),
    /** A list's first page: live keys from the range start, in key order; `limit` -1 means all. */
    firstPage: db.prepare<[KeyRange & { revision: number; limit: number }], KeyRow>(
      `SELECT ${KEY_ROW} FROM log l WHERE ${liveAt('>=')} ORDER BY l.key LIMIT @limit`,
    ),
    /** A later page: live keys after `start`, the previous page's last key. */
    nextPage: db.prepare<[KeyRange & { revision: number; limit: number }], KeyRow>(
      `SELECT ${KEY_ROW} FROM log l WHERE ${liveAt('>')} ORDER BY l.key LIMIT @limit`,
    ),
    /** How many live keys follow `start`, a page's last key. */
    countAfter: db.prepare<[KeyRange & { revision: number }], { n: number }>(
      `SELECT COUNT(*) AS n FROM log l WHERE ${liveAt('>')}`,
    ),
    /** Rows in the range written in (from, to], in revision order: a slice of a watch's replay. */
    rowsBetween: db.prepare<[KeyRange & { from: number; to: number }], LogRow>(
      'SELECT * FROM log WHERE id > @from AND id <= @to AND key >= @start AND key < @end ORDER BY id',
    ),
    /** Revisions never go back, even when compaction deleted the newest rows (tombstones). */
    lastRevision: db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'log'"),
    compactedRevision: db.prepare<[], { value: number }>("SELECT value FROM meta WHERE name = 'compacted_revision'"),
    setCompactedRevision: db.prepare<[number], never>("UPDATE meta SET value = ? WHERE name = 'compacted_revision'"),
    // Compacting (from, to]: every row written there that has a predecessor supersedes it, so the
    // predecessor goes (kine's approach: no scan of the older log). This must run before the next
    // statement, which deletes the tombstones whose `prev_revision` it reads.
    deleteSuperseded: db.prepare<[{ from: number; to: number }], never>(
      'DELETE FROM log WHERE id IN (SELECT prev_revision FROM log WHERE id > @from AND id <= @to AND prev_revision > 0)',
    ),
    deleteTombstones: db.prepare<[{ from: number; to: number }], never>(
      'DELETE FROM log WHERE deleted = 1 AND id > @from AND id <= @to',
    ),
    ping: db.prepare<[], { ok: number }>('SELECT 1 AS ok'),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/**
 * WAL with synchronous=FULL: the WAL is fsynced at every COMMIT, so a write acknowledged after its
 * commit survives kill -9 and power loss. (NORMAL would only survive a process crash.)
 */
export function initializeDatabase(db: Database.Database): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`sqlite refused WAL mode (journal_mode is ${String(mode)})`);
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);
}

export function toKeyValue(row: KeyRow): KeyValue {
  return { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.id };
}

export function toWatchEvent(row: LogRow): WatchEvent {
  const event: WatchEvent = {
    type: row.deleted ? 'delete' : row.created ? 'create' : 'update',
    key: row.key,
    revision: row.id,
    value: row.value,
    createRevision: row.create_revision,
  };
  if (!row.created && row.prev_value !== null) event.prevValue = row.prev_value;
  return event;
}
