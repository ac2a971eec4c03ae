/**
 * Server-side apply (`application/apply-patch+yaml`) of a configuration by one field manager,
 * as kube-apiserver's field manager does it:
 * 1. the configuration is merged into the live object by the schema (`merge-objects.ts`);
 * 2. the applier's Apply entry becomes exactly the configuration's fields;
 * 3. fields the applier applied last time and left out now are pruned, unless another manager
 *    (or the new configuration) still owns them: then they stay and only the applier lets go;
 * 4. every field whose value the apply changes and that another manager owns is a conflict;
 *    `force` takes it over instead, and removed fields leave every manager;
 * 5. for the manager `kubectl`, conflicts on fields its last-applied annotation still holds
 *    are taken over, and the annotation is rewritten to the configuration (`last-applied.ts`).
 * An object that has no managedFields yet first gives all its fields to `before-first-apply`,
 * so nothing set before tracking began is taken silently. Applying to no object creates one.
 * The returned object still goes through the kind's strategy, which resets its reset fields
 * (a main-resource apply may carry `status`; the strategy keeps the stored one).
 *
 * @example
 *   const result = applyConfiguration({
 *     schema: deployments.schema, resetFields: statusResetFields(), live, config,
 *     manager: 'kubectl', force: false, apiVersion: 'apps/v1', kind: 'Deployment', now: new Date(),
 *   });
 *   if (result.conflicts) throw applyConflictError(result.conflicts);
 *   store(result.object); // metadata.managedFields already set
 */
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import type { Schema } from '../schema/schema.js';
import { ApiError } from '../status.js';
import { compareObjects } from './compare-objects.js';
import { conflictsOf, type ApplyConflict } from './conflicts.js';
import { FieldSet } from './field-set.js';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from './json-value.js';
import { KUBECTL_MANAGER, lastAppliedFields, syncLastApplied } from './last-applied.js';
import { decodeManagedFields, encodeManagedFields, formatTime, InvalidManagedFieldsError, managerIdentity, type ManagedSet, type Managers } from './managed-fields.js';
import { dropNullFields, mergeObjects } from './merge-objects.js';
import { ensureNamedFieldsAreMembers, fieldSetOf, ownableFields } from './object-fields.js';
import { removeItems } from './remove-items.js';
import { zeroValueOf, type TypeRef } from './schema-type.js';
import { recordUpdate, withoutManagedFields, withoutResetFields } from './update-managed-fields.js';

export interface ApplyInput {
  /** The kind's schema. */
  schema: Schema;
  /** Fields the kind's strategy resets for this write (see `reset-fields.ts`). */
  resetFields: FieldSet;
  /** The stored object; undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The decoded apply patch. */
  config: JsonObject;
  manager: string;
  force: boolean;
  /** The API version and kind the request addresses; the configuration must name the same. */
  apiVersion: string;
  kind: string;
  subresource?: string;
  now: Date;
}

export type ApplyResult =
  | { object: KubeObject; managedFields: ManagedFieldsEntry[]; conflicts?: undefined }
  | { conflicts: ApplyConflict[]; object?: undefined; managedFields?: undefined };

const BEFORE_FIRST_APPLY = 'before-first-apply';

/** Go's `GroupVersionKind.String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
function gvkString(apiVersion: JsonValue | undefined, kind: JsonValue | undefined): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  return `${slash < 0 ? '' : av.slice(0, slash)}/${av.slice(slash + 1)}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** Typed-value errors joined as structured-merge-diff joins them. */
function errorList(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] as string) : ['errors:', ...errors.map((e) => '  ' + e)].join('\n');
}

function checkConfiguration({ config, apiVersion, kind, schema }: ApplyInput): void {
  if (config.apiVersion !== apiVersion || config.kind !== kind) {
    throw new ApiError(400, 'BadRequest', `invalid object type: ${gvkString(config.apiVersion, config.kind)}`);
  }
  const meta = isJsonObject(config.metadata) ? config.metadata : {};
  if (meta.managedFields !== undefined && meta.managedFields !== null) throw new ApiError(400, 'BadRequest', 'metadata.managedFields must be nil');
  // Merging the configuration into nothing checks its lists: keys present, none repeated.
  const { errors } = mergeObjects(undefined, config, schema);
  if (errors.length > 0) {
    const where = `${typeof meta.namespace === 'string' ? meta.namespace : ''}/${typeof meta.name === 'string' ? meta.name : ''}; ${gvkString(apiVersion, kind)}`;
    // kube-apiserver answers these with a plain error, hence 500.
    throw new ApiError(500, 'InternalError', `failed to create typed patch object (${where}): ${errorList(errors)}`);
  }
}

/**
 * Removes what the applier owned last time and no longer applies, keeping what any manager
 * owns now (smd's prune, add-back-owned and add-back-dangling steps).
 */
function prune(merged: JsonValue, managers: Managers, lastSet: FieldSet | undefined, type: TypeRef): JsonValue {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const named = (set: FieldSet): FieldSet => ensureNamedFieldsAreMembers(set, type);
  const fieldsOf = (value: JsonValue): FieldSet => named(fieldSetOf(value, type));
  const last = named(lastSet);
  const mergedSet = fieldsOf(merged);
  const pruned = removeItems(merged, last, type);
  const owned = [...managers.values()].reduce((all, m) => all.union(m.fields), new FieldSet());
  const keptOwned = removeItems(merged, mergedSet.difference(fieldsOf(pruned).union(named(owned))), type);
  // Only what the applier owned last time may go; anything else removed above comes back.
  return removeItems(merged, mergedSet.difference(fieldsOf(keptOwned)).intersection(last), type);
}

function toKubeObject(value: JsonValue): KubeObject {
  const obj = isJsonObject(value) ? value : {};
  return { ...obj, metadata: isJsonObject(obj.metadata) ? obj.metadata : {} };
}

function applyOnce(input: ApplyInput, decoded: Managers, force: boolean): ApplyResult {
  const { schema, resetFields, now } = input;
  const managers: Managers = new Map(decoded);
  const live: JsonValue = input.live ? withoutManagedFields(input.live) : zeroValueOf(schema);
  if (input.live && managers.size === 0) {
    const cmp = withoutResetFields(compareObjects(zeroValueOf(schema), live, schema), resetFields);
    recordUpdate(managers, cmp, { manager: BEFORE_FIRST_APPLY, apiVersion: input.apiVersion, subresource: input.subresource }, now);
  }
  const merged = mergeObjects(live, input.config, schema);
  if (merged.errors.length > 0) throw new ApiError(500, 'InternalError', `failed to merge config: ${errorList(merged.errors)}`);

  const applier = { manager: input.manager || 'unknown', operation: 'Apply' as const, apiVersion: input.apiVersion, subresource: input.subresource || undefined };
  const id = managerIdentity(applier);
  const lastSet = managers.get(id)?.fields;
  managers.set(id, { ...applier, time: managers.get(id)?.time, fields: ownableFields(fieldSetOf(input.config, schema), resetFields) });
  const object = prune(merged.value ?? {}, managers, lastSet, schema);

  const cmp = withoutResetFields(compareObjects(live, object, schema), resetFields);
  const changed = cmp.modified.union(cmp.added);
  const conflicting: Array<[ManagedSet, FieldSet]> = [];
  for (const [other, m] of managers) {
    const taken = other === id ? undefined : m.fields.intersection(changed);
    if (taken && !taken.isEmpty()) conflicting.push([m, taken]);
  }
  if (!force && conflicting.length > 0) return { conflicts: conflictsOf(conflicting) };
  for (const [other, m] of managers) {
    const fields = other === id ? m.fields : m.fields.difference(changed).difference(cmp.removed);
    if (fields.isEmpty()) managers.delete(other);
    else managers.set(other, { ...m, fields });
  }
  // Like kube-apiserver, an apply that changes nothing keeps the applier's time.
  const changedObject = !jsonEqual(live, object);
  const self = managers.get(id);
  if (self && changedObject) managers.set(id, { ...self, time: formatTime(now) });

  const result = toKubeObject(dropNullFields(changedObject ? object : live, schema));
  const managedFields = encodeManagedFields(managers);
  if (managedFields.length > 0) result.metadata.managedFields = managedFields;
  else delete result.metadata.managedFields;
  return { object: result, managedFields };
}

/** The object to store (its managedFields set), or the conflicts that stop the apply. Malformed configurations throw an `ApiError`. */
export function applyConfiguration(input: ApplyInput): ApplyResult {
  checkConfiguration(input);
  let managers: Managers;
  try {
    managers = decodeManagedFields(input.live?.metadata.managedFields);
  } catch (err) {
    if (err instanceof InvalidManagedFieldsError) throw new ApiError(500, 'InternalError', `failed to decode managed fields: ${err.message}`);
    throw err;
  }
  let result = applyOnce(input, managers, input.force);
  if (result.conflicts && input.live && input.manager === KUBECTL_MANAGER) {
    const allowed = lastAppliedFields(input.live, input.schema, input.apiVersion);
    if (allowed) {
      const remaining = result.conflicts.filter((c) => !allowed.has(c.path));
      result = remaining.length > 0 ? { conflicts: remaining } : applyOnce(input, managers, true);
    }
  }
  if (result.object && input.manager === KUBECTL_MANAGER) syncLastApplied(result.object, input.config);
  return result;
}
