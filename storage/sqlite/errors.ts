/**
 * The boundary between better-sqlite3 and the rest of kube-spaces: every driver error becomes a
 * `StorageError` here, so nothing above `storage/` ever sees a `SqliteError`.
 *
 * @example
 *   try { stmt.run(row) } catch (err) { throw castSqliteError(err, row.key) }
 */
import Database from 'better-sqlite3';
import { StorageError } from '../errors.js';

/**
 * A constraint failure on a write means another write to the same key got there first (the
 * UNIQUE (key, prev_revision) index); any other driver error means the database is unusable.
 * Errors that are not the driver's (our own StorageErrors, programmer errors) pass through as-is.
 */
export function castSqliteError(err: unknown, key: string): unknown {
  if (!(err instanceof Database.SqliteError)) return err;
  if (err.code.startsWith('SQLITE_CONSTRAINT')) {
    return new StorageError('Conflict', key, `a concurrent write to ${key} won`);
  }
  return new StorageError('Unavailable', key, `sqlite: ${err.code}: ${err.message}`);
}

/** True for a driver error that fails one statement but leaves its transaction usable. */
export function isStatementFailure(err: unknown): boolean {
  return err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT');
}
