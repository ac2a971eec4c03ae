/**
 * CEL types declared from an OpenAPI structural schema, as Kubernetes declares them for CRD
 * validation rules (`apiserver/pkg/cel/common/schemas.go` SchemaDeclType): objects with
 * properties are message-like types whose fields are the properties, objects with
 * `additionalProperties` are maps, arrays are lists, `x-kubernetes-int-or-string` and
 * `x-kubernetes-preserve-unknown-fields` without properties are `dyn`, strings of format
 * `byte`/`duration`/`date`/`date-time` are bytes, duration and timestamp, and an embedded resource
 * (or the resource root) always has `apiVersion`, `kind` and `metadata` (name, generateName).
 *
 * Every type also carries the most elements (list items, map entries, string characters) a value
 * of it can have, from `maxItems`/`maxProperties`/`maxLength` or, without them, from the largest
 * request the server takes: the cost estimator multiplies by it.
 */

export type ScalarKind = 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null_type' | 'dyn' | 'timestamp' | 'duration' | 'type';

export type CelType =
  | { kind: ScalarKind; max?: number }
  | { kind: 'list'; elem: CelType; max: number }
  | { kind: 'map'; key: CelType; value: CelType; max: number }
  | { kind: 'object'; name: string; fields: Record<string, CelType>; max: number }
  | { kind: 'optional'; elem: CelType };

/** kube-apiserver's request size limit, which bounds every collection without a declared maximum. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

export const DYN: CelType = { kind: 'dyn' };
export const BOOL: CelType = { kind: 'bool' };
export const INT: CelType = { kind: 'int' };
export const STRING: CelType = { kind: 'string' };

/** A schema as far as CEL types read it (structural, so one type per node). */
export interface TypedSchema {
  type?: string;
  format?: string;
  properties?: Record<string, TypedSchema>;
  additionalProperties?: TypedSchema | boolean;
  items?: TypedSchema | TypedSchema[];
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  [other: string]: unknown;
}

/** CEL's reserved words, which a property name must be escaped from (`__in__`). */
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/**
 * A property name as a CEL field name (Kubernetes' escaping): reserved words as `__word__`, and
 * `__`, `.`, `-`, `/` as `__underscores__`, `__dot__`, `__dash__`, `__slash__`. Undefined when
 * the name cannot be a field (it is then not accessible from CEL).
 */
export function escapeFieldName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m]!);
}

/** The smallest JSON a value of the schema serializes to, which bounds how many fit in a request. */
function minSerializedSize(schema: TypedSchema): number {
  if (schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields']) return 1;
  switch (schema.type) {
    case 'string':
      return 2; // ""
    case 'boolean':
      return 4; // true
    case 'integer':
    case 'number':
      return 1;
    default:
      return 2; // {} or []
  }
}

const maxListItems = (schema: TypedSchema, items: TypedSchema): number =>
  schema.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(items) + 1));

const maxMapEntries = (schema: TypedSchema, value: TypedSchema): number =>
  // `"":` plus a comma around each value.
  schema.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(value) + 4));

function maxStringLength(schema: TypedSchema): number {
  if (schema.maxLength !== undefined) return schema.maxLength;
  // Formats whose values have a bounded length.
  const bounded: Record<string, number> = { date: 10, 'date-time': 32, uuid: 36, ipv4: 15, ipv6: 45, mac: 17 };
  return bounded[schema.format ?? ''] ?? MAX_REQUEST_SIZE_BYTES - 2;
}

/** What every embedded resource (and the resource root) has, with ObjectMeta narrowed as kube does. */
function withTypeMeta(fields: Record<string, CelType>): Record<string, CelType> {
  const short = (n: number): CelType => ({ kind: 'string', max: n });
  return {
    apiVersion: short(MAX_REQUEST_SIZE_BYTES),
    kind: short(MAX_REQUEST_SIZE_BYTES),
    metadata: { kind: 'object', name: 'metadata', max: 2, fields: { name: short(253), generateName: short(253) } },
    ...fields,
  };
}

/**
 * The CEL type of a schema node; `root` for the resource's own schema, which gets apiVersion,
 * kind and metadata. `name` names object types in messages (`selfType.spec`).
 */
export function schemaType(schema: TypedSchema, root = false, name = 'selfType'): CelType {
  if (schema['x-kubernetes-int-or-string']) return DYN;
  const embedded = root || schema['x-kubernetes-embedded-resource'] === true;
  switch (schema.type) {
    case 'boolean':
      return BOOL;
    case 'integer':
      return INT;
    case 'number':
      return { kind: 'double' };
    case 'string': {
      const max = maxStringLength(schema);
      if (schema.format === 'byte') return { kind: 'bytes', max };
      if (schema.format === 'duration') return { kind: 'duration' };
      if (schema.format === 'date' || schema.format === 'date-time') return { kind: 'timestamp' };
      return { kind: 'string', max };
    }
    case 'array': {
      const items = schema.items && !Array.isArray(schema.items) ? schema.items : undefined;
      return { kind: 'list', elem: items ? schemaType(items, false, `${name}.@idx`) : DYN, max: items ? maxListItems(schema, items) : MAX_REQUEST_SIZE_BYTES };
    }
    case 'object':
    case undefined: {
      const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (additional) return { kind: 'map', key: { kind: 'string', max: MAX_REQUEST_SIZE_BYTES }, value: schemaType(additional, false, `${name}.@elem`), max: maxMapEntries(schema, additional) };
      const props = Object.entries(schema.properties ?? {});
      if (props.length === 0 && !embedded) {
        if (schema['x-kubernetes-preserve-unknown-fields']) return DYN;
        return { kind: 'object', name, fields: {}, max: 0 };
      }
      const fields: Record<string, CelType> = {};
      for (const [prop, sub] of props) {
        const field = escapeFieldName(prop);
        if (field) fields[field] = schemaType(sub, false, `${name}.${prop}`);
      }
      return { kind: 'object', name, fields: embedded ? withTypeMeta(fields) : fields, max: props.length };
    }
    default:
      return DYN;
  }
}

/** A type as cel-go prints it in messages (`int`, `list(string)`, `map(string, int)`). */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
      return t.name;
    case 'optional':
      return `optional_type(${typeName(t.elem)})`;
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    default:
      return t.kind;
  }
}

/** The most elements (items, entries, characters) a value of the type holds; 1 for scalars. */
export function maxSize(t: CelType): number {
  return 'max' in t && t.max !== undefined ? t.max : 1;
}
