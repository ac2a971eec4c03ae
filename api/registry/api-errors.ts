/**
 * The API errors the registry raises, worded as kube-apiserver words them (apimachinery
 * `errors.New*`), and the one mapping from storage errors to them.
 */
import { ApiError, type StatusCause } from '../status.js';
import { isStorageError } from '../../storage/errors.js';
import type { FieldError } from './field-error.js';
import type { ResourceDefinition } from './resource-definition.js';

/** The `group` and `kind` (plural resource) that Status details carry. */
function qualified(def: ResourceDefinition): { group: string; kind: string; text: string } {
  return { group: def.group, kind: def.resource, text: def.group === '' ? def.resource : `${def.resource}.${def.group}` };
}

export function notFound(def: ResourceDefinition, name: string): ApiError {
  const q = qualified(def);
  return new ApiError(404, 'NotFound', `${q.text} "${name}" not found`, { name, group: q.group, kind: q.kind });
}

export function alreadyExists(def: ResourceDefinition, name: string): ApiError {
  const q = qualified(def);
  return new ApiError(409, 'AlreadyExists', `${q.text} "${name}" already exists`, { name, group: q.group, kind: q.kind });
}

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(def: ResourceDefinition, name: string, why: string = OPTIMISTIC_LOCK_MESSAGE): ApiError {
  const q = qualified(def);
  return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${q.text} "${name}": ${why}`, { name, group: q.group, kind: q.kind });
}

/** 422 with one cause per field, as kubectl prints them (`The ConfigMap "x" is invalid:` + `* field: msg`). */
export function invalid(def: ResourceDefinition, name: string, errors: FieldError[]): ApiError {
  const causes: StatusCause[] = errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
  const lines = errors.map((e) => `${e.field}: ${e.message}`);
  const summary = lines.length === 1 ? lines[0]! : `[${lines.join(', ')}]`;
  const kind = def.group === '' ? def.kind : `${def.kind}.${def.group}`;
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${summary}`, { name, group: def.group, kind: def.kind, causes });
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** A kind a body may be sent as, e.g. `{ apiVersion: 'policy/v1', kind: 'Eviction' }`. */
export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

/** An apiVersion or kind as a message shows it: a string as it is, anything else (a patch may make it anything) as JSON. */
export function typeMetaText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
}

/**
 * Refuses a body whose apiVersion or kind (decoded strings, or absent and then defaulted from the
 * URL) is none of `accepted`, in kube-apiserver's words for the first accepted one.
 */
export function checkTypeMeta(body: { apiVersion?: unknown; kind?: unknown }, accepted: readonly [TypeMeta, ...TypeMeta[]]): void {
  // A null field is an absent one, as Go's decoder reads it; other non-strings only reach here from an apply configuration.
  const apiVersion = body.apiVersion == null ? undefined : typeMetaText(body.apiVersion);
  const kind = body.kind == null ? undefined : typeMetaText(body.kind);
  const matches = (k: TypeMeta): boolean => (apiVersion === undefined || apiVersion === k.apiVersion) && (kind === undefined || kind === k.kind);
  if (accepted.some(matches)) return;
  const expected = accepted[0];
  if (kind !== undefined && !accepted.some((k) => k.kind === kind)) {
    const version = expected.apiVersion.split('/').at(-1)!;
    throw badRequest(
      `${kind} in version "${version}" cannot be handled as a ${expected.kind}: the object provided is unrecognized (must be of type ${expected.kind}): Object 'Kind' is ${JSON.stringify(kind)} (expected ${JSON.stringify(expected.kind)})`,
    );
  }
  throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected.apiVersion})`);
}

export function methodNotAllowed(verb: string, def: ResourceDefinition): ApiError {
  return new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {
    group: def.group,
    kind: def.resource,
    causes: [{ reason: 'UnexpectedServerResponse', message: `${verb} is not supported on ${def.resource}` }],
  });
}

/** 410 for a list or watch whose revision was compacted away. */
export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function internalError(message: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);
}

/**
 * Seconds a client should wait before retrying when storage cannot be reached: sent as
 * `details.retryAfterSeconds` and, by the status handler, as `Retry-After` (client-go waits that long).
 */
export const STORAGE_RETRY_AFTER_SECONDS = 1;

/** 503 for storage that cannot be reached; the client may retry after a moment. */
export function storageUnavailable(def: ResourceDefinition, why: string): ApiError {
  const q = qualified(def);
  return new ApiError(503, 'ServiceUnavailable', `storage is unavailable: ${why}`, { group: q.group, kind: q.kind, retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS });
}

/**
 * 504 Timeout for a write storage did not confirm, worded as kube-apiserver's timeout
 * (`NewTimeoutError`: "Timeout: request did not complete within requested timeout - …") and saying
 * the write may have been applied, so a client reads before it retries. No Retry-After: a blind
 * retry could apply the write twice.
 */
export function writeOutcomeUnknown(why: string): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: request did not complete within requested timeout - storage did not confirm the write, which may have been applied: ${why}`);
}

/** Maps a StorageError to its API error for this resource and name; anything else is rethrown as is. */
export function fromStorageError(err: unknown, def: ResourceDefinition, name: string): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'NotFound':
      return notFound(def, name);
    case 'AlreadyExists':
      return alreadyExists(def, name);
    case 'Conflict':
      return conflict(def, name);
    case 'TooOld':
      return expired('The resourceVersion for the provided list is too old.');
    case 'InvalidContinue':
      return badRequest(`continue key is not valid: ${err.message}`);
    case 'InvalidKey':
      return badRequest(err.message);
    case 'Unavailable':
      return storageUnavailable(def, err.message);
    case 'OutcomeUnknown':
      return writeOutcomeUnknown(err.message);
  }
}

/**
 * An admission plugin's refusal, as admission.NewForbidden words it: `pods "p" is forbidden: why`,
 * naming the object by its name, or by its generateName before a name is generated.
 */
export function admissionForbidden(def: ResourceDefinition, obj: { metadata?: { name?: string; generateName?: string } }, why: string): ApiError {
  const q = qualified(def);
  const name = obj.metadata?.name || obj.metadata?.generateName || 'Unknown';
  return new ApiError(403, 'Forbidden', `${q.text} "${name}" is forbidden: ${why}`, { name, group: q.group, kind: q.kind });
}
