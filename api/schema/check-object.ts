/**
 * Checks a decoded JSON body against its kind's schema the way kube-apiserver's decoder does for
 * built-in kinds: a value of the wrong JSON type is a decode error (400 BadRequest), and fields the
 * schema does not know are collected so `fieldValidation` can refuse (Strict), warn (Warn) or drop
 * them silently (Ignore). We walk the schema ourselves instead of using ajv here because the
 * decoder's answers need exact field paths (`spec.containers[0].foo`), which a walk gives directly.
 */
import { goTimeParseError, type GoTimeLayout } from '../validation/go-time.js';
import { goJsonValueName } from './json-syntax.js';
import { canonicalQuantity, QUANTITY_FORMAT_ERROR } from '../validation/quantity.js';
import { definitions, QUANTITY, refName, resolve, type Schema, type SchemaDefinitions } from './schema.js';

export interface ObjectCheck {
  /** The first type mismatch, worded like Go's JSON decoder, or undefined. */
  typeError: string | undefined;
  /** Where that mismatch is (`spec.replicas`). */
  typePath?: string;
  /** That mismatch: the value found and the schema it should have met (for other wordings). */
  typeMismatch?: { value: unknown; expected: Schema };
  /** Paths of fields the schema does not declare, in document order. */
  unknownFields: string[];
  /** Where the value holds a Quantity, for `canonicalizeDecoded`. */
  quantities: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number }>;
  /** Nulls in a map or list of scalars, which Go decodes as the zero value (`labels: {a: null}` is `a: ""`), with that value. */
  zeroed: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number; zero: string | number | boolean }>;
}

/** The layouts `metav1.Time` and `metav1.MicroTime` parse their text with. */
const TIME_LAYOUTS = new Map<string, GoTimeLayout>([
  ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', 'seconds'],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', 'micro'],
]);

/** Go's zero value of a scalar schema as its JSON encoder writes it, or undefined for other schemas. */
function goZeroValue(schema: Schema): string | number | boolean | undefined {
  if (schema[QUANTITY]) return '0';
  if (schema['x-kubernetes-int-or-string']) return 0;
  switch (schema.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** The component a field's schema names (`$ref`, possibly described by an `allOf`), e.g. `io.k8s.api.core.v1.PodSpec`. */
function componentName(declared: Schema): string | undefined {
  return refName(declared) ?? (declared.allOf?.length === 1 ? refName(declared.allOf[0]!) : undefined);
}

/**
 * The Go type of a field declared by `declared` (a `$ref`, possibly described by an `allOf`, or the
 * schema itself), as Go's decoder names it: a named struct by its package and name
 * (`io.k8s.api.core.v1.PodSpec` → `v1.PodSpec`).
 */
function goType(declared: Schema, defs: SchemaDefinitions): string {
  const schema = resolve(declared, defs) ?? {};
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
      return '[]' + (schema.items ? goType(schema.items, defs) : 'interface {}');
    case 'object': {
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') return 'map[string]' + goType(schema.additionalProperties, defs);
      const name = componentName(declared);
      return name === undefined ? 'struct' : name.split('.').slice(-2).join('.');
    }
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
      return goJsonValueName(value) === 'object';
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
/**
 * Go's decoder error for `value` in a field declared by `declared`. The decoder names the field by
 * the struct that holds it and the JSON names of the struct fields leading there, without list
 * indices or map keys (`Container.spec.template.spec.containers.image`).
 */
function typeErrorOf(value: unknown, declared: Schema, defs: SchemaDefinitions, field: GoField): string {
  if (resolve(declared, defs)?.[QUANTITY]) return QUANTITY_FORMAT_ERROR;
  const type = goType(declared, defs);
  const found = typeof value === 'number' && type.startsWith('int') ? `number ${value}` : goJsonValueName(value);
  return `json: cannot unmarshal ${found} into Go struct field ${field.struct}.${field.path} of type ${type}`;
}

/** Where Go's decoder is, for its errors: the struct whose field it decodes and the struct fields' JSON names from the top. */
interface GoField {
  struct: string;
  path: string;
}

/** Checks `value` against `schema` (usually a kind's top-level schema). */
export function checkObject(value: unknown, schema: Schema, defs: SchemaDefinitions = definitions): ObjectCheck {
  const result: ObjectCheck = { typeError: undefined, unknownFields: [], quantities: [], zeroed: [] };

  /** `element`: `v` is a list item or a map value (a null struct field is only absent). */
  const walk = (v: unknown, s: Schema | undefined, path: string, field: GoField, holder?: ObjectCheck['quantities'][number], element = false): void => {
    const resolved = resolve(s, defs);
    if (v === null && element && resolved && holder) {
      const zero = goZeroValue(resolved);
      if (zero !== undefined) result.zeroed.push({ ...holder, zero });
    }
    if (!resolved || v === null || v === undefined) return;
    if (!typeMatches(v, resolved)) {
      if (result.typeError === undefined) {
        result.typeError = typeErrorOf(v, s!, defs, field);
        result.typePath = path;
        result.typeMismatch = { value: v, expected: resolved };
      }
      return;
    }
    if (typeof v === 'string') {
      // Time and MicroTime decode by parsing their text: a string that is no timestamp fails the decode.
      const layout = TIME_LAYOUTS.get(componentName(s!) ?? '');
      const timeError = layout && goTimeParseError(v, layout);
      if (timeError) {
        result.typeError ??= timeError;
        return;
      }
    }
    if (resolved[QUANTITY] && holder) result.quantities.push(holder);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, resolved.items, `${path}[${i}]`, field, { holder: v, key: i }, true));
      return;
    }
    if (goJsonValueName(v) !== 'object' || resolved['x-kubernetes-int-or-string']) return;
    const props = resolved.properties;
    const extra = resolved.additionalProperties;
    const object = v as Record<string, unknown>;
    // The Go struct these fields belong to; an inline schema is taken for part of the one around it.
    const struct = componentName(s!)?.split('.').at(-1) ?? field.struct;
    for (const [key, child] of Object.entries(object)) {
      const childPath = path ? `${path}.${key}` : key;
      const declared = props?.[key];
      if (declared) walk(child, declared, childPath, { struct, path: field.path ? `${field.path}.${key}` : key }, { holder: object, key });
      else if (extra && typeof extra === 'object') walk(child, extra, childPath, field, { holder: object, key }, true);
      else if (extra !== true && !resolved['x-kubernetes-preserve-unknown-fields'] && (props || resolved.type === 'object')) {
        result.unknownFields.push(childPath);
      }
    }
  };

  walk(value, schema, '', { struct: '', path: '' });
  return result;
}

/**
 * Rewrites what Go's decoder changes in a body, as `checkObject` found it: null items and values of
 * scalar lists and maps become their zero value, and quantities their canonical form (`0.5` →
 * `"500m"`), as Go parses every Quantity and its encoder always writes the canonical string.
 * Malformed quantities are left for validation to refuse.
 */
export function canonicalizeDecoded(check: ObjectCheck): void {
  for (const { holder, key, zero } of check.zeroed) (holder as Record<string | number, unknown>)[key] = zero;
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
