/**
 * JSON ↔ protobuf message mapping, one generic walk over the loaded message types (no per-kind
 * code). It reproduces Go's JSON of the same object:
 * - a plain proto3 scalar is Go's non-pointer `omitempty` field: written on the wire even when
 *   zero, left out of JSON when zero; an `optional` scalar (a Go pointer, or a field without
 *   omitempty) keeps its zero value;
 * - a message field is in JSON exactly when it is on the wire (Go writes non-pointer structs
 *   always, so `status: {}` and `resources: {}` come back as Go writes them);
 * - empty lists and maps are left out; `bytes` are base64 strings;
 * - `[(kubespaces.inline) = true]` merges a message's fields into its parent (Go's `json:",inline"`),
 *   `json_name` renames a field, `(kubespaces.list_value)` messages are their `items` list;
 * - the well-known types of `well-known-types.ts` have their own JSON forms.
 * JSON keys without a field are dropped when encoding, as protobuf cannot carry them.
 *
 * @example
 *   const type = protoSchema.kindType('v1', 'ConfigMap')!;
 *   const bytes = type.encode(jsonToMessage(type, { metadata: { name: 'cm1' }, data: { a: 'b' } })).finish();
 *   messageToJson(type, type.decode(bytes) as ProtoMessage); // → { metadata: { name: 'cm1' }, data: { a: 'b' } }
 */
import protobuf from 'protobufjs';
import { ProtobufError } from './protobuf-error.js';
import { protoNumber, wellKnownTypes, type ProtoMessage } from './well-known-types.js';

export type { ProtoMessage } from './well-known-types.js';

export type JsonObject = Record<string, unknown>;

export function isInline(field: protobuf.Field): boolean {
  return field.options?.['(kubespaces.inline)'] === true;
}

export function isListValue(type: protobuf.Type): boolean {
  return type.options?.['(kubespaces.list_value)'] === true;
}

export function jsonName(field: protobuf.Field): string {
  const name: unknown = field.options?.['json_name'];
  return typeof name === 'string' ? name : field.name;
}

/** Whether a scalar keeps its zero value in JSON (proto3 `optional`: explicit presence). */
export function keepsZero(field: protobuf.Field): boolean {
  return field.options?.['proto3_optional'] === true;
}

export function isZero(value: unknown): boolean {
  if (value === '' || value === 0 || value === false) return true;
  if (value instanceof Uint8Array) return value.length === 0;
  return typeof value === 'object' && value !== null && protoNumber(value) === 0;
}

export function messageType(field: protobuf.Field): protobuf.Type | undefined {
  return field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
}

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

// ---- protobuf → JSON ----

function valueToJson(field: protobuf.Field, value: unknown): unknown {
  const type = messageType(field);
  if (type) return messageToJson(type, value as ProtoMessage);
  if (field.type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  if (field.long) return protoNumber(value);
  return value;
}

/** The JSON form of a decoded message of `type`. */
export function messageToJson(type: protobuf.Type, message: ProtoMessage): unknown {
  const wellKnown = wellKnownTypes.get(type.fullName.slice(1));
  if (wellKnown) return wellKnown.toJson(message);
  if (isListValue(type)) return [...((message['items'] as unknown[] | undefined) ?? [])];
  const json: JsonObject = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (field.map) {
      const entries = Object.entries((value as Record<string, unknown> | undefined) ?? {});
      if (entries.length > 0) json[jsonName(field)] = Object.fromEntries(entries.map(([k, v]) => [k, valueToJson(field, v)]));
    } else if (field.repeated) {
      const items = (value as unknown[] | undefined) ?? [];
      if (items.length > 0) json[jsonName(field)] = items.map((item) => valueToJson(field, item));
    } else if (Object.hasOwn(message, field.name)) {
      if (!messageType(field) && !keepsZero(field) && isZero(value)) continue;
      const converted = valueToJson(field, value);
      if (isInline(field)) Object.assign(json, converted);
      else json[jsonName(field)] = converted;
    }
  }
  return json;
}

// ---- JSON → protobuf ----

function expectObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ProtobufError(`expected an object, got ${JSON.stringify(value)}`, path);
  return value as JsonObject;
}

function scalarFromJson(field: protobuf.Field, value: unknown, path: string): unknown {
  switch (field.type) {
    case 'string':
      if (typeof value === 'string') return value;
      break;
    case 'bool':
      if (typeof value === 'boolean') return value;
      break;
    case 'bytes':
      if (typeof value === 'string') return Buffer.from(value, 'base64');
      break;
    default:
      if (Number.isInteger(value)) return value;
  }
  throw new ProtobufError(`expected ${field.type}, got ${JSON.stringify(value)}`, path);
}

function valueFromJson(field: protobuf.Field, value: unknown, path: string): unknown {
  const type = messageType(field);
  return type ? jsonToMessage(type, value, path) : scalarFromJson(field, value, path);
}

/** Whether JSON null is a value for the field rather than its absence. */
function takesNull(field: protobuf.Field): boolean {
  const type = messageType(field);
  return type !== undefined && !field.repeated && !field.map && (wellKnownTypes.get(type.fullName.slice(1))?.nullable ?? false);
}

/** The message of `type` for a JSON value, ready for `type.encode`. */
export function jsonToMessage(type: protobuf.Type, json: unknown, path = ''): ProtoMessage {
  const wellKnown = wellKnownTypes.get(type.fullName.slice(1));
  if (wellKnown) return wellKnown.fromJson(json, path);
  if (isListValue(type)) {
    if (!Array.isArray(json) || json.some((item) => typeof item !== 'string')) throw new ProtobufError(`expected a list of strings, got ${JSON.stringify(json)}`, path);
    return { items: json };
  }
  const object = expectObject(json, path);
  const message: ProtoMessage = {};
  for (const field of type.fieldsArray) {
    const type = messageType(field);
    if (isInline(field) && type) {
      message[field.name] = jsonToMessage(type, object, path);
      continue;
    }
    const key = jsonName(field);
    const value = object[key];
    if (value === undefined || (value === null && !takesNull(field))) continue;
    const fieldPath = childPath(path, key);
    if (field.map) {
      message[field.name] = Object.fromEntries(Object.entries(expectObject(value, fieldPath)).map(([k, v]) => [k, valueFromJson(field, v, `${fieldPath}[${k}]`)]));
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new ProtobufError(`expected a list, got ${JSON.stringify(value)}`, fieldPath);
      message[field.name] = value.map((item, i) => valueFromJson(field, item, `${fieldPath}[${i}]`));
    } else {
      message[field.name] = valueFromJson(field, value, fieldPath);
    }
  }
  return message;
}
