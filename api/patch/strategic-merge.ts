/**
 * Strategic merge patch: kubectl's default patch type, and what `kubectl apply`, `edit`, `set`
 * and `rollout` send. The kind's schema drives it: each field's `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key` decide whether a list is merged item by item or replaced. The
 * behaviour is Kubernetes' (the SMP design docs and apimachinery's `strategicpatch` test cases);
 * the code is ours.
 *
 * - Maps merge recursively; `null` deletes a key. `{"$patch": "replace"}` in a map makes it
 *   literal, `{"$patch": "delete"}` empties it. `$retainKeys: [...]` clears the keys it does not list.
 * - Lists with strategy `merge` and a merge key merge their items by key; an item
 *   `{"$patch": "delete", <key>: v}` removes every item with that key, an item
 *   `{"$patch": "replace"}` makes the rest of the list literal.
 * - Lists of scalars with strategy `merge` are sets (union, no duplicates);
 *   `$deleteFromPrimitiveList/<list>: [...]` removes values.
 * - `$setElementOrder/<list>: [...]` orders a list; otherwise items named in the patch follow the
 *   patch's order and the live list's other items keep theirs.
 * - Every other list is replaced, and fields the schema does not describe merge like JSON merge
 *   patch (maps merge, lists are replaced), as Kubernetes treats unstructured data.
 * Directives never reach the result.
 *
 * @example
 *   applyStrategicMergePatch(deployment, { spec: { template: { spec: {
 *     '$setElementOrder/containers': [{ name: 'web' }, { name: 'log' }],
 *     containers: [{ name: 'log', image: 'busybox' }],
 *   } } } }, deployments.schema);
 *   // → containers: web (as it was), then log (added)
 */
import { badRequest } from '../registry/api-errors.js';
import type { KubeObject } from '../registry/object.js';
import { refName, resolve, type Schema } from '../schema/schema.js';
import { checkObject } from '../schema/check-object.js';
import { goJsonValueName } from '../schema/json-syntax.js';
import { ApiError } from '../status.js';

type Json = null | boolean | number | string | Json[] | JsonObject;
interface JsonObject {
  [key: string]: Json;
}

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ELEMENT_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';

/** What the schema says about one field. */
interface FieldMeta {
  /** The field's schema with `$ref`s followed; undefined where the schema does not describe it. */
  schema: Schema | undefined;
  strategy: 'merge' | 'replace' | undefined;
  mergeKey: string | undefined;
}

/**
 * Whether a kind's schema can drive a strategic merge patch. Kubernetes answers 415 to strategic
 * patches of custom resources, whose schemas carry no patch strategies: their schemas are inline
 * (built-in kinds have named ones) or free-form (no properties, or
 * `x-kubernetes-preserve-unknown-fields` at the root).
 */
export function supportsStrategicMerge(schema: Schema): boolean {
  if (refName(schema) === undefined) return false;
  const root = resolve(schema);
  return root?.properties !== undefined && root['x-kubernetes-preserve-unknown-fields'] !== true;
}

/** Applies a strategic merge patch to `current` (left unchanged) and returns the patched object. */
export function applyStrategicMergePatch(current: KubeObject, patch: unknown, schema: Schema): KubeObject {
  // A JSON `null` patch decodes to no patch at all, as in Go.
  if (patch === null) return current;
  if (!isObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${goJsonValueName(patch)} into Go value of type map[string]interface {}`);
  }
  const result = mergeMap(current as unknown as JsonObject, patch, schema);
  const mismatch = checkObject(result, schema).typeMismatch;
  if (mismatch) throw unrestorable(patch, mismatch.value, mismatch.expected);
  return result as unknown as KubeObject;
}

/**
 * kube-apiserver turns the merged map into the typed object with the unstructured converter; a
 * value of the wrong type fails there (`cannot restore map from string`), reported as an invalid
 * `patch` of no kind whose value is the patch as Go prints it.
 */
function unrestorable(patch: JsonObject, value: unknown, expected: Schema): ApiError {
  const found = Array.isArray(value) ? 'slice' : isObject(value) ? 'map' : typeof value === 'number' ? (Number.isInteger(value) ? 'int64' : 'float64') : typeof value === 'boolean' ? 'bool' : 'string';
  const target = expected.type === 'array' ? 'slice' : expected.type === 'object' ? (expected.additionalProperties && typeof expected.additionalProperties === 'object' ? 'map' : 'struct') : undefined;
  const why = target === 'struct' ? `cannot restore struct from: ${found}` : target ? `cannot restore ${target} from ${found}` : `cannot convert ${found} to ${expected.type === 'integer' ? 'int64' : expected.type === 'number' ? 'float64' : expected.type === 'boolean' ? 'bool' : 'string'}`;
  const message = `Invalid value: ${JSON.stringify(goFormat(patch))}: ${why}`;
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${message}`, { name: '', group: '', kind: '', causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] });
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fieldMeta(parent: Schema | undefined, key: string): FieldMeta {
  const owner = resolve(parent);
  const values = owner?.additionalProperties;
  const declared = owner?.properties?.[key] ?? (typeof values === 'object' ? values : undefined);
  const schema = resolve(declared);
  // Kubernetes puts the extensions on the field (beside an `allOf` wrapper), not on the named type.
  const strategies = (declared?.['x-kubernetes-patch-strategy'] ?? schema?.['x-kubernetes-patch-strategy'] ?? '').split(',');
  return {
    schema,
    strategy: strategies.includes('merge') ? 'merge' : strategies.includes('replace') ? 'replace' : undefined,
    mergeKey: declared?.['x-kubernetes-patch-merge-key'] ?? schema?.['x-kubernetes-patch-merge-key'],
  };
}

function itemSchema(meta: FieldMeta): Schema | undefined {
  return resolve(meta.schema?.items);
}

// ---- maps --------------------------------------------------------------------------------------

function mergeMap(original: JsonObject, patch: JsonObject, schema: Schema | undefined): JsonObject {
  const directive = patch[PATCH];
  if (directive !== undefined) {
    if (directive === 'delete') return {};
    if (directive !== 'replace') throw badPatchType(directive, patch);
    const { [PATCH]: _replace, ...replacement } = patch;
    return mergeMap({}, replacement, schema);
  }
  const result = { ...original };
  const pending = { ...patch };
  retainKeys(result, pending);
  setElementOrders(result, pending, schema);
  const deletions: Array<[string, Json]> = [];
  for (const [key, value] of Object.entries(pending)) {
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) deletions.push([key.slice(DELETE_FROM_PRIMITIVE_LIST.length), value]);
    else mergeField(result, key, value, fieldMeta(schema, key));
  }
  for (const [name, values] of deletions) deleteFromPrimitiveList(result, name, values);
  return result;
}

function mergeField(result: JsonObject, key: string, value: Json, meta: FieldMeta): void {
  if (value === null) {
    delete result[key];
    return;
  }
  const live = result[key];
  if (isObject(live) && isObject(value)) {
    result[key] = meta.strategy === 'replace' ? mergeMap({}, value, meta.schema) : mergeMap(live, value, meta.schema);
  } else if (Array.isArray(live) && Array.isArray(value)) {
    result[key] = mergeListField(live, value, meta, key);
  } else if (isObject(value) || Array.isArray(value)) {
    // Nothing of the same shape to merge into: the patch's value, without its directives.
    const fresh = literal(value, meta);
    if (fresh === undefined) delete result[key];
    else result[key] = fresh;
  } else {
    result[key] = value;
  }
}

/** A patch value stored where nothing is merged into it; undefined when it deletes itself. */
function literal(value: JsonObject | Json[], meta: FieldMeta): Json | undefined {
  if (Array.isArray(value)) return literalList(value, meta);
  return value[PATCH] === 'delete' ? undefined : mergeMap({}, value, meta.schema);
}

/** A list taken as the patch gives it, less directive items (and nested directives). */
function literalList(patch: Json[], meta: FieldMeta): Json[] {
  const items = itemSchema(meta);
  return patch.filter((item) => !(isObject(item) && PATCH in item)).map((item) => (isObject(item) ? mergeMap({}, item, items) : item));
}

/** `$retainKeys`: the map keeps only the listed keys, and the patch may set no others. */
function retainKeys(result: JsonObject, pending: JsonObject): void {
  if (!(RETAIN_KEYS in pending)) return;
  const keep = pending[RETAIN_KEYS];
  delete pending[RETAIN_KEYS];
  if (!Array.isArray(keep)) throw badRequest('invalid patch format of retainKeys');
  for (const [key, value] of Object.entries(pending)) {
    if (value === null || key.startsWith(SET_ELEMENT_ORDER) || key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    if (!keep.includes(key)) throw badRequest('invalid patch format of retainKeys');
  }
  for (const key of Object.keys(result)) if (!keep.includes(key)) delete result[key];
}

/**
 * `$setElementOrder/<list>`: merges the list's patch (if any) and orders the result. The order
 * must agree with the patch list's own order; items it names that exist nowhere are ignored.
 */
function setElementOrders(result: JsonObject, pending: JsonObject, schema: Schema | undefined): void {
  for (const key of Object.keys(pending)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = pending[key];
    const name = key.slice(SET_ELEMENT_ORDER.length);
    const patchList = pending[name];
    delete pending[key];
    delete pending[name];
    if (!Array.isArray(order) || name === '' || (patchList !== undefined && !Array.isArray(patchList))) {
      throw badRequest('invalid patch format of setElementOrder list');
    }
    const live = result[name];
    const liveList = Array.isArray(live) ? live : undefined;
    if (liveList === undefined && patchList === undefined) continue;
    const meta = fieldMeta(schema, name);
    const mergeKey = elementKind(order, liveList ?? [], patchList ?? []) === 'map' ? meta.mergeKey : undefined;
    checkOrderAgrees(patchList ?? [], order, mergeKey);
    const merged = patchList === undefined ? liveList! : mergeListField(liveList ?? [], patchList, meta, name);
    result[name] = orderList(merged, order, liveList ?? [], mergeKey);
  }
}

// ---- lists -------------------------------------------------------------------------------------

/** A list field: merged when its strategy says so, otherwise replaced by the patch's list. */
function mergeListField(live: Json[], patch: Json[], meta: FieldMeta, name: string): Json[] {
  return meta.strategy === 'merge' ? mergeList(live, patch, meta, name) : literalList(patch, meta);
}

function mergeList(live: Json[], patch: Json[], meta: FieldMeta, name: string): Json[] {
  const kind = elementKind(live, patch);
  if (kind === undefined) return [];
  if (kind === 'scalar') return orderList(unique([...live, ...patch]), patch, live, undefined);

  const key = meta.mergeKey;
  if (key === undefined) throw invalidPatch(`cannot merge lists without merge key for ${name}`);
  const items = itemSchema(meta);
  let base = live as JsonObject[];
  const changes: JsonObject[] = [];
  let replace = false;
  for (const item of patch as JsonObject[]) {
    const directive = item[PATCH];
    if (directive === undefined) changes.push(item);
    else if (directive === 'delete') {
      const value = mergeKeyOf(item, key);
      base = base.filter((existing) => existing[key] !== value);
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw badRequest('merging lists cannot yet be specified in the patch');
    else throw badPatchType(directive, item);
  }
  if (replace) return changes.map((item) => mergeMap({}, item, items));

  const merged = [...base];
  for (const change of changes) {
    const value = mergeKeyOf(change, key);
    const at = merged.findIndex((existing) => existing[key] === value);
    if (at >= 0) merged[at] = mergeMap(merged[at]!, change, items);
    else merged.push(mergeMap({}, change, items));
  }
  return orderList(merged, changes, base, key);
}

/** 'map' or 'scalar' for the elements of the lists, undefined when all are empty. */
function elementKind(...lists: Json[][]): 'map' | 'scalar' | undefined {
  let seen: string | undefined;
  for (const list of lists) {
    for (const value of list) {
      if (Array.isArray(value)) throw invalidPatch('lists of lists are not supported');
      const kind = value === null ? 'null' : isObject(value) ? 'map' : typeof value;
      if (seen !== undefined && seen !== kind) throw invalidPatch(`list element types are not identical: ${goFormat(lists)}`);
      seen = kind;
    }
  }
  if (seen === undefined) return undefined;
  return seen === 'map' ? 'map' : 'scalar';
}

function unique(values: Json[]): Json[] {
  return values.filter((value, index) => values.indexOf(value) === index);
}

function mergeKeyOf(item: JsonObject, key: string): Json {
  const value = item[key];
  if (value === undefined) throw invalidPatch(`map: ${goFormat(item)} does not contain declared merge key: ${key}`);
  return value;
}

/** What identifies an element: its merge key's value, or the element itself. */
function identity(value: Json, mergeKey: string | undefined): Json | undefined {
  if (mergeKey !== undefined) return isObject(value) ? value[mergeKey] : undefined;
  return isObject(value) || Array.isArray(value) ? JSON.stringify(value) : value;
}

/**
 * Kubernetes' order for a merged list: elements named in `order` (the patch list, or
 * `$setElementOrder`) in that order; the rest in the live list's order; the two runs interleaved
 * by live position, a named element going first wherever the live list cannot tell.
 */
function orderList(merged: Json[], order: Json[], live: Json[], mergeKey: string | undefined): Json[] {
  // Every element ordered by key must carry the key, as Kubernetes checks.
  if (mergeKey !== undefined) for (const item of [...merged, ...order]) mergeKeyOf(item as JsonObject, mergeKey);
  const orderIds = order.map((item) => identity(item, mergeKey));
  const liveIds = live.map((item) => identity(item, mergeKey));
  const rankIn = (ids: Array<Json | undefined>, value: Json): number => ids.indexOf(identity(value, mergeKey));
  // A stable sort by rank; elements the ranking list does not name go last.
  const sortBy = (values: Json[], ids: Array<Json | undefined>): Json[] => {
    const ranked = values.map((value) => {
      const at = rankIn(ids, value);
      return { value, rank: at < 0 ? Number.POSITIVE_INFINITY : at };
    });
    return ranked.sort((a, b) => (a.rank === b.rank ? 0 : a.rank - b.rank)).map((entry) => entry.value);
  };
  const named = sortBy(merged.filter((value) => rankIn(orderIds, value) >= 0), orderIds);
  const others = sortBy(merged.filter((value) => rankIn(orderIds, value) < 0), liveIds);

  const result: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < others.length || j < named.length) {
    if (j >= named.length) result.push(others[i++]!);
    else if (i >= others.length) result.push(named[j++]!);
    else {
      const left = rankIn(liveIds, others[i]!);
      const right = rankIn(liveIds, named[j]!);
      result.push(left >= 0 && right >= 0 && left < right ? others[i++]! : named[j++]!);
    }
  }
  return result;
}

/** The patch list's items (deletions aside) must appear in `$setElementOrder` in the same order. */
function checkOrderAgrees(patchList: Json[], order: Json[], mergeKey: string | undefined): void {
  const items = patchList.filter((item) => !(isObject(item) && PATCH in item));
  // Every element compared by key must carry the key, as Kubernetes checks.
  if (mergeKey !== undefined) for (const item of [...items, ...order]) mergeKeyOf(item as JsonObject, mergeKey);
  let matched = 0;
  for (const entry of order) {
    if (matched < items.length && identity(items[matched]!, mergeKey) === identity(entry, mergeKey)) matched += 1;
  }
  if (matched < items.length) {
    throw badRequest(`The order in patch list:\n${goFormat(patchList)}\n doesn't match $setElementOrder list:\n${goFormat(order)}\n`);
  }
}

/** `$deleteFromPrimitiveList/<list>`: removes every occurrence of the values from a set. */
function deleteFromPrimitiveList(result: JsonObject, name: string, values: Json): void {
  if (name === '' || !Array.isArray(values)) throw badRequest('invalid patch format of primitive list');
  const live = result[name];
  if (Array.isArray(live)) result[name] = live.filter((value) => !values.includes(value));
}

// ---- errors ------------------------------------------------------------------------------------

/** A patch that is well-formed but cannot apply to this object. */
function invalidPatch(message: string): ApiError {
  return new ApiError(422, 'Invalid', message);
}

function badPatchType(directive: Json, where: JsonObject): ApiError {
  return badRequest(`unknown patch type: ${goFormat(directive)} in map: ${goFormat(where)}`);
}

/** A JSON value as Go's `%v` prints it, so messages read like kube-apiserver's. */
function goFormat(value: Json | Json[][]): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map((v) => goFormat(v)).join(' ')}]`;
  if (isObject(value)) {
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goFormat(value[k]!)}`)
      .join(' ')}]`;
  }
  return String(value);
}
