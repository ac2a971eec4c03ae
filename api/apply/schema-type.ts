/**
 * What server-side apply needs from an OpenAPI schema, converted as Kubernetes converts its
 * OpenAPI into structured-merge-diff types (kube-openapi `schemaconv`):
 * - a struct (`properties`) or map (`additionalProperties`) is granular unless
 *   `x-kubernetes-map-type: atomic`; an atomic one is a single leaf;
 * - a list is atomic unless `x-kubernetes-list-type` says `set` or `map` (keyed by
 *   `x-kubernetes-list-map-keys`), or its patch strategy merges (keyed by the merge key, else a set);
 * - scalars, int-or-string and quantities are leaves;
 * - a schema without a type, and unknown or preserved fields, are "deduced" from the value:
 *   maps granular, lists atomic, scalars leaves.
 * Conversions are cached per schema object, so each is paid once.
 *
 * @example
 *   const atom = atomOf(deploymentSchema);
 *   atom.map?.fields.get('spec'); // → { type: <DeploymentSpec>, default: undefined }
 */
import { definitions, refName, type Schema } from '../schema/schema.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import { keyElement, type PathElement } from './path-element.js';

/** A schema, or one of smd's two built-in untyped types. */
export type TypeRef = Schema | 'deduced' | 'untyped';

export interface FieldType {
  readonly type: TypeRef;
  /** The field's OpenAPI default: fills a missing list key, and a `{}` marks a struct present in a new object. */
  readonly default: JsonValue | undefined;
}

export interface ListAtom {
  readonly atomic: boolean;
  /** Key fields of a map-type list; empty for a set. */
  readonly keys: readonly string[];
  readonly items: TypeRef;
}

export interface MapAtom {
  readonly atomic: boolean;
  /** Declared struct fields; any other key is a map entry of type `elements`. */
  readonly fields: ReadonlyMap<string, FieldType>;
  /** Fields every value carries: Kubernetes marks the Go fields without `omitempty` required. */
  readonly required: ReadonlySet<string>;
  readonly elements: TypeRef;
}

/** The shapes a value of a type may take; a deduced type allows all three. */
export interface Atom {
  readonly scalar: boolean;
  readonly list: ListAtom | undefined;
  readonly map: MapAtom | undefined;
}

export type Shape = { readonly kind: 'map'; readonly map: MapAtom } | { readonly kind: 'list'; readonly list: ListAtom } | { readonly kind: 'scalar' };

const NO_FIELDS: ReadonlyMap<string, FieldType> = new Map();
const NONE_REQUIRED: ReadonlySet<string> = new Set();
const UNTYPED: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], items: 'untyped' },
  map: { atomic: true, fields: NO_FIELDS, required: NONE_REQUIRED, elements: 'untyped' },
};
const DEDUCED: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], items: 'untyped' },
  map: { atomic: false, fields: NO_FIELDS, required: NONE_REQUIRED, elements: 'deduced' },
};

type Extensions = Pick<
  Schema,
  | 'x-kubernetes-list-type'
  | 'x-kubernetes-list-map-keys'
  | 'x-kubernetes-map-type'
  | 'x-kubernetes-patch-strategy'
  | 'x-kubernetes-patch-merge-key'
  | 'x-kubernetes-int-or-string'
>;
const EXTENSIONS: ReadonlyArray<keyof Extensions> = [
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-int-or-string',
];

/**
 * Follows `$ref` and single-element `allOf` wrappers to the schema itself, keeping the
 * extensions met on the way; the outermost wins, as a reference site's map type overrides its
 * target's in schemaconv.
 */
function unwrap(schema: Schema): { target: Schema | undefined; ext: Extensions } {
  const ext: Extensions = {};
  let s: Schema | undefined = schema;
  for (let depth = 0; s && depth < 16; depth += 1) {
    for (const k of EXTENSIONS) if (s[k] !== undefined && ext[k] === undefined) Object.assign(ext, { [k]: s[k] });
    const name = refName(s);
    if (name !== undefined) s = definitions.get(name);
    else if (s.allOf?.length === 1 && s.type === undefined && s.properties === undefined) s = s.allOf[0];
    else break;
  }
  return { target: s, ext };
}

function listAtom(s: Schema, ext: Extensions): ListAtom {
  const items = s.items ?? 'untyped';
  const strategy = ext['x-kubernetes-patch-strategy'];
  switch (ext['x-kubernetes-list-type']) {
    case 'atomic':
      return { atomic: true, keys: [], items };
    case 'set':
      return { atomic: false, keys: [], items };
    case 'map':
      return { atomic: false, keys: ext['x-kubernetes-list-map-keys'] ?? [], items };
    default: {
      const mergeKey = ext['x-kubernetes-patch-merge-key'];
      if (strategy === 'merge' || strategy === 'merge,retainKeys') return { atomic: false, keys: mergeKey ? [mergeKey] : [], items };
      return { atomic: true, keys: [], items };
    }
  }
}

function mapAtom(s: Schema, ext: Extensions): MapAtom {
  const fields = new Map<string, FieldType>();
  for (const [name, field] of Object.entries(s.properties ?? {})) fields.set(name, { type: field, default: field.default as JsonValue | undefined });
  const extra = s.additionalProperties;
  // Undeclared keys of a struct are tolerated as deduced: the decoder has already refused or dropped unknown fields.
  const elements: TypeRef = typeof extra === 'object' ? extra : 'deduced';
  return { atomic: ext['x-kubernetes-map-type'] === 'atomic', fields, required: new Set(s.required), elements };
}

function convert(schema: Schema): Atom {
  const { target: s, ext } = unwrap(schema);
  if (!s) return DEDUCED;
  if (ext['x-kubernetes-int-or-string']) return { scalar: true, list: undefined, map: undefined };
  switch (s.type) {
    case 'array':
      return { scalar: false, list: listAtom(s, ext), map: undefined };
    case 'object':
      return { scalar: false, list: undefined, map: mapAtom(s, ext) };
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return { scalar: true, list: undefined, map: undefined };
    default:
      return s.properties ? { scalar: false, list: undefined, map: mapAtom(s, ext) } : DEDUCED;
  }
}

const atoms = new WeakMap<Schema, Atom>();

/** The shapes a type allows, converted once per schema object. */
export function atomOf(type: TypeRef): Atom {
  if (type === 'deduced') return DEDUCED;
  if (type === 'untyped') return UNTYPED;
  let atom = atoms.get(type);
  if (!atom) {
    atom = convert(type);
    atoms.set(type, atom);
  }
  return atom;
}

/** The shape a value takes under a type; absent, null or mismatched values take the first of map, scalar, list, as smd does. */
export function shapeOf(atom: Atom, value: JsonValue | undefined): Shape {
  if (Array.isArray(value)) {
    if (atom.list) return { kind: 'list', list: atom.list };
  } else if (isJsonObject(value)) {
    if (atom.map) return { kind: 'map', map: atom.map };
  } else if (value !== undefined && value !== null && atom.scalar) return { kind: 'scalar' };
  if (atom.map) return { kind: 'map', map: atom.map };
  if (atom.scalar || !atom.list) return { kind: 'scalar' };
  return { kind: 'list', list: atom.list };
}

/** The type of a map entry or struct field. */
export function entryType(map: MapAtom, name: string): TypeRef {
  return map.fields.get(name)?.type ?? map.elements;
}

/**
 * The element naming one item of an associative list: its key fields (defaulted from the
 * schema when absent), or the item itself for a set. A string is the reason it has none.
 */
export function listItemElement(list: ListAtom, item: JsonValue): PathElement | string {
  if (list.keys.length === 0) {
    if (isJsonObject(item)) return "associative list without keys has an element that's a map type";
    if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
    if (item === null) return "associative list without keys has an element that's an explicit null";
    return { value: item };
  }
  if (item === null) return 'associative list with keys may not have a null element';
  if (!isJsonObject(item)) return 'associative list with keys may not have non-map elements';
  const fields: Array<[string, JsonValue]> = [];
  for (const name of list.keys) {
    const v = name in item ? item[name] : atomOf(list.items).map?.fields.get(name)?.default;
    if (v === undefined) return `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`;
    fields.push([name, v]);
  }
  return keyElement(fields);
}

/**
 * The value a freshly made object of this type has before anything is set: Go's zero value of
 * the kind, as far as the schema tells it. Fields without `omitempty` (required in the schema)
 * are there (structs as their own zero value, lists and maps as null), and so are the structs
 * marked `default: {}` (Kubernetes' OpenAPI marks every non-pointer struct so). Creates are
 * compared against it, so what every object holds is not reported as added (no `".": {}` on it).
 */
export function zeroValueOf(type: TypeRef): JsonObject {
  const map = atomOf(type).map;
  const out: JsonObject = {};
  for (const [name, field] of map?.fields ?? NO_FIELDS) {
    const atom = atomOf(field.type);
    if (isJsonObject(field.default)) out[name] = { ...zeroValueOf(field.type), ...field.default };
    else if (!map?.required.has(name)) continue;
    else if (atom.map && atom.map.fields.size > 0) out[name] = zeroValueOf(field.type);
    else if (atom.map || atom.list) out[name] = null;
  }
  return out;
}
