/**
 * Which fields changed between two versions of an object (smd's `TypedValue.Compare`): leaves
 * (scalars, atomic lists and maps, empty lists and maps) are added, removed or modified; a list
 * item, map entry or struct that appears or disappears is itself added or removed too, which is
 * why an Update entry owns `metadata.labels` (`".": {}`) when it created the labels.
 * Items whose key repeats are compared as one atomic group.
 *
 * @example
 *   const { added, modified } = compareObjects({ spec: { replicas: 1 } }, { spec: { replicas: 2, paused: true } }, deploymentSchema);
 *   // modified: .spec.replicas; added: .spec.paused
 */
import { FieldSet } from './field-set.js';
import { isJsonObject, jsonEqual, type JsonValue } from './json-value.js';
import { pathToString, serializePathElement, type PathElement } from './path-element.js';
import { atomOf, entryType, listItemElement, shapeOf, type ListAtom, type MapAtom, type Shape, type TypeRef } from './schema-type.js';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
  /** List items that could not be identified (a missing key, a null item); they are left out of the comparison. */
  errors: string[];
}

/** Compares two values of a type; `undefined` on either side means the value is absent (a create or a delete). */
export function compareObjects(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: TypeRef): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet(), errors: [] };
  compareNode(lhs, rhs, type, [], out);
  return out;
}

function compareNode(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: TypeRef, path: PathElement[], out: Comparison): void {
  const atom = atomOf(type);
  const left = shapeOf(atom, lhs);
  const right = shapeOf(atom, rhs);
  let inLeaf: boolean;
  if (rhs === undefined) inLeaf = compareShape(left, lhs, rhs, path, out);
  else if (lhs === undefined || left.kind === right.kind) inLeaf = compareShape(right, lhs, rhs, path, out);
  else {
    // A value that changed shape (possible in deduced parts) is walked as each shape in turn, as smd does.
    compareShape(left, lhs, rhs, path, out);
    inLeaf = compareShape(right, lhs, rhs, path, out);
  }
  if (inLeaf) return;
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
}

/** Walks one shape; returns whether the node was compared as a leaf. */
function compareShape(shape: Shape, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: PathElement[], out: Comparison): boolean {
  const leaf = (): true => {
    if (lhs === undefined) out.added.insert(path);
    else if (rhs === undefined) out.removed.insert(path);
    else if (!jsonEqual(lhs, rhs)) out.modified.insert(path);
    return true;
  };
  if (shape.kind === 'scalar') return leaf();
  if (shape.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    // Both empty or null: a leaf, so `[]` and null stay distinct.
    if (shape.list.atomic || (!l?.length && !r?.length)) return leaf();
    compareListItems(shape.list, l ?? [], r ?? [], path, out);
    return false;
  }
  const l = isJsonObject(lhs) ? lhs : undefined;
  const r = isJsonObject(rhs) ? rhs : undefined;
  if (shape.map.atomic || ((!l || Object.keys(l).length === 0) && (!r || Object.keys(r).length === 0))) return leaf();
  compareMapEntries(shape.map, l ?? {}, r ?? {}, path, out);
  return false;
}

function compareMapEntries(map: MapAtom, lhs: Record<string, JsonValue>, rhs: Record<string, JsonValue>, path: PathElement[], out: Comparison): void {
  for (const name of new Set([...Object.keys(lhs), ...Object.keys(rhs)])) {
    compareNode(lhs[name], rhs[name], entryType(map, name), [...path, { field: name }], out);
  }
}

interface Items {
  pe: PathElement;
  values: JsonValue[];
}

/** Groups a list's items by element, in first-seen order. */
function groupItems(list: ListAtom, items: JsonValue[], path: PathElement[], errors: string[]): Map<string, Items> {
  const groups = new Map<string, Items>();
  items.forEach((item, i) => {
    const pe = listItemElement(list, item);
    if (typeof pe === 'string') {
      errors.push(`${pathToString(path)}: element ${i}: ${pe}`);
      return;
    }
    const id = serializePathElement(pe);
    const group = groups.get(id);
    if (group) group.values.push(item);
    else groups.set(id, { pe, values: [item] });
  });
  return groups;
}

function compareListItems(list: ListAtom, lhs: JsonValue[], rhs: JsonValue[], path: PathElement[], out: Comparison): void {
  const left = groupItems(list, lhs, path, out.errors);
  const right = groupItems(list, rhs, path, out.errors);
  for (const id of new Set([...left.keys(), ...right.keys()])) {
    const pe = (left.get(id) ?? right.get(id))?.pe as PathElement;
    const l = left.get(id)?.values ?? [];
    const r = right.get(id)?.values ?? [];
    const itemPath = [...path, pe];
    if (l.length <= 1 && r.length <= 1) compareNode(l[0], r[0], list.items, itemPath, out);
    else if (l.length >= 2 && r.length >= 2) {
      if (!jsonEqual(l, r)) out.modified.insert(itemPath);
    } else if (l.length >= 2) {
      // Duplicates that are gone: the group is removed, the remaining item added.
      if (r.length > 0) compareNode(undefined, r[0], list.items, itemPath, out);
      out.removed.insert(itemPath);
    } else {
      if (l.length > 0) compareNode(l[0], undefined, list.items, itemPath, out);
      out.added.insert(itemPath);
    }
  }
}
