/**
 * PATCH bodies applied to the current object: RFC 6902 JSON patch and RFC 7396 merge patch from
 * well-kept packages. Strategic merge patch (`strategic-merge.ts`) and server-side apply live in
 * their own modules. A patch that cannot apply is the client's error (422 or 400, as kube-apiserver answers).
 */
import jsonPatch, { type Operation } from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError } from '../../src/server/status.js';
import type { KubeObject } from '../registry/object.js';
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

export function applyJsonPatch(current: KubeObject, patch: unknown): KubeObject {
  if (!Array.isArray(patch)) throw new ApiError(400, 'BadRequest', 'the server rejected our request due to an error in our request: json patch must be an array of operations');
  try {
    const result = jsonPatch.applyPatch(structuredClone(current), patch as Operation[], true, false, true).newDocument;
    if (!isObject(result)) throw new Error('the patched document is not an object');
    return result as KubeObject;
  } catch (err) {
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${(err as Error).message.split('\n')[0]}`);
  }
}

export function applyMergePatch(current: KubeObject, patch: unknown): KubeObject {
  if (!isObject(patch)) throw new ApiError(400, 'BadRequest', 'the server rejected our request due to an error in our request: merge patch must be a JSON object');
  const result: unknown = mergePatch.apply(structuredClone(current), patch);
  if (!isObject(result)) throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request: the patched document is not an object');
  return result as KubeObject;
}
