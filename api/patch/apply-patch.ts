/**
 * PATCH bodies applied to the current object: RFC 6902 JSON patch and RFC 7396 merge patch from
 * well-kept packages. Strategic merge patch (`strategic-merge.ts`) and server-side apply live in
 * their own modules. A patch that cannot apply is the client's error (422 or 400, as kube-apiserver answers).
 */
import jsonPatch, { type Operation } from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError } from '../status.js';
import type { KubeObject } from '../registry/object.js';
import { goJsonValueName, MAX_BODY_DEPTH } from '../schema/json-syntax.js';
import type { Schema } from '../schema/schema.js';
import { supportsStrategicMerge } from './strategic-merge.js';

export const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export type PatchType = keyof typeof PATCH_TYPES;

export function patchTypeOf(contentType: string): PatchType | undefined {
  return (Object.keys(PATCH_TYPES) as PatchType[]).find((k) => PATCH_TYPES[k] === contentType);
}

/**
 * The patch types a kind takes, in kube-apiserver's order. Kinds without a schema to drive it
 * (custom kinds) take no strategic merge patch, as in Kubernetes.
 */
export function acceptedPatchTypes(schema: Schema): PatchType[] {
  return supportsStrategicMerge(schema) ? ['json', 'merge', 'strategic', 'apply'] : ['json', 'merge', 'apply'];
}

/** 415, worded as kube-apiserver words it; kubectl patch prints it. */
export function unsupportedPatchType(accepted: readonly PatchType[]): ApiError {
  const types = accepted.map((t) => PATCH_TYPES[t]).join(', ');
  return new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${types}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** kube-apiserver's bound on the operations of one JSON patch (`maxJSONPatchOperations`, patch.go). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * What the `copy` operations of one patch may add, in bytes of JSON. Each copy is a deep copy, so
 * copying a value into itself thirty times would reach a terabyte; the bound is the body limit.
 */
export const MAX_ACCUMULATED_COPY_BYTES = 3 * 1024 * 1024;

/** The JSON size of what a copy operation would copy; 0 when `from` does not resolve (the operation then fails on its own). */
function copiedBytes(document: unknown, operation: unknown): number {
  if (!isObject(operation) || operation.op !== 'copy' || typeof operation.from !== 'string') return 0;
  try {
    return JSON.stringify(jsonPatch.getValueByPointer(document, operation.from) ?? null).length;
  } catch {
    return 0;
  }
}

/**
 * Whether a value nests deeper than `MAX_BODY_DEPTH`, found without recursion. Merge and strategic
 * patches nest no deeper than the object and the (bounded) patch; a JSON patch can add a value at
 * the end of a long path, so its result is checked before anything walks it recursively.
 */
function nestsTooDeep(value: unknown): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > MAX_BODY_DEPTH) return true;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * evanphx/json-patch's words (kube-apiserver applies JSON patches with it) for what
 * fast-json-patch reports by error name; other failures keep their own first line.
 */
function goJsonPatchError(err: unknown): string {
  const message = (err as Error).message.split('\n')[0]!;
  if (!(err instanceof jsonPatch.JsonPatchError) || !isObject(err.operation)) return message;
  const { op, path, from } = err.operation as { op?: unknown; path?: unknown; from?: unknown };
  switch (err.name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${String(path)} failed: test failed`;
    case 'OPERATION_OP_INVALID':
      return `Unexpected kind: ${String(op)}`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${String(op)} operation does not apply: doc is missing from path: ${String(from)}: missing value`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `Unable to access invalid index: ${String(path).split('/').at(-1)}: invalid index referenced`;
    case 'OPERATION_PATH_UNRESOLVABLE':
    case 'OPERATION_PATH_CANNOT_ADD':
      if (op === 'remove') return `Unable to remove nonexistent key: ${String(path).split('/').at(-1)}: missing value`;
      if (op === 'replace') return `replace operation does not apply: doc is missing key: ${String(path)}: missing value`;
      return `${String(op)} operation does not apply: doc is missing path: ${JSON.stringify(String(path))}: missing value`;
    default:
      return message;
  }
}

const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];

/**
 * A patch as evanphx/json-patch's `DecodePatch` reads it (kube-apiserver answers its errors 400 in
 * Go's words): a list of objects; a null operation passes and is an unknown kind when applied. A
 * body that is no patch at all (empty) fails as Go's decoder fails on empty input.
 */
function decodeJsonPatch(patch: unknown): Array<Record<string, unknown> | null> {
  if (patch === null) throw new ApiError(400, 'BadRequest', 'unexpected end of JSON input');
  if (!Array.isArray(patch)) throw new ApiError(400, 'BadRequest', `json: cannot unmarshal ${goJsonValueName(patch)} into Go value of type jsonpatch.Patch`);
  const bad = patch.find((operation) => operation !== null && (typeof operation !== 'object' || Array.isArray(operation)));
  if (bad !== undefined) throw new ApiError(400, 'BadRequest', `json: cannot unmarshal ${goJsonValueName(bad)} into Go value of type jsonpatch.Operation`);
  return patch as Array<Record<string, unknown> | null>;
}

/**
 * One operation as evanphx/json-patch reads it, or its error in that package's words: the op (a
 * non-string is "unknown"), then `from` for move and copy, then `path` (add, remove and copy say
 * only "missing value" whatever went wrong, as that package wraps it). A null field is an absent
 * one. Its pointers keep only what follows their first "/" (it drops the segment before it), and
 * one without a "/" names nothing; a missing `value` is null, as Go adds it.
 */
function goOperation(operation: Record<string, unknown> | null): Operation | string {
  const op = typeof operation?.op === 'string' ? operation.op : 'unknown';
  if (operation === null || !JSON_PATCH_OPS.includes(op)) return `Unexpected kind: ${op}`;
  const pointer = (name: 'path' | 'from'): { value: string } | { error: string } => {
    const value = operation[name];
    if (value == null) return { error: name === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value' };
    if (typeof value !== 'string') return { error: `json: cannot unmarshal ${goJsonValueName(value)} into Go value of type string` };
    return { value };
  };
  let from: string | undefined;
  if (op === 'move' || op === 'copy') {
    const decoded = pointer('from');
    if ('error' in decoded) return `${op} operation failed to decode from: ${decoded.error}`;
    if (!decoded.value.includes('/')) return `${op} operation does not apply: doc is missing from path: ${decoded.value}: missing value`;
    from = decoded.value.slice(decoded.value.indexOf('/'));
  }
  const decoded = pointer('path');
  if ('error' in decoded) return `${op} operation failed to decode path: ${['add', 'remove', 'copy'].includes(op) ? 'missing value' : decoded.error}`;
  const path = decoded.value;
  if (!path.includes('/')) {
    if (op === 'add' || op === 'remove') return `${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`;
    if (op === 'test') return `test operation does not apply: is missing path: ${path}: missing value`;
    if (op === 'replace') return `replace operation does not apply: doc is missing path: ${path}: missing value`;
    return `${op} operation does not apply: doc is missing destination path: ${path}: missing value`;
  }
  const value = operation.value === undefined ? null : operation.value;
  return { op, path: path.slice(path.indexOf('/')), ...(from !== undefined ? { from } : {}), value } as Operation;
}

export function applyJsonPatch(current: KubeObject, body: unknown): KubeObject {
  const patch = decodeJsonPatch(body);
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new ApiError(413, 'RequestEntityTooLarge', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  try {
    let document: unknown = structuredClone(current);
    let copied = 0;
    patch.forEach((sent, index) => {
      const operation = goOperation(sent);
      if (typeof operation === 'string') throw new Error(operation);
      copied += copiedBytes(document, operation);
      if (copied > MAX_ACCUMULATED_COPY_BYTES) {
        // evanphx/json-patch's words for its AccumulatedCopySizeLimit.
        throw new Error(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_ACCUMULATED_COPY_BYTES}`);
      }
      document = jsonPatch.applyOperation(document, operation, true, true, true, index).newDocument;
    });
    if (!isObject(document)) throw new Error('the patched document is not an object');
    if (nestsTooDeep(document)) throw new Error(`the patched document nests deeper than ${MAX_BODY_DEPTH} levels`);
    return document as KubeObject;
  } catch (err) {
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${goJsonPatchError(err)}`);
  }
}

export function applyMergePatch(current: KubeObject, patch: unknown): KubeObject {
  if (!isObject(patch)) throw new ApiError(400, 'BadRequest', 'the server rejected our request due to an error in our request: merge patch must be a JSON object');
  const result: unknown = mergePatch.apply(structuredClone(current), patch);
  if (!isObject(result)) throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request: the patched document is not an object');
  return result as KubeObject;
}
