/** The DeleteOptions of a DELETE or of an eviction, checked as kube-apiserver checks them. */
import type { DeleteOptions } from '../../../api/registry/generic-store.js';
import { ApiError } from '../../../api/status.js';
import { boolParam, dryRunParam, intParam, param, type Query } from './query.js';

/** DeleteOptions from a body's JSON (a DELETE's body, an Eviction's `deleteOptions`) and the query (curl users give them there). */
export function parseDeleteOptions(raw: unknown, query: Query): DeleteOptions {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError(400, 'BadRequest', 'DeleteOptions must be a JSON object');
  const body = raw as { propagationPolicy?: unknown; orphanDependents?: unknown; gracePeriodSeconds?: unknown; preconditions?: { uid?: unknown; resourceVersion?: unknown }; dryRun?: unknown };
  const policy = body.propagationPolicy ?? param(query, 'propagationPolicy');
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    throw new ApiError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`);
  }
  // Deprecated in Kubernetes but still honoured; it and propagationPolicy exclude each other.
  const orphan = body.orphanDependents ?? boolParam(query, 'orphanDependents');
  if (orphan !== undefined && typeof orphan !== 'boolean') throw new ApiError(400, 'BadRequest', 'DeleteOptions.orphanDependents must be a boolean');
  if (orphan !== undefined && policy !== undefined) {
    throw new ApiError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`);
  }
  const grace = body.gracePeriodSeconds ?? intParam(query, 'gracePeriodSeconds');
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isSafeInteger(grace) || grace < 0)) {
    throw new ApiError(422, 'Invalid', 'DeleteOptions.meta.k8s.io "" is invalid: gracePeriodSeconds: Invalid value: must be a non-negative integer');
  }
  const dryRun = Array.isArray(body.dryRun) ? body.dryRun.includes('All') : dryRunParam(query);
  const opts: DeleteOptions = { dryRun };
  if (policy) opts.propagationPolicy = policy;
  if (orphan !== undefined) opts.orphanDependents = orphan;
  if (typeof grace === 'number') opts.gracePeriodSeconds = grace;
  const pre = body.preconditions;
  if (pre) opts.preconditions = { uid: typeof pre.uid === 'string' ? pre.uid : undefined, resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined };
  return opts;
}

