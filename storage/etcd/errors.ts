/**
 * The etcd backend's error boundary: every error from etcd3, grpc-js or etcd itself becomes a
 * `StorageError` here, so nothing above `storage/` ever sees a driver error.
 *
 * etcd's own errors arrive as gRPC statuses whose message carries etcd's text (etcd3 keeps it in
 * the message), so the message is the reliable thing to match on.
 *
 * @example
 *   try { await kv.range(req); } catch (err) { throw toStorageError(err, key); }
 */
import { StorageError } from '../errors.js';

/** etcd's ErrCompacted: a read, watch or compaction below the compacted revision. */
const COMPACTED = 'required revision has been compacted';
/** etcd's ErrFutureRev: a read or compaction above the current revision. */
const FUTURE_REVISION = 'required revision is a future revision';
/** grpc-js refusing a response over `grpc.max_receive_message_length`. */
const RESPONSE_TOO_LARGE = 'larger than max';

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isCompactedError(err: unknown): boolean {
  return messageOf(err).includes(COMPACTED);
}

export function isFutureRevisionError(err: unknown): boolean {
  return messageOf(err).includes(FUTURE_REVISION);
}

/** The response did not fit the client's receive limit; a smaller page will. */
export function isResponseTooLargeError(err: unknown): boolean {
  return messageOf(err).includes(RESPONSE_TOO_LARGE);
}

/**
 * What a write's failure says when its request may have reached etcd and been applied: etcd's
 * own timeouts (the proposal may still commit), a leader change mid-proposal, gRPC deadlines and
 * cancellations, and a connection dropped or reset during the call. A connection never made
 * ("No connection established") sent nothing.
 */
const OUTCOME_UNKNOWN = ['etcdserver: request timed out', 'etcdserver: leader changed', 'DEADLINE_EXCEEDED', 'CANCELLED', 'Connection dropped', 'ECONNRESET'];

/**
 * Casts an error met while writing: as `toStorageError`, except that a write which may have been
 * applied is OutcomeUnknown, so the client is told to look before it retries.
 */
export function toWriteError(err: unknown, key: string, compactedRevision = 0): StorageError {
  const cast = toStorageError(err, key, compactedRevision);
  if (cast === err || cast.code !== 'Unavailable') return cast;
  const message = messageOf(err);
  return OUTCOME_UNKNOWN.some((sign) => message.includes(sign)) ? new StorageError('OutcomeUnknown', key, cast.message) : cast;
}

/**
 * Casts any error met while talking to etcd. `compactedRevision` is the best known compacted
 * revision, reported on TooOld (etcd's read errors do not say it).
 *
 * A read at a future revision becomes Unavailable: the revision may exist a moment later, as
 * Kubernetes answers such reads with a retryable "too large resource version". Everything else
 * (connection lost, no leader, timeouts, a closed client, etcd refusing the request) is
 * Unavailable with etcd's message kept.
 */
export function toStorageError(err: unknown, key: string, compactedRevision = 0): StorageError {
  if (err instanceof StorageError) return err;
  const message = messageOf(err);
  if (isCompactedError(err)) {
    return new StorageError('TooOld', key, `etcd: the revision asked for has been compacted (${message})`, compactedRevision);
  }
  if (isFutureRevisionError(err)) {
    return new StorageError('Unavailable', key, `etcd: the revision asked for does not exist yet (${message})`);
  }
  return new StorageError('Unavailable', key, `etcd: ${message}`);
}
