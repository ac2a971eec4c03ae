/**
 * How server-side apply meets client-side apply's `kubectl.kubernetes.io/last-applied-configuration`
 * annotation, for the manager `kubectl` only (other names opt out), as kube-apiserver does:
 * - `lastAppliedFields`: the fields the annotation says kubectl applied and that still hold the
 *   applied value. A `kubectl apply --server-side` that conflicts only on those fields (with
 *   `kubectl-client-side-apply`, typically) is forced, so switching to server-side apply does not
 *   conflict with one's own earlier client-side applies.
 * - `syncLastApplied`: after such an apply, an existing annotation is rewritten to the applied
 *   configuration, so a later client-side apply diffs against what was really applied.
 *
 * @example
 *   lastAppliedFields(live, deployments.schema, 'apps/v1')?.has([{ field: 'spec' }, { field: 'replicas' }]);
 *   syncLastApplied(object, config); // annotation = '{"apiVersion":"apps/v1",...}\n'
 */
import type { KubeObject } from '../registry/object.js';
import type { Schema } from '../schema/schema.js';
import { compareObjects } from './compare-objects.js';
import type { FieldSet } from './field-set.js';
import { goJson, isJsonObject, type JsonObject } from './json-value.js';
import { fieldSetOf } from './object-fields.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manager whose applies take the annotation into account. */
export const KUBECTL_MANAGER = 'kubectl';

/** Kubernetes' limit on the total size of an object's annotations (keys and values, in bytes). */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Fields in the live object's annotation whose live value is still the applied one; undefined without a usable annotation. */
export function lastAppliedFields(live: KubeObject, schema: Schema, apiVersion: string): FieldSet | undefined {
  const text = live.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!text) return undefined;
  let applied: unknown;
  try {
    applied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(applied) || applied.apiVersion !== apiVersion) return undefined;
  const cmp = compareObjects(applied, live as JsonObject, schema);
  if (cmp.errors.length > 0) return undefined;
  return fieldSetOf(applied, schema).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** Rewrites an existing annotation to the applied configuration (without the annotation itself), in place; dropped if it would not fit. */
export function syncLastApplied(object: KubeObject, config: JsonObject): void {
  const annotations = object.metadata.annotations;
  if (!annotations?.[LAST_APPLIED_ANNOTATION]) return;
  const applied = structuredClone(config);
  const appliedMeta = applied.metadata;
  if (isJsonObject(appliedMeta) && isJsonObject(appliedMeta.annotations)) delete appliedMeta.annotations[LAST_APPLIED_ANNOTATION];
  annotations[LAST_APPLIED_ANNOTATION] = goJson(applied) + '\n';
  const size = Object.entries(annotations).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (size > MAX_ANNOTATIONS_BYTES) delete annotations[LAST_APPLIED_ANNOTATION];
}
