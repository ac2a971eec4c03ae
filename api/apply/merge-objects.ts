/**
 * Merges an applied configuration into the live object by the schema (smd's `TypedValue.Merge`):
 * struct fields and granular map entries merge one by one; map-type lists merge item by item by
 * key and set lists by value, keeping the live order and placing new items as the configuration
 * orders them; scalars, atomic lists and atomic maps take the configuration's value whole.
 * Nothing is removed here: removing fields a manager stopped applying is pruning (`apply.ts`).
 *
 * `dropNullFields` then does what kube-apiserver's round trip through Go types does to a merged
 * object: a null field (an explicit `creationTimestamp: null`, a list emptied by pruning) is unset.
 *
 * @example
 *   mergeObjects(
 *     { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } },
 *     { spec: { containers: [{ name: 'b', image: 'z' }] } },
 *     podSchema,
 *   ).value; // → { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'z' }] } }
 */
import { isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import { pathElementString, pathToString, serializePathElement, type PathElement } from './path-element.js';
import { atomOf, entryType, listItemElement, shapeOf, type ListAtom, type MapAtom, type Shape, type TypeRef } from './schema-type.js';

export interface Merged {
  value: JsonValue | undefined;
  /** Why the merge failed: list items without a key, or repeated in the configuration. */
  errors: string[];
}

export function mergeObjects(live: JsonValue | undefined, config: JsonValue | undefined, type: TypeRef): Merged {
  const errors: string[] = [];
  const value = mergeNode(live, config, type, [], errors);
  return { value, errors };
}

function mergeNode(lhs: JsonValue | undefined, rhs: JsonValue | undefined, type: TypeRef, path: PathElement[], errors: string[]): JsonValue | undefined {
  const atom = atomOf(type);
  const left = shapeOf(atom, lhs);
  // Where the configuration changes a value's shape (deduced parts only), its shape wins.
  return mergeShape(rhs === undefined ? left : shapeOf(atom, rhs), lhs, rhs, path, errors);
}

function mergeShape(shape: Shape, lhs: JsonValue | undefined, rhs: JsonValue | undefined, path: PathElement[], errors: string[]): JsonValue | undefined {
  const keepRhs = (): JsonValue | undefined => structuredClone(rhs !== undefined ? rhs : lhs);
  if (shape.kind === 'scalar') return keepRhs();
  if (shape.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    if (shape.list.atomic || (!l?.length && !r?.length)) return keepRhs();
    return mergeListItems(shape.list, l ?? [], r ?? [], path, errors);
  }
  const l = isJsonObject(lhs) ? lhs : undefined;
  const r = isJsonObject(rhs) ? rhs : undefined;
  if (shape.map.atomic || ((!l || Object.keys(l).length === 0) && (!r || Object.keys(r).length === 0))) return keepRhs();
  return mergeMapEntries(shape.map, l ?? {}, r ?? {}, path, errors);
}

function mergeMapEntries(map: MapAtom, lhs: JsonObject, rhs: JsonObject, path: PathElement[], errors: string[]): JsonObject | undefined {
  const out: JsonObject = {};
  for (const name of new Set([...Object.keys(lhs), ...Object.keys(rhs)])) {
    const v = mergeNode(lhs[name], rhs[name], entryType(map, name), [...path, { field: name }], errors);
    if (v !== undefined) out[name] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

interface Indexed {
  /** Each item's element, in list order (repeats included). */
  pes: PathElement[];
  /** The item per element; null for an element that repeats, which is never merged. */
  byId: Map<string, JsonValue>;
}

function indexItems(list: ListAtom, items: JsonValue[], allowDuplicates: boolean, path: PathElement[], errors: string[]): Indexed {
  const pes: PathElement[] = [];
  const byId = new Map<string, JsonValue>();
  items.forEach((item, i) => {
    const pe = listItemElement(list, item);
    if (typeof pe === 'string') {
      errors.push(`${pathToString(path)}: element ${i}: ${pe}`);
      return;
    }
    const id = serializePathElement(pe);
    if (byId.has(id) && !allowDuplicates) {
      errors.push(`${pathToString(path)}: duplicate entries for key ${pathElementString(pe)}`);
      return;
    }
    byId.set(id, byId.has(id) ? null : item);
    pes.push(pe);
  });
  return { pes, byId };
}

/**
 * smd's list merge: walks both lists, emitting live items the configuration lacks where they
 * stand, and shared and new items in the configuration's order.
 */
function mergeListItems(list: ListAtom, lhs: JsonValue[], rhs: JsonValue[], path: PathElement[], errors: string[]): JsonValue[] | undefined {
  const before = errors.length;
  const r = indexItems(list, rhs, false, path, errors);
  const l = indexItems(list, lhs, true, path, errors);
  if (errors.length > before) return undefined;
  const idOf = serializePathElement;
  const shared = r.pes.map(idOf).filter((id) => l.byId.has(id));
  let nextShared = shared.shift();
  const mergedRhs = new Set<string>();
  const out: JsonValue[] = [];
  const emit = (pe: PathElement, lChild: JsonValue | undefined, rChild: JsonValue | undefined): void => {
    const v = mergeNode(lChild, rChild, list.items, [...path, pe], errors);
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < l.pes.length || ri < r.pes.length) {
    if (li < l.pes.length && ri < r.pes.length) {
      const id = idOf(l.pes[li] as PathElement);
      if (id === idOf(r.pes[ri] as PathElement)) {
        mergedRhs.add(id);
        emit(l.pes[li] as PathElement, l.byId.get(id), r.byId.get(id));
        li += 1;
        ri += 1;
        nextShared = shared.shift();
        continue;
      }
      if (r.byId.has(id) && nextShared !== undefined && nextShared !== id) {
        // A shared item, but not the next one the configuration wants: it comes later.
        li += 1;
        continue;
      }
    }
    if (li < l.pes.length) {
      const pe = l.pes[li] as PathElement;
      const id = idOf(pe);
      if (!r.byId.has(id)) {
        emit(pe, lhs[li], undefined);
        li += 1;
        continue;
      }
      if (mergedRhs.has(id)) li += 1;
    }
    if (ri < r.pes.length) {
      const pe = r.pes[ri] as PathElement;
      const id = idOf(pe);
      mergedRhs.add(id);
      emit(pe, l.byId.get(id), r.byId.get(id));
      ri += 1;
      if (nextShared === id) nextShared = shared.shift();
    }
  }
  return out.length > 0 ? out : undefined;
}

/** Unsets null fields of typed structs and maps (deduced, free-form parts keep their nulls, as unstructured objects do). */
export function dropNullFields(value: JsonValue, type: TypeRef): JsonValue {
  const shape = shapeOf(atomOf(type), value);
  if (shape.kind === 'list' && Array.isArray(value)) return value.map((item) => dropNullFields(item, shape.list.items));
  if (shape.kind !== 'map' || !isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [name, v] of Object.entries(value)) {
    const t = entryType(shape.map, name);
    if (v === null && typeof t === 'object') continue;
    out[name] = dropNullFields(v, t);
  }
  return out;
}
