/**
 * Checks a decoded JSON body against its kind's schema the way kube-apiserver's decoder does for
 * built-in kinds: a value of the wrong JSON type is a decode error (400 BadRequest), and fields the
 * schema does not know are collected so `fieldValidation` can refuse (Strict), warn (Warn) or drop
 * them silently (Ignore). We walk the schema ourselves instead of using ajv here because the
 * decoder's answers need exact field paths (`spec.containers[0].foo`), which a walk gives directly.
 */
import { canonicalQuantity, QUANTITY_FORMAT_ERROR } from '../validation/quantity.js';
import { definitions, QUANTITY, resolve, type Schema, type SchemaDefinitions } from './schema.js';

export interface ObjectCheck {
  /** The first type mismatch, worded like Go's JSON decoder, or undefined. */
  typeError: string | undefined;
  /** Where that mismatch is (`spec.replicas`). */
  typePath?: string;
  /** That mismatch: the value found and the schema it should have met (for other wordings). */
  typeMismatch?: { value: unknown; expected: Schema };
  /** Paths of fields the schema does not declare, in document order. */
  unknownFields: string[];
  /** Where the value holds a Quantity, for `canonicalizeQuantities`. */
  quantities: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number }>;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function goType(schema: Schema): string {
  // IntOrString decodes anything but a string into its int32 half, so Go names that type.
  if (schema['x-kubernetes-int-or-string']) return 'int32';
  switch (schema.type) {
    case 'integer':
      return schema.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'array':
      return '[]' + (schema.items ? goType(resolve(schema.items) ?? {}) : 'interface {}');
    case 'object':
      return schema.additionalProperties && typeof schema.additionalProperties === 'object' ? 'map[string]' + goType(resolve(schema.additionalProperties) ?? {}) : 'struct';
    default:
      return 'interface {}';
  }
}

function typeMatches(value: unknown, schema: Schema): boolean {
  // Go decodes null into any field as its zero value.
  if (value === null) return true;
  if (schema[QUANTITY]) return typeof value === 'string' || typeof value === 'number';
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || isInt32(value);
  switch (schema.type) {
    case 'object':
      return jsonType(value) === 'object';
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return schema.format === 'int64' ? Number.isInteger(value) : isInt32(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function isInt32(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;
}

/**
 * Go's decoder error for `value` in a field of `schema`. A number that does not fit an integer
 * field is quoted (`number 1.5`); a Quantity parses whatever JSON it gets as text, so anything but
 * a string or a number fails its format check.
 */
function typeErrorOf(value: unknown, schema: Schema, path: string): string {
  if (schema[QUANTITY]) return QUANTITY_FORMAT_ERROR;
  const type = goType(schema);
  const found = typeof value === 'number' && type.startsWith('int') ? `number ${value}` : jsonType(value) === 'boolean' ? 'bool' : jsonType(value);
  return `json: cannot unmarshal ${found} into Go struct field ${path || '.'} of type ${type}`;
}

/** Checks `value` against `schema` (usually a kind's top-level schema). */
export function checkObject(value: unknown, schema: Schema, defs: SchemaDefinitions = definitions): ObjectCheck {
  const result: ObjectCheck = { typeError: undefined, unknownFields: [], quantities: [] };

  const walk = (v: unknown, s: Schema | undefined, path: string, holder?: ObjectCheck['quantities'][number]): void => {
    const resolved = resolve(s, defs);
    if (!resolved || v === null || v === undefined) return;
    if (!typeMatches(v, resolved)) {
      if (result.typeError === undefined) {
        result.typeError = typeErrorOf(v, resolved, path);
        result.typePath = path;
        result.typeMismatch = { value: v, expected: resolved };
      }
      return;
    }
    if (resolved[QUANTITY] && holder) result.quantities.push(holder);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, resolved.items, `${path}[${i}]`, { holder: v, key: i }));
      return;
    }
    if (jsonType(v) !== 'object' || resolved['x-kubernetes-int-or-string']) return;
    const props = resolved.properties;
    const extra = resolved.additionalProperties;
    const object = v as Record<string, unknown>;
    for (const [key, child] of Object.entries(object)) {
      const childPath = path ? `${path}.${key}` : key;
      const declared = props?.[key];
      if (declared) walk(child, declared, childPath, { holder: object, key });
      else if (extra && typeof extra === 'object') walk(child, extra, childPath, { holder: object, key });
      else if (extra !== true && !resolved['x-kubernetes-preserve-unknown-fields'] && (props || resolved.type === 'object')) {
        result.unknownFields.push(childPath);
      }
    }
  };

  walk(value, schema, '');
  return result;
}

/**
 * Rewrites the quantities `checkObject` found in their canonical form (`0.5` → `"500m"`), as Go's
 * decoder parses every Quantity and its encoder always writes the canonical string. Malformed ones
 * are left for validation to refuse.
 */
export function canonicalizeQuantities(check: ObjectCheck): void {
  for (const { holder, key } of check.quantities) {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value === 'string' || typeof value === 'number') (holder as Record<string | number, unknown>)[key] = canonicalQuantity(value);
  }
}

/** Removes the fields `checkObject` reported as unknown (fieldValidation Ignore and Warn drop them, as the decoder does). */
export function dropFields(value: Record<string, unknown>, paths: string[]): void {
  for (const path of paths) {
    const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
    let target: unknown = value;
    for (let i = 0; i < steps.length - 1 && target !== undefined; i += 1) {
      const step = steps[i]!;
      target = step.startsWith('[') ? (target as unknown[])[Number(step.slice(1, -1))] : (target as Record<string, unknown>)[step];
    }
    if (target && typeof target === 'object') delete (target as Record<string, unknown>)[steps.at(-1)!];
  }
}
