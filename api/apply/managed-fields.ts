/**
 * `metadata.managedFields` decoded into field sets and encoded back as kube-apiserver writes it.
 * A manager is identified as Kubernetes identifies it: by name, operation and subresource, plus
 * the API version for Update entries (an applier keeps one entry whatever version it applies
 * through). Encoded entries are sorted by operation (Apply first), time, manager, API version,
 * subresource, with FieldsV1 in smd's key order.
 *
 * `managedFieldsFromRequest` decides which entries an Update starts from, as Kubernetes does:
 * the request's own when it sends a valid non-empty list (clients may rewrite them, which is how
 * kubectl migrates client-side-apply ownership to server-side apply), none when it sends `[]` (or
 * `[{}]`) to reset them, otherwise the stored object's.
 *
 * @example
 *   const managers = decodeManagedFields(obj.metadata.managedFields);
 *   encodeManagedFields(managers); // → [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time, fieldsType: 'FieldsV1', fieldsV1 }]
 */
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import { FieldSet } from './field-set.js';
import { compareStrings, goJsonString, isJsonObject } from './json-value.js';

export type Operation = 'Apply' | 'Update';

/** One manager's entry with its fields as a set. */
export interface ManagedSet {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource: string | undefined;
  /** RFC 3339, to the second; absent when the manager never changed anything. */
  time: string | undefined;
  fields: FieldSet;
}

/** Entries by manager identity. */
export type Managers = Map<string, ManagedSet>;

export class InvalidManagedFieldsError extends Error {
  override readonly name = 'InvalidManagedFieldsError';
}

/** Kubernetes' manager identifier: the entry's JSON without time and fields, and without the API version for appliers. */
export function managerIdentity(m: Pick<ManagedSet, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let id = '{';
  if (m.manager) id += `"manager":${goJsonString(m.manager)},`;
  id += `"operation":"${m.operation}"`;
  if (m.operation === 'Update' && m.apiVersion) id += `,"apiVersion":${goJsonString(m.apiVersion)}`;
  if (m.subresource) id += `,"subresource":${goJsonString(m.subresource)}`;
  return id + '}';
}

/** RFC 3339 in UTC to the second, as `metav1.Time` is written. */
export function formatTime(t: Date): string {
  return t.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Seconds since the epoch of an entry's time; 0 when it has none, as Kubernetes counts a missing time. */
export function timeSeconds(time: string | undefined): number {
  const ms = time === undefined ? NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

const optionalString = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** Decodes entries; throws `InvalidManagedFieldsError` for an entry Kubernetes cannot decode. A later entry replaces an earlier one with the same identity. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): Managers {
  const managers: Managers = new Map();
  (entries ?? []).forEach((entry, i) => {
    // Entries come from request bodies too, so every field is checked, not trusted.
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new InvalidManagedFieldsError(`managed fields entry ${i} is not an object`);
    if (entry.operation !== 'Apply' && entry.operation !== 'Update') throw new InvalidManagedFieldsError('operation must be `Apply` or `Update`');
    if (typeof entry.apiVersion !== 'string' || !entry.apiVersion) throw new InvalidManagedFieldsError('apiVersion must not be empty');
    if (!entry.fieldsType) throw new InvalidManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1') throw new InvalidManagedFieldsError(`invalid fieldsType ${JSON.stringify(entry.fieldsType)} in managed fields entry ${i}`);
    if (!optionalString(entry.manager) || !optionalString(entry.subresource) || !optionalString(entry.time)) throw new InvalidManagedFieldsError(`malformed managed fields entry ${i}`);
    let fields: FieldSet;
    try {
      fields = FieldSet.fromFieldsV1(entry.fieldsV1 ?? {});
    } catch (err) {
      throw new InvalidManagedFieldsError(`error decoding versioned set from entry ${i}: ${(err as Error).message}`);
    }
    const time = entry.time === undefined || Number.isNaN(Date.parse(entry.time)) ? undefined : formatTime(new Date(entry.time));
    const set: ManagedSet = { manager: entry.manager ?? '', operation: entry.operation, apiVersion: entry.apiVersion, subresource: entry.subresource || undefined, time, fields };
    managers.set(managerIdentity(set), set);
  });
  return managers;
}

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    compareStrings(p.operation ?? '', q.operation ?? '') ||
    Math.sign(timeSeconds(p.time) - timeSeconds(q.time)) ||
    compareStrings(p.manager ?? '', q.manager ?? '') ||
    compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
    compareStrings(p.subresource ?? '', q.subresource ?? '')
  );
}

/** The entries to store, sorted as Kubernetes sorts them; empty when no manager is left (the field is then omitted). */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  return [...managers.values()].map((m) => encodeManagedSet(m, m.fields.toFieldsV1())).sort(compareEntries);
}

/** One entry as stored, its keys in the order kube-apiserver writes them. */
export function encodeManagedSet(m: Omit<ManagedSet, 'fields'>, fieldsV1: ManagedFieldsEntry['fieldsV1']): ManagedFieldsEntry {
  const entry: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
  if (m.time !== undefined) entry.time = m.time;
  entry.fieldsType = 'FieldsV1';
  entry.fieldsV1 = fieldsV1;
  if (m.subresource) entry.subresource = m.subresource;
  return entry;
}

/** Whether a request asks to reset managedFields: an empty list, or a list of one empty entry. */
function isReset(entries: readonly ManagedFieldsEntry[] | null | undefined): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  const [only] = entries;
  return entries.length === 1 && isJsonObject(only) && Object.values(only).every((v) => v === undefined || v === null || v === '');
}

function validOrNone(entries: readonly ManagedFieldsEntry[] | null | undefined): ManagedFieldsEntry[] {
  try {
    decodeManagedFields(entries);
    return [...(entries ?? [])];
  } catch (err) {
    if (err instanceof InvalidManagedFieldsError) return [];
    throw err;
  }
}

/**
 * The entries an Update of `oldObj` into `newObj` starts from. Writes to a subresource never
 * set managedFields, so they start from the stored object's.
 */
export function managedFieldsFromRequest(newObj: KubeObject, oldObj: KubeObject | undefined, subresource?: string): ManagedFieldsEntry[] {
  const stored = oldObj?.metadata.managedFields;
  if (subresource) return validOrNone(stored);
  const requested = newObj.metadata.managedFields;
  if (isReset(requested)) return [];
  const valid = validOrNone(requested);
  return valid.length > 0 ? valid : validOrNone(stored);
}
