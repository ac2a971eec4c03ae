/**
 * The set of fields an object, or an applied configuration, specifies (smd's `ToFieldSet`):
 * every scalar and atomic list or map is a leaf; each item of a map-type or set list is a member
 * (`k:{...}` / `v:...`) with its fields below it; a granular map's keys are members; a struct
 * field is a member only when it holds nothing (`{}` or null), as `resources: {}` does.
 *
 * `ownableFields` then takes away what no manager may own: the type and identity of the object,
 * server-set metadata, and the fields the kind's strategy resets for this write (`status` on the
 * main resource of a kind with a status subresource; everything but `status` on `/status`).
 *
 * @example
 *   const set = fieldSetOf(deployment, deploymentSchema);
 *   ownableFields(set, statusResetFields()).toFieldsV1();
 *   // → { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {}, ... } }
 */
import { FieldSet } from './field-set.js';
import type { JsonValue } from './json-value.js';
import { serializePathElement, type FieldPath, type PathElement } from './path-element.js';
import { atomOf, entryType, listItemElement, shapeOf, type ListAtom, type TypeRef } from './schema-type.js';

export function fieldSetOf(value: JsonValue, type: TypeRef): FieldSet {
  const set = new FieldSet();
  collect(value, type, [], set);
  return set;
}

function collect(value: JsonValue, type: TypeRef, path: PathElement[], set: FieldSet): void {
  const shape = shapeOf(atomOf(type), value);
  if (shape.kind === 'scalar') {
    set.insert(path);
    return;
  }
  if (shape.kind === 'list') {
    if (shape.list.atomic) set.insert(path);
    else if (Array.isArray(value)) collectListItems(value, shape.list, path, set);
    return;
  }
  if (shape.map.atomic) {
    set.insert(path);
    return;
  }
  if (value === null || Array.isArray(value) || typeof value !== 'object') return;
  for (const [name, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const childPath = [...path, { field: name }];
    collect(child, entryType(shape.map, name), childPath, set);
    const empty = child === null || (typeof child === 'object' && !Array.isArray(child) && Object.keys(child).length === 0);
    if (empty || !shape.map.fields.has(name)) set.insert(childPath);
  }
}

/** Items of an associative list; an item whose element repeats is owned whole, as a duplicate. */
function collectListItems(items: JsonValue[], list: ListAtom, path: PathElement[], set: FieldSet): void {
  const elements = items.map((item) => listItemElement(list, item));
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const pe of elements) {
    if (typeof pe === 'string') continue;
    const id = serializePathElement(pe);
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  elements.forEach((pe, i) => {
    if (typeof pe === 'string') return;
    const itemPath = [...path, pe];
    set.insert(itemPath);
    if (!duplicates.has(serializePathElement(pe))) collect(items[i] as JsonValue, list.items, itemPath, set);
  });
}

/**
 * Adds, as members, the struct fields a set only passes through (`spec` when it holds
 * `spec.replicas`), but not map keys. Pruning compares sets in this form so that a struct a
 * manager stops mentioning can be removed while a map entry someone else owns is kept.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, type: TypeRef): FieldSet {
  const atom = atomOf(type);
  const members = set.memberElements();
  const children = set.childSets().map(([pe, child]): readonly [PathElement, FieldSet] => {
    let childType: TypeRef = 'untyped';
    if ('field' in pe && atom.map) {
      childType = entryType(atom.map, pe.field);
      if (atom.map.fields.has(pe.field)) members.push(pe);
    } else if ('key' in pe && atom.list) childType = atom.list.items;
    return [pe, ensureNamedFieldsAreMembers(child, childType)];
  });
  return FieldSet.node(members, children);
}

const field = (...names: string[]): FieldPath => names.map((name) => ({ field: name }));

/** What no manager owns: type, identity and server-set metadata (kube-apiserver's strip set, plus our `tenant`). */
const UNOWNABLE = FieldSet.of([
  field('apiVersion'),
  field('kind'),
  field('metadata'),
  ...['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink', 'tenant'].map((name) => field('metadata', name)),
]);

/** The part of a set a manager may own: without the strategy's reset fields (and all below them) and without unownable metadata. */
export function ownableFields(set: FieldSet, resetFields?: FieldSet): FieldSet {
  return (resetFields ? set.recursiveDifference(resetFields) : set).difference(UNOWNABLE);
}
