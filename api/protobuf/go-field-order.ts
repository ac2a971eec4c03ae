/**
 * Go's JSON of a built-in object is its struct's fields in declaration order, each `omitempty`
 * field left out when zero, and map keys sorted. Our objects keep the order they were written in
 * (the client's, then what the server added), so before a body goes out it is rebuilt in Go's
 * order. Our `.proto` files declare every message's fields in Go's struct order and mark what Go
 * omits (see `json-mapping.ts`), so one walk over the message types does it for every kind:
 * - `kind` and `apiVersion` (Go's inline TypeMeta) come first;
 * - a plain proto3 scalar that is zero or null, and an empty or null map, are left out (Go's
 *   omitempty); lists and null structs are kept as they are, since proto cannot tell which of
 *   them Go omits;
 * - keys the type does not declare are kept, after the declared ones, in their own order;
 * - items of a typed list carry no `kind` or `apiVersion`, as Go leaves their TypeMeta empty;
 * - well-known types (times, quantities, FieldsV1, raw extensions) are kept as they are.
 * Kinds without a protobuf form (custom resources, Tables) are returned unchanged.
 *
 * @example
 *   inGoFieldOrder({ apiVersion: 'v1', kind: 'ConfigMap', data: { b: '1', a: '2' }, metadata: { name: 'cm', labels: {} } })
 *   // → { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm' }, data: { a: '2', b: '1' } }
 */
import type protobuf from 'protobufjs';
import { isInline, isListValue, isZero, jsonName, keepsZero, messageType, type JsonObject } from './json-mapping.js';
import { protoSchema } from './proto-schema.js';
import { wellKnownTypes } from './well-known-types.js';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How one JSON key of a message is written, worked out once per message type. */
interface FieldPlan {
  key: string;
  form: 'map' | 'list' | 'message' | 'scalar';
  /** The message type of a map value, list item or message field. */
  type: protobuf.Type | undefined;
  keepsZero: boolean;
}

interface TypePlan {
  /** Declared fields in Go's order, inline structs flattened into their parent. */
  fields: FieldPlan[];
  declared: Set<string>;
  /** Kept as they are: well-known types (their own JSON forms) and list-valued messages. */
  opaque: boolean;
}

const plans = new WeakMap<protobuf.Type, TypePlan>();

function planOf(type: protobuf.Type): TypePlan {
  let plan = plans.get(type);
  if (!plan) {
    const fields = fieldPlans(type);
    plan = { fields, declared: new Set(fields.map((f) => f.key)), opaque: wellKnownTypes.has(type.fullName.slice(1)) || isListValue(type) };
    plans.set(type, plan);
  }
  return plan;
}

function fieldPlans(type: protobuf.Type): FieldPlan[] {
  return type.fieldsArray.flatMap((field): FieldPlan[] => {
    const fieldType = messageType(field);
    if (isInline(field) && fieldType) return fieldPlans(fieldType);
    const form = field.map ? 'map' : field.repeated ? 'list' : fieldType ? 'message' : 'scalar';
    return [{ key: jsonName(field), form, type: fieldType, keepsZero: keepsZero(field) }];
  });
}

/** `value` rebuilt in Go's field order when it is a built-in kind, else `value` itself. */
export function inGoFieldOrder(value: unknown): unknown {
  const type = builtInType(value);
  if (!type) return value;
  const object = value as JsonObject;
  return orderInto(type, object, { kind: object.kind, apiVersion: object.apiVersion }, true, itemsOfKind(type));
}

/**
 * How `inGoFieldOrder(list)` writes each of the list's items, for encoding them one at a time
 * (the same item encodes the same in every list of its kind).
 */
export function listItemInGoFieldOrder(list: unknown): (item: unknown) => unknown {
  const type = builtInType(list);
  const items = type && planOf(type).fields.find((f) => f.key === 'items');
  if (!type || items?.form !== 'list' || !items.type) return (item) => item;
  const itemType = items.type;
  const ofKind = itemsOfKind(type);
  return (item) => orderedItem(itemType, item, ofKind);
}

function builtInType(value: unknown): protobuf.Type | undefined {
  if (!isObject(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') return undefined;
  return protoSchema.kindType(value.apiVersion, value.kind) ?? undefined;
}

/** A list's items are typed structs of their own kind: Go writes them without kind and apiVersion. */
function itemsOfKind(type: protobuf.Type): boolean {
  const items = planOf(type).fields.find((f) => f.key === 'items');
  return items?.form === 'list' && items.type !== undefined && type.fields['metadata'] !== undefined && items.type.fields['metadata'] !== undefined;
}

function orderedItem(itemType: protobuf.Type, item: unknown, ofKind: boolean): unknown {
  if (!ofKind) return ordered(itemType, item);
  return isObject(item) ? orderInto(itemType, item, {}, true, false) : item;
}

/** A JSON value of message `type`, in Go's order. */
function ordered(type: protobuf.Type, json: unknown): unknown {
  if (!isObject(json) || planOf(type).opaque) return json;
  return orderInto(type, json, {}, false, false);
}

function orderInto(type: protobuf.Type, json: JsonObject, out: JsonObject, withoutTypeMeta: boolean, itemsOfKind: boolean): JsonObject {
  const plan = planOf(type);
  // Visiting every declared field (forty for a PodSpec) measured faster than sorting the keys
  // present by their declared position. The whole walk costs about three times JSON.stringify.
  for (const field of plan.fields) {
    const value = json[field.key];
    if (value === undefined) continue;
    if (value === null) {
      // Go drops a null scalar or map (its zero, omitted); a null struct or list it may well write
      // (the template's `"creationTimestamp":null`), which proto cannot tell, so it is kept.
      if (field.form === 'message' || field.form === 'list') out[field.key] = null;
      continue;
    }
    const fieldType = field.type;
    switch (field.form) {
      case 'map':
        if (!isObject(value)) out[field.key] = value;
        else if (Object.keys(value).length > 0) out[field.key] = sortedMap(value, fieldType);
        break;
      case 'list':
        if (!fieldType || !Array.isArray(value)) out[field.key] = value;
        else out[field.key] = value.map((item) => orderedItem(fieldType, item, itemsOfKind && field.key === 'items'));
        break;
      case 'message':
        out[field.key] = fieldType ? ordered(fieldType, value) : value;
        break;
      case 'scalar':
        if (field.keepsZero || !isZero(value)) out[field.key] = value;
    }
  }
  for (const key in json) {
    if (plan.declared.has(key) || (withoutTypeMeta && (key === 'kind' || key === 'apiVersion'))) continue;
    setKey(out, key, json[key]);
  }
  return out;
}

/** Go writes map keys sorted. */
function sortedMap(map: JsonObject, valueType: protobuf.Type | undefined): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(map).sort()) setKey(out, key, valueType ? ordered(valueType, map[key]) : map[key]);
  return out;
}

/** Sets a key the client chose, `__proto__` too (a valid ConfigMap key), which assignment would take for the prototype. */
function setKey(out: JsonObject, key: string, value: JsonObject[string]): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
