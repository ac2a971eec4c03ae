/**
 * The fields a create takes (its Update entry's FieldsV1), remembered by the shape of the created
 * object. A create is compared against the kind's zero value; when that holds no scalars (every
 * built-in kind's), what it takes depends on the kind's schema, the fields reset for the write and
 * the object's shape only: its map keys, where it holds null, and its lists whole (list items name
 * fields by their keys or values). Scalar values do not count, so the creates of one manifest or
 * template (every pod of a ReplicaSet, every ConfigMap of a loop) share one entry, and the
 * comparison, about 40% of the store's create, runs once per shape instead of once per write.
 *
 * Bounded: shapes longer than MAX_SHAPE_CHARS are not remembered, and the table is cleared when it
 * holds MAX_SHAPES.
 *
 * @example
 *   const fieldsV1 = createdFieldsByShape(schema, resetFields, content, () => compareAgainstZero(content));
 */
import type { FieldSet } from './field-set.js';
import type { JsonObject, JsonValue } from './json-value.js';
import type { Schema } from '../schema/schema.js';
import { zeroValueOf } from './schema-type.js';

/** FieldsV1 text of what the create takes; '' when it takes nothing (no entry is written). */
export type CreatedFieldsText = string;

const MAX_SHAPE_CHARS = 4096;
const MAX_SHAPES = 2000;

const remembered = new Map<string, CreatedFieldsText>();
/** Schemas and reset-field sets are told apart by identity: each gets a number the first time it is seen. */
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identityOf(thing: object): number {
  let id = identities.get(thing);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(thing, id);
  }
  return id;
}

const scalarFreeZeros = new WeakMap<Schema, boolean>();

/**
 * Whether the kind's zero value holds no scalar: then a create's comparison with it never looks at
 * a scalar's value. A default with values (a CRD's `default: {replicas: 1}`) puts scalars in it,
 * and a create that sets the same value takes nothing there: such kinds are not remembered.
 */
function zeroWithoutScalars(schema: Schema): boolean {
  let free = scalarFreeZeros.get(schema);
  if (free === undefined) {
    free = !holdsScalar(zeroValueOf(schema));
    scalarFreeZeros.set(schema, free);
  }
  return free;
}

function holdsScalar(value: JsonValue): boolean {
  if (value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.values(value).some((v) => v !== undefined && holdsScalar(v));
  return true;
}

/**
 * The shape of a JSON value as a string, or undefined past `budget` characters: objects with their
 * keys (in order) and the shapes of their values, lists as their full JSON, null and undefined as
 * themselves, other scalars as their type.
 */
export function objectShape(value: JsonValue, budget = MAX_SHAPE_CHARS): string | undefined {
  let out = '';
  const walk = (v: JsonValue): boolean => {
    if (v === null) out += 'n';
    else if (v === undefined) out += 'u';
    else if (Array.isArray(v)) out += 'a' + JSON.stringify(v);
    else if (typeof v === 'object') {
      out += '{';
      for (const key in v) {
        out += JSON.stringify(key) + ':';
        if (!walk(v[key]!)) return false;
        out += ',';
      }
      out += '}';
    } else out += typeof v === 'string' ? 's' : typeof v === 'number' ? 'i' : 'b';
    return out.length <= budget;
  };
  return walk(value) ? out : undefined;
}

/**
 * What a create of `content` takes under `schema` and `resetFields`: remembered by shape, else
 * `compute()` (which must depend on nothing but those three).
 */
export function createdFieldsByShape(schema: Schema, resetFields: FieldSet, content: JsonObject, compute: () => CreatedFieldsText): CreatedFieldsText {
  const shape = zeroWithoutScalars(schema) ? objectShape(content) : undefined;
  if (shape === undefined) return compute();
  const key = `${identityOf(schema)}/${identityOf(resetFields)}/${shape}`;
  let fields = remembered.get(key);
  if (fields === undefined) {
    fields = compute();
    if (remembered.size >= MAX_SHAPES) remembered.clear();
    remembered.set(key, fields);
  }
  return fields;
}
