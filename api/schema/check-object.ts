/**
 * Checks a decoded JSON body against its kind's schema the way kube-apiserver's decoder does for
 * built-in kinds: a value of the wrong JSON type is a decode error (400 BadRequest), and fields the
 * schema does not know are collected so `fieldValidation` can refuse (Strict), warn (Warn) or drop
 * them silently (Ignore). We walk the schema ourselves instead of using ajv here because the
 * decoder's answers need exact field paths (`spec.containers[0].foo`), which a walk gives directly.
 */
import { definitions, resolve, type Schema, type SchemaDefinitions } from './schema.js';

export interface ObjectCheck {
  /** The first type mismatch, worded like Go's JSON decoder, or undefined. */
  typeError: string | undefined;
  /** That mismatch: the value found and the schema it should have met (for other wordings). */
  typeMismatch?: { value: unknown; expected: Schema };
  /** Paths of fields the schema does not declare, in document order. */
  unknownFields: string[];
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

function goType(schema: Schema): string {
  if (schema['x-kubernetes-int-or-string']) return 'intstr.IntOrString';
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
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  switch (schema.type) {
    case 'object':
      return jsonType(value) === 'object';
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

/** Checks `value` against `schema` (usually a kind's top-level schema). */
export function checkObject(value: unknown, schema: Schema, defs: SchemaDefinitions = definitions): ObjectCheck {
  const result: ObjectCheck = { typeError: undefined, unknownFields: [] };

  const walk = (v: unknown, s: Schema | undefined, path: string): void => {
    const resolved = resolve(s, defs);
    if (!resolved || v === null || v === undefined) return;
    if (!typeMatches(v, resolved)) {
      if (result.typeError === undefined) {
        result.typeError = `json: cannot unmarshal ${jsonType(v) === 'boolean' ? 'bool' : jsonType(v)} into Go struct field ${path || '.'} of type ${goType(resolved)}`;
        result.typeMismatch = { value: v, expected: resolved };
      }
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, resolved.items, `${path}[${i}]`));
      return;
    }
    if (jsonType(v) !== 'object' || resolved['x-kubernetes-int-or-string']) return;
    const props = resolved.properties;
    const extra = resolved.additionalProperties;
    for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
      const childPath = path ? `${path}.${key}` : key;
      const declared = props?.[key];
      if (declared) walk(child, declared, childPath);
      else if (extra && typeof extra === 'object') walk(child, extra, childPath);
      else if (extra !== true && !resolved['x-kubernetes-preserve-unknown-fields'] && (props || resolved.type === 'object')) {
        result.unknownFields.push(childPath);
      }
    }
  };

  walk(value, schema, '');
  return result;
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
