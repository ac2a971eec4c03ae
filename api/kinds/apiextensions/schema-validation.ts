/**
 * A custom resource checked against its version's structural schema, as kube-apiserver does with
 * kube-openapi's validator (`apiextensions-apiserver/pkg/apiserver/validation`): each failure is a
 * field error worded as kube-openapi words it (`spec.replicas in body should be less than or equal
 * to 10`) and typed as `kubeOpenAPIResultToFieldErrors` maps it (Required, NotSupported for enums,
 * TooLong, TooMany, TypeInvalid, Invalid otherwise). Wrong types are found here (422), not by the
 * decoder: a custom resource decodes as any JSON.
 *
 * @example
 *   validateAgainstSchema({ spec: { replicas: 20 } }, schema, '')
 *   // [{ field: 'spec.replicas', message: 'Invalid value: 20: spec.replicas in body should be less than or equal to 10', ... }]
 */
import { fieldErrors, goFloat, type FieldError } from '../../registry/field-error.js';
import type { JSONSchemaProps } from './types.js';

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** kube-openapi's name of a JSON value's type: integral numbers are integers. */
function dataType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** A bound as kube-openapi prints it: against integer data as an int64, against other numbers as a float64. */
function bound(n: number, data: number): string {
  return Number.isInteger(data) ? String(Math.trunc(n)) : goFloat(n);
}

/** Go's `%q` of a string, which JSON's quoting matches for printable text. */
const goQuote = (s: string): string => JSON.stringify(s);

const patterns = new Map<string, RegExp>();

/** A schema's pattern, compiled once (the CRD was refused if it does not compile). */
export function compiledPattern(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) patterns.set(pattern, (re = new RegExp(pattern)));
  return re;
}

const FORMATS: Record<string, (s: string) => boolean> = {
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s.replace(' ', 'T'))),
  datetime: (s) => FORMATS['date-time']!(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
  byte: (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s),
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  ipv4: (s) => /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s),
  ipv6: (s) => s.includes(':') && /^[0-9a-fA-F:.]+$/.test(s) && s.split('::').length <= 2,
  cidr: (s) => {
    const [ip, bits, ...rest] = s.split('/');
    if (rest.length > 0 || bits === undefined || !/^\d+$/.test(bits)) return false;
    return FORMATS['ipv4']!(ip!) ? Number(bits) <= 32 : FORMATS['ipv6']!(ip!) && Number(bits) <= 128;
  },
  hostname: (s) => s.length <= 255 && /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
  uri: (s) => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s),
  mac: (s) => /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(s),
  duration: (s) => /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+$/.test(s),
};

/**
 * The schema's failures for `value` at `path` (kube-openapi's validator order: type, the schema
 * combinators, string, format, number, array, enum, object).
 */
export function validateAgainstSchema(value: unknown, schema: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = schema['x-kubernetes-int-or-string'] ? 'integer,string' : schema.type;
  if (value === null || value === undefined) {
    if (type && !schema.nullable) errors.push(fieldErrors.typeInvalid(path, 'null', `${path} in body must be of type ${type}: "null"`));
    return errors;
  }
  const found = dataType(value);
  if (type) {
    const accepted = type.split(',');
    const fits = accepted.includes(found) || (found === 'integer' && accepted.includes('number'));
    if (!fits) {
      errors.push(fieldErrors.typeInvalid(path, found, `${path} in body must be of type ${type}: ${goQuote(found)}`));
      return errors;
    }
  }
  for (const sub of schema.allOf ?? []) errors.push(...validateAgainstSchema(value, sub, path));
  if (schema.anyOf?.length && !schema.anyOf.some((sub) => validateAgainstSchema(value, sub, path).length === 0)) {
    errors.push(fieldErrors.invalid(path, '', `${path} in body must validate at least one schema (anyOf)`));
  }
  if (schema.oneOf?.length && schema.oneOf.filter((sub) => validateAgainstSchema(value, sub, path).length === 0).length !== 1) {
    errors.push(fieldErrors.invalid(path, '', `${path} in body must validate one and only one schema (oneOf)`));
  }
  if (schema.not && validateAgainstSchema(value, schema.not, path).length === 0) {
    errors.push(fieldErrors.invalid(path, '', `${path} in body must not validate the schema (not)`));
  }
  if (typeof value === 'string') {
    const runes = [...value].length;
    if (typeof schema.maxLength === 'number' && runes > schema.maxLength) errors.push(fieldErrors.tooLong(path, schema.maxLength));
    if (typeof schema.minLength === 'number' && runes < schema.minLength) errors.push(fieldErrors.invalid(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
    if (typeof schema.pattern === 'string' && !compiledPattern(schema.pattern).test(value)) errors.push(fieldErrors.invalid(path, value, `${path} in body should match '${schema.pattern}'`));
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (format && !format(value)) errors.push(fieldErrors.typeInvalid(path, value, `${path} in body must be of type ${schema.format}: ${goQuote(value)}`));
  }
  if (typeof value === 'number') {
    const { multipleOf, maximum, minimum, exclusiveMaximum, exclusiveMinimum } = schema as { multipleOf?: number; maximum?: number; minimum?: number; exclusiveMaximum?: boolean; exclusiveMinimum?: boolean };
    if (typeof multipleOf === 'number' && multipleOf > 0 && !Number.isInteger(value / multipleOf)) errors.push(fieldErrors.invalid(path, value, `${path} in body should be a multiple of ${bound(multipleOf, value)}`));
    if (typeof maximum === 'number' && (exclusiveMaximum ? value >= maximum : value > maximum)) {
      errors.push(fieldErrors.invalid(path, value, `${path} in body should be less than ${exclusiveMaximum ? '' : 'or equal to '}${bound(maximum, value)}`));
    }
    if (typeof minimum === 'number' && (exclusiveMinimum ? value <= minimum : value < minimum)) {
      errors.push(fieldErrors.invalid(path, value, `${path} in body should be greater than ${exclusiveMinimum ? '' : 'or equal to '}${bound(minimum, value)}`));
    }
  }
  if (Array.isArray(value)) {
    const items = schema.items && !Array.isArray(schema.items) ? schema.items : undefined;
    if (items) value.forEach((item, i) => errors.push(...validateAgainstSchema(item, items, `${path}[${i}]`)));
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errors.push(fieldErrors.invalid(path, value.length, `${path} in body should have at least ${schema.minItems} items`));
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errors.push(fieldErrors.tooMany(path, value.length, schema.maxItems));
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => JSON.stringify(allowed) === JSON.stringify(value))) {
    errors.push(fieldErrors.notSupported(path, value, schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))));
  }
  if (found === 'object' && schema['x-kubernetes-embedded-resource']) {
    // An embedded object must say what it is (apiextensions' objectmeta validation).
    for (const field of ['apiVersion', 'kind']) {
      const typeMeta = (value as Record<string, unknown>)[field];
      if (typeof typeMeta !== 'string' || typeMeta === '') errors.push(fieldErrors.required(join(path, field), 'must not be empty'));
    }
  }
  if (found === 'object' && !schema['x-kubernetes-int-or-string']) errors.push(...validateObject(value as Record<string, unknown>, schema, path));
  return errors;
}

function validateObject(object: Record<string, unknown>, schema: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const count = Object.keys(object).length;
  if (typeof schema.maxProperties === 'number' && count > schema.maxProperties) errors.push(fieldErrors.tooMany(path, count, schema.maxProperties));
  if (typeof schema.minProperties === 'number' && count < schema.minProperties) errors.push(fieldErrors.invalid(path, count, `${path} in body should have at least ${schema.minProperties} properties`));
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(object)) {
    // A property set to undefined in memory is absent from the JSON.
    if (child === undefined) continue;
    const declared = schema.properties?.[key] ?? additional;
    // metadata is ObjectMeta's, checked by the generic store; the schema may only narrow name and generateName.
    if (declared && !(path === '' && key === 'metadata')) errors.push(...validateAgainstSchema(child, declared, join(path, key)));
  }
  // Missing required fields come last, as kube-openapi's object validator reports them.
  for (const name of (schema.required as string[] | undefined) ?? []) if (object[name] === undefined) errors.push(fieldErrors.required(join(path, name)));
  return errors;
}

/**
 * Fills the schema's defaults in place, as kube-apiserver's structural defaulting does on every
 * decode (requests and storage): a missing property with a default gets it (copied), inside
 * objects that exist, array items and map values included; a null where the schema is not
 * nullable is dropped first (or defaulted).
 */
export function applyDefaults(value: unknown, schema: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    const items = schema.items && !Array.isArray(schema.items) ? schema.items : undefined;
    if (items) for (const item of value) applyDefaults(item, items);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (object[key] === null && !prop.nullable) delete object[key];
    if (object[key] === undefined && prop.default !== undefined) object[key] = structuredClone(prop.default);
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [key, child] of Object.entries(object)) {
    const declared = schema.properties?.[key] ?? additional;
    if (declared) applyDefaults(child, declared);
  }
}
