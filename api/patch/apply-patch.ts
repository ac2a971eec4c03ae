/**
 * PATCH bodies applied to the current object: RFC 6902 JSON patch and RFC 7396 merge patch from
 * well-kept packages. Strategic merge patch (`strategic-merge.ts`) and server-side apply live in
 * their own modules. A patch that cannot apply is the client's error (422 or 400, as kube-apiserver answers).
 */
import jsonPatch, { type Operation } from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError } from '../status.js';
import type { KubeObject } from '../registry/object.js';
import { MAX_BODY_DEPTH } from '../schema/json-syntax.js';
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

export function applyJsonPatch(current: KubeObject, patch: unknown): KubeObject {
  if (!Array.isArray(patch)) throw new ApiError(400, 'BadRequest', 'the server rejected our request due to an error in our request: json patch must be an array of operations');
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new ApiError(413, 'RequestEntityTooLarge', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  try {
    let document: unknown = structuredClone(current);
    let copied = 0;
    patch.forEach((operation: unknown, index) => {
      copied += copiedBytes(document, operation);
      if (copied > MAX_ACCUMULATED_COPY_BYTES) {
        // evanphx/json-patch's words for its AccumulatedCopySizeLimit.
        throw new Error(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_ACCUMULATED_COPY_BYTES}`);
      }
      document = jsonPatch.applyOperation(document, operation as Operation, true, true, true, index).newDocument;
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
