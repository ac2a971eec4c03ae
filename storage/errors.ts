/**
 * Storage errors: the only error type that leaves `storage/`. Each backend casts its driver's
 * errors to one of these at the boundary (see `etcd/` and `sqlite/`), and the registry maps them
 * to Kubernetes Status errors in one place.
 */
export type StorageErrorCode =
  /** create-if-absent found a live key */
  | 'AlreadyExists'
  /** get/update/delete of an absent key */
  | 'NotFound'
  /** the expected revision did not match the key's current revision */
  | 'Conflict'
  /** the revision asked for (read, list, watch or continue token) has been compacted away */
  | 'TooOld'
  /** a continue token that this store did not issue or cannot decode */
  | 'InvalidContinue'
  /** a key segment that could escape its level, or a malformed key */
  | 'InvalidKey'
  /** the backend cannot be reached or has been closed; nothing was written */
  | 'Unavailable'
  /** a write was sent but its reply was lost (a timeout, a connection dropped mid-call): it may have been applied */
  | 'OutcomeUnknown';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** For Conflict: the key's current revision (0 when absent); for TooOld: the oldest revision still kept. */
    readonly revision = 0,
  ) {
    super(message);
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
