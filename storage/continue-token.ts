/**
 * The opaque `continue` token both backends issue: the listing's revision and the key to resume
 * after, base64url-encoded JSON. A token for another prefix, or one that does not decode, is
 * refused (the API answers 400); a token whose revision was compacted is TooOld (410 Expired).
 */
import { StorageError } from './errors.js';

interface ContinueState {
  /** The revision every page of the listing is served at. */
  rev: number;
  /** The last key returned; the next page starts after it. */
  after: string;
}

function encodeToken(state: object): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function encodeContinue(state: ContinueState): string {
  return encodeToken(state);
}

function decodeToken(prefix: string, token: string): unknown {
  try {
    return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw new StorageError('InvalidContinue', prefix, 'continue token is not valid');
  }
}

export function decodeContinue(prefix: string, token: string): ContinueState {
  const s = decodeToken(prefix, token) as Partial<ContinueState> | null;
  if (!s || !Number.isSafeInteger(s.rev) || (s.rev as number) <= 0 || typeof s.after !== 'string' || !s.after.startsWith(prefix)) {
    throw new StorageError('InvalidContinue', prefix, 'continue token is not valid for this list');
  }
  return s as ContinueState;
}

/**
 * A listing across storage clusters (`tenants/all`) continues at each cluster's revision, after the
 * last key given (any cluster's: each key lives in one). Its shape differs from a store's token,
 * so neither is taken for the other.
 */
interface ClusterContinueState {
  revs: Record<string, number>;
  after: string;
}

export function encodeClusterContinue(state: ClusterContinueState): string {
  return encodeToken(state);
}

/** The revisions are the caller's to check against its clusters. */
export function decodeClusterContinue(prefix: string, token: string): ClusterContinueState {
  const s = decodeToken(prefix, token) as Partial<ClusterContinueState> | null;
  if (!s || typeof s.revs !== 'object' || s.revs === null || Array.isArray(s.revs) || typeof s.after !== 'string' || !s.after.startsWith(prefix)) {
    throw new StorageError('InvalidContinue', prefix, 'continue token is not valid for this list');
  }
  return s as ClusterContinueState;
}
