/**
 * managedFields after a create, update or non-apply patch, as kube-apiserver computes them:
 * - every field whose value the write added or changed becomes the writer's, and no one else's;
 * - every field the write removed is no one's;
 * - the writer's Update entry (one per name, API version and subresource) gains those fields,
 *   and its `time` becomes now, only when it took some; entries left empty disappear;
 * - a create is compared against the kind's zero value (`zeroValueOf`), so the creator owns all
 *   it set, and the maps, structs and list items it created (`".": {}`);
 * - an object that has no managedFields is not tracked by updates (only an apply starts it
 *   again), which is how `managedFields: []` in a request turns tracking off;
 * - fields the strategy resets for this write, and server-set metadata, are nobody's.
 *
 * @example
 *   const managedFields = computeUpdateManagedFields({
 *     schema: deployments.schema, resetFields: statusResetFields(), old, obj,
 *     manager: 'kubectl-edit', apiVersion: 'apps/v1', now: new Date(),
 *   });
 *   // store `obj` with metadata.managedFields = managedFields (omitted when empty)
 */
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import type { Schema } from '../schema/schema.js';
import { capUpdateManagers } from './cap-update-managers.js';
import { compareObjects, type Comparison } from './compare-objects.js';
import type { FieldSet } from './field-set.js';
import type { JsonObject, JsonValue } from './json-value.js';
import { createdFieldsByShape } from './created-fields.js';
import { decodeManagedFields, encodeManagedFields, encodeManagedSet, formatTime, managedFieldsFromRequest, managerIdentity, type ManagedSet, type Managers } from './managed-fields.js';
import { ownableFields } from './object-fields.js';
import { zeroValueOf } from './schema-type.js';

export interface UpdateManagedFieldsInput {
  /** The kind's schema. */
  schema: Schema;
  /** Fields the kind's strategy resets for this write (see `reset-fields.ts`). */
  resetFields: FieldSet;
  /** The stored object; undefined for a create. */
  old: KubeObject | undefined;
  /** The object about to be stored, with the managedFields the request carried. */
  obj: KubeObject;
  manager: string;
  /** The API version the write went through (`apps/v1`). */
  apiVersion: string;
  subresource?: string;
  now: Date;
}

/** An object's content without its managedFields, which are never compared. */
export function withoutManagedFields(obj: KubeObject): JsonObject {
  const { managedFields: _ignored, ...metadata } = obj.metadata;
  return { ...(obj as JsonObject), metadata: metadata as JsonObject };
}

/** A comparison without the fields the strategy resets (they are nobody's). */
export function withoutResetFields(cmp: Comparison, resetFields: FieldSet): Comparison {
  return {
    added: cmp.added.recursiveDifference(resetFields),
    modified: cmp.modified.recursiveDifference(resetFields),
    removed: cmp.removed.recursiveDifference(resetFields),
    errors: cmp.errors,
  };
}

export interface UpdateWriter {
  manager: string;
  apiVersion: string;
  subresource?: string;
}

/** Applies one Update's comparison to the managers, in place. */
export function recordUpdate(managers: Managers, cmp: Comparison, writer: UpdateWriter, now: Date): void {
  const changed = cmp.modified.union(cmp.added);
  for (const [id, m] of managers) {
    const fields = m.fields.difference(changed).difference(cmp.removed);
    if (fields.isEmpty()) managers.delete(id);
    else managers.set(id, { ...m, fields });
  }
  // The comparison is already without reset fields.
  const taken = ownableFields(changed);
  if (!taken.isEmpty()) {
    const entry = updateEntry(writer, now);
    const id = managerIdentity(entry);
    const previous = managers.get(id)?.fields;
    managers.set(id, { ...entry, fields: previous ? taken.union(previous) : taken });
  }
  capUpdateManagers(managers);
}

/** The writer's Update entry, without its fields. */
function updateEntry(writer: UpdateWriter, now: Date): Omit<ManagedSet, 'fields'> {
  return { manager: writer.manager || 'unknown', operation: 'Update', apiVersion: writer.apiVersion, subresource: writer.subresource || undefined, time: formatTime(now) };
}

/** The managedFields to store with `input.obj`; empty means none (omit the field). */
export function computeUpdateManagedFields(input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  const { schema, resetFields, old, obj } = input;
  const managers = decodeManagedFields(managedFieldsFromRequest(obj, old, input.subresource));
  if (managers.size === 0) return old === undefined ? createdManagedFields(input) : [];
  return updatedManagedFields(managers, old ? withoutManagedFields(old) : zeroValueOf(schema), withoutManagedFields(obj), input);
}

/** `managers` after the write from `before` to `after`, encoded. */
function updatedManagedFields(managers: Managers, before: JsonValue, after: JsonValue, input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  const cmp = withoutResetFields(compareObjects(before, after, input.schema), input.resetFields);
  // An object whose lists cannot be compared keeps its stored entries, as kube-apiserver does.
  if (cmp.errors.length > 0) return input.old?.metadata.managedFields ?? [];
  recordUpdate(managers, cmp, input, input.now);
  return encodeManagedFields(managers);
}

/** A create that carries no managedFields: the creator's entry, its fields remembered by the object's shape (created-fields.ts). */
function createdManagedFields(input: UpdateManagedFieldsInput): ManagedFieldsEntry[] {
  const content = withoutManagedFields(input.obj);
  const fieldsV1 = createdFieldsByShape(input.schema, input.resetFields, content, () => {
    const [entry] = updatedManagedFields(new Map(), zeroValueOf(input.schema), content, input);
    return entry ? JSON.stringify(entry.fieldsV1) : '';
  });
  if (fieldsV1 === '') return [];
  // Parsed for each object: the entries are the object's own, and may be changed with it.
  return [encodeManagedSet(updateEntry(input, input.now), JSON.parse(fieldsV1) as ManagedFieldsEntry['fieldsV1'])];
}
