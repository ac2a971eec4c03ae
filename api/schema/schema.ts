/**
 * OpenAPI v3 schemas as Kubernetes publishes them, with its extensions, and a small builder
 * vocabulary so a kind's schema reads like its API reference. The same schema drives validation
 * (ajv, compiled once per kind), unknown-field detection, strategic merge patch (merge keys and
 * strategies), `kubectl explain` and the `/openapi/v3` documents.
 *
 * @example
 *   define('io.k8s.api.core.v1.ConfigMap', object('ConfigMap holds configuration data.', {
 *     data: map(string('Configuration values by key.'), 'Values by key.'),
 *   }));
 */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * Marks a `resource.Quantity` schema. Kubernetes publishes Quantity like an int-or-string, but its
 * decoder takes any JSON number (`cpu: 0.5`), which an IntOrString refuses; the mark is a symbol so
 * it stays out of the published documents yet survives the copies the builders make.
 */
export const QUANTITY: unique symbol = Symbol('resource.Quantity');

export interface Schema {
  [QUANTITY]?: true;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: Array<string | number>;
  default?: unknown;
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-embedded-resource'?: true;
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  'x-kubernetes-unions'?: unknown[];
}

/** Named schemas, keyed by their OpenAPI component name (`io.k8s.api.core.v1.Pod`). */
export type SchemaDefinitions = Map<string, Schema>;

const REF_PREFIX = '#/components/schemas/';

/** Every named schema defined so far; kinds and shared types register here at module load. */
export const definitions: SchemaDefinitions = new Map();

/** Registers a named schema and returns a reference to it. Names are unique. */
export function define(name: string, schema: Schema): Schema {
  if (definitions.has(name)) throw new Error(`schema ${name} defined twice`);
  definitions.set(name, schema);
  return ref(name);
}

export function ref(name: string): Schema {
  return { $ref: REF_PREFIX + name };
}

/** The component name a `$ref` points to. */
export function refName(schema: Schema): string | undefined {
  return schema.$ref?.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : undefined;
}

/** Follows `$ref` (and a single-element `allOf`, as Kubernetes wraps described refs) to the schema itself. */
export function resolve(schema: Schema | undefined, defs: SchemaDefinitions = definitions): Schema | undefined {
  let s = schema;
  for (let depth = 0; s && depth < 8; depth += 1) {
    const name = refName(s);
    if (name !== undefined) {
      s = defs.get(name);
      continue;
    }
    if (s.allOf?.length === 1 && s.type === undefined && s.properties === undefined) {
      s = s.allOf[0];
      continue;
    }
    return s;
  }
  return s;
}

type Extra = Omit<Schema, 'type' | 'description'>;

export function string(description: string, extra: Extra = {}): Schema {
  return { type: 'string', description, ...extra };
}

export function enumOf(description: string, values: string[]): Schema {
  return { type: 'string', description, enum: values };
}

export function integer(description: string, extra: Extra = {}): Schema {
  return { type: 'integer', format: 'int32', description, ...extra };
}

export function int64(description: string, extra: Extra = {}): Schema {
  return { type: 'integer', format: 'int64', description, ...extra };
}

export function number(description: string): Schema {
  return { type: 'number', format: 'double', description };
}

export function boolean(description: string): Schema {
  return { type: 'boolean', description };
}

/** A port number or name, a percentage, or a quantity: Kubernetes' IntOrString. */
export function intOrString(description: string): Schema {
  return { description, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
}

/** A resource quantity such as `100m` or `1Gi`, accepted as a string or a number. */
export function quantity(description: string): Schema {
  return { description, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], [QUANTITY]: true };
}

/** Base64 bytes, as Secret data is carried in JSON. */
export function bytes(description: string): Schema {
  return { type: 'string', format: 'byte', description };
}

export function object(description: string, properties: Record<string, Schema>, extra: Extra = {}): Schema {
  return { type: 'object', description, properties, ...extra };
}

/** A map with string keys. */
export function map(values: Schema, description: string, extra: Extra = {}): Schema {
  return { type: 'object', description, additionalProperties: values, ...extra };
}

/** Free-form JSON kept as given (CRD schemas, raw extensions). */
export function anything(description: string): Schema {
  return { type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true };
}

export interface ListOptions {
  /** Strategic merge patch: the field that identifies an item (`name` for containers). */
  mergeKey?: string;
  /** Strategic merge patch strategy, e.g. `merge` or `merge,retainKeys`. */
  strategy?: string;
  /** Server-side apply list type; a mergeKey implies `map` keyed by it. */
  listType?: 'atomic' | 'set' | 'map';
  mapKeys?: string[];
}

export function list(items: Schema, description: string, opts: ListOptions = {}): Schema {
  // Items carry no description of their own (the list's says it), as in Kubernetes' documents;
  // `kubectl explain` would otherwise print both.
  const { description: _itemDescription, ...item } = items;
  const s: Schema = { type: 'array', description, items: item };
  if (opts.mergeKey) s['x-kubernetes-patch-merge-key'] = opts.mergeKey;
  if (opts.strategy) s['x-kubernetes-patch-strategy'] = opts.strategy;
  const listType = opts.listType ?? (opts.mapKeys || opts.mergeKey ? 'map' : undefined);
  if (listType) s['x-kubernetes-list-type'] = listType;
  if (listType === 'map') s['x-kubernetes-list-map-keys'] = opts.mapKeys ?? [opts.mergeKey!];
  return s;
}

/** A field described here whose type is a named schema (Kubernetes writes `allOf: [$ref]` for this). */
export function described(target: Schema, description: string, extra: Extra = {}): Schema {
  return { description, allOf: [target], ...extra };
}
