/**
 * A failure answered by the server becomes the same `ApiError` the server threw (code, reason,
 * message, details), so callers test it by reason as client-go's `apierrors.IsNotFound` does.
 *
 * @example
 *   try { await configMaps.get('cm1'); } catch (err) { if (!isNotFound(err)) throw err; }
 */
import { decodeObject } from '../../api/protobuf/codec.js';
import { ApiError, reasonForCode, type Status, type StatusReason } from '../../api/status.js';

export { ApiError };

/** The error for a non-2xx answer: its Status when the body is one, else one made from the code. */
export function errorFromResponse(code: number, body: Buffer, protobuf = false): ApiError {
  const status = protobuf ? decodeStatus(body) : parseStatus(body);
  if (status !== undefined) return new ApiError(status.code || code, status.reason, status.message, status.details);
  return new ApiError(code, reasonOf(code), `the server answered ${code}: ${body.toString('utf8').slice(0, 200)}`);
}

/** The error an ERROR watch event carries. */
export function errorFromStatus(status: Partial<Status>): ApiError {
  const code = status.code ?? 500;
  return new ApiError(code, status.reason ?? reasonOf(code), status.message ?? 'the watch failed', status.details);
}

function decodeStatus(body: Buffer): Status | undefined {
  try {
    const decoded = decodeObject(body) as unknown as Partial<Status>;
    return decoded.kind === 'Status' ? ({ ...decoded, code: decoded.code ?? 0 } as Status) : undefined;
  } catch {
    return undefined;
  }
}

function parseStatus(body: Buffer): Status | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Partial<Status>;
    return parsed.kind === 'Status' && typeof parsed.code === 'number' ? (parsed as Status) : undefined;
  } catch {
    return undefined;
  }
}

/** A bare code's reason (a proxy's 502 has no Status body). */
function reasonOf(code: number): StatusReason {
  return reasonForCode(code) ?? 'InternalError';
}

function hasReason(err: unknown, ...reasons: StatusReason[]): err is ApiError {
  return err instanceof ApiError && reasons.includes(err.reason);
}

export const isNotFound = (err: unknown): err is ApiError => hasReason(err, 'NotFound');
export const isAlreadyExists = (err: unknown): err is ApiError => hasReason(err, 'AlreadyExists');
export const isConflict = (err: unknown): err is ApiError => hasReason(err, 'Conflict');
export const isForbidden = (err: unknown): err is ApiError => hasReason(err, 'Forbidden');
export const isUnauthorized = (err: unknown): err is ApiError => hasReason(err, 'Unauthorized');
export const isInvalid = (err: unknown): err is ApiError => hasReason(err, 'Invalid');
export const isBadRequest = (err: unknown): err is ApiError => hasReason(err, 'BadRequest');
/** A resourceVersion or continue token too old to serve: 410 with reason Gone or Expired, as client-go's `IsResourceExpired`. */
export const isGone = (err: unknown): err is ApiError => hasReason(err, 'Gone', 'Expired');
export const isTooManyRequests = (err: unknown): err is ApiError => hasReason(err, 'TooManyRequests');
export const isServiceUnavailable = (err: unknown): err is ApiError => hasReason(err, 'ServiceUnavailable');
