/**
 * The storage contract every backend (etcd, embedded SQLite, later the watch cache) implements.
 * Revisions are the store's single global, strictly increasing counter: an object's
 * `resourceVersion` is the revision of its last write, comparable across kinds and spaces.
 * Values are opaque strings (serialized objects); keys come only from `keys.ts`.
 */

/** One stored key at one revision. */
export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the write that created this incarnation of the key. */
  createRevision: number;
  /** Revision of the last write to the key (the object's resourceVersion). */
  modRevision: number;
}

export interface GetOptions {
  /** Read as of this revision (0 or absent: the latest). Older than the compacted revision → TooOld. */
  revision?: number;
}

export interface GetResult {
  /** The key's value, or null when it does not exist (at that revision). */
  kv: KeyValue | null;
  /** The store revision the read was served at. */
  revision: number;
}

export interface ListOptions {
  /** At most this many items (0 or absent: all); an integer up to `Number.MAX_SAFE_INTEGER`. */
  limit?: number;
  /** Opaque token from a previous page; the page continues at that page's revision. */
  continue?: string;
  /** Read as of this revision (0 or absent: the latest). Ignored when `continue` is given. */
  revision?: number;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the whole listing (every page of it) is served at. */
  revision: number;
  /** Set when more items remain; pass it back to get the next page. */
  continue?: string;
  /** How many items remain after this page (0 on the last page). */
  remaining: number;
}

export type WatchEventType = 'create' | 'update' | 'delete';

export interface WatchEvent {
  type: WatchEventType;
  key: string;
  /** The revision of this write. */
  revision: number;
  /** The value after the write; for a delete, the last value the key held. */
  value: string;
  /** The value before the write; absent on create. */
  prevValue?: string;
  /** For create/update: the key's createRevision. For delete: the deleted incarnation's. */
  createRevision: number;
}

export interface WatchHandler {
  /** Events arrive in revision order, each exactly once, with no gaps. */
  onEvent(event: WatchEvent): void;
  /** The store has seen every write up to `revision` (may be called when nothing changed). */
  onProgress?(revision: number): void;
  /** The watch failed for good (e.g. TooOld, or the store closed); no more calls follow. */
  onError(err: Error): void;
}

export interface StoreWatch {
  /**
   * Whether `requestProgress` is answered, in order with the events: progress to a revision then
   * means every event up to it was delivered (what a consistent read from a cache needs).
   */
  readonly orderedProgress: boolean;
  /** Stops delivery; idempotent. */
  close(): void;
  /**
   * Asks for an onProgress soon with the store's current revision, even when nothing under the
   * prefix changed (etcd's progress request), so a reader can tell the watch has caught up. Best
   * effort: a watch that is reconnecting or replaying answers once it is live again. Does nothing
   * where progress would not be ordered (`Store.orderedProgress`).
   */
  requestProgress(): void;
}

export interface WatchOptions {
  /**
   * Deliver every event with a revision greater than this one. Absent: from the current revision,
   * i.e. only writes made after the watch was established. Compacted → the `watch` promise rejects
   * with TooOld; a compaction that overtakes an established watch (e.g. across a reconnect) is
   * reported through onError.
   */
  sinceRevision?: number;
}

export interface Store {
  readonly backend: 'etcd' | 'sqlite';
  /**
   * Whether a watch's requested progress comes in order with its events, so that progress to a
   * revision means every event up to it was delivered: SQLite; etcd from 3.4.31, 3.5.13 and 3.6
   * (earlier etcd may send it ahead of events already queued; kube-apiserver checks the same
   * versions before it serves consistent reads from its cache).
   */
  readonly orderedProgress: boolean;
  get(key: string, opts?: GetOptions): Promise<GetResult>;
  /**
   * Keys under `prefix`, in byte order of their UTF-8 keys. A prefix is a folder: it ends in '/'
   * (callers pass `keyPrefix` results), so `/t1/` never reaches `/t10/`.
   */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /** Create-if-absent. AlreadyExists when the key lives. */
  create(key: string, value: string): Promise<KeyValue>;
  /** Replace the value if the key's modRevision equals `expectedRevision`; Conflict otherwise, NotFound if absent. */
  update(key: string, value: string, expectedRevision: number): Promise<KeyValue>;
  /**
   * Delete the key, guarded by `expectedRevision` when given (Conflict on mismatch). Returns the
   * deleted value with `modRevision` set to the revision of the delete.
   */
  delete(key: string, expectedRevision?: number): Promise<KeyValue>;
  /** Watch every key under `prefix`. Resolves once the watch is established. */
  watch(prefix: string, opts: WatchOptions, handler: WatchHandler): Promise<StoreWatch>;
  /** The latest revision (a consistent read of it). */
  currentRevision(): Promise<number>;
  /** The oldest revision that can still be read or watched from. */
  compactedRevision(): Promise<number>;
  /** Drop history older than `revision`; later reads or watches below it fail with TooOld. */
  compact(revision: number): Promise<void>;
  /** Answers when the backend is reachable (for /readyz). Throws Unavailable otherwise. */
  ping(): Promise<void>;
  /** Closes watches (each gets onError Unavailable) and the connection. */
  close(): Promise<void>;
}
