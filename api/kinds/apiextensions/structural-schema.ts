/**
 * Whether a CRD version's schema is structural, as kube-apiserver decides it
 * (`apiextensions-apiserver/pkg/apiserver/schema/validation.go` and `complete.go`):
 * - every specified value has a `type` (unless it preserves unknown fields or is int-or-string);
 *   arrays have `items`; the root is an object without `additionalProperties`;
 * - inside `allOf`, `anyOf`, `oneOf` and `not` only value validations appear: no `type`,
 *   `default`, `title`, `description`, `nullable`, `additionalProperties`, `x-kubernetes-*` or
 *   `metadata`, except kube's int-or-string pattern (`anyOf: [{type: integer}, {type: string}]`,
 *   alone or first in an `allOf`);
 * - a field or array item named in the root's combinators is also specified outside them (kube
 *   checks only the root's);
 * - embedded resources are objects; the root `metadata` only restricts name and generateName.
 * Errors are sorted by their text, as kube sorts them.
 *
 * @example
 *   validateStructural({ type: 'object', properties: { a: {} } }, 'spec.versions[0].schema.openAPIV3Schema')
 *   // [{ field: '….properties[a].type', message: 'Required value: must not be empty for specified object fields', … }]
 */
import { isDeepStrictEqual } from 'node:util';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index, key } from '../../validation/field-path.js';
import { compiledPattern } from './schema-validation.js';
import type { JSONSchemaProps } from './types.js';

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** The two `anyOf` branches kube allows a `type` in, for int-or-string values. */
const INT_OR_STRING_ANY_OF = [{ type: 'integer' }, { type: 'string' }];

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (s.items && !Array.isArray(s.items) ? s.items : undefined);
const propertiesOf = (s: JSONSchemaProps): Array<[string, JSONSchemaProps]> => Object.entries(s.properties ?? {});

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  return isDeepStrictEqual(anyOf, INT_OR_STRING_ANY_OF);
}

/** The checks of a node outside the combinators (kube's `validateStructuralInvariants`). */
function invariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const items = itemsOf(s);
  if (s.type === 'array' && !s.items) errors.push(fieldErrors.required(child(path, 'items'), 'must be specified'));
  if (items) errors.push(...invariants(items, 'item', child(path, 'items')));
  for (const [name, prop] of propertiesOf(s)) errors.push(...invariants(prop, 'field', key(child(path, 'properties'), name)));
  if (s.additionalProperties !== undefined) {
    if (level === 'root') errors.push(fieldErrors.forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') errors.push(...invariants(s.additionalProperties, 'field', child(path, 'additionalProperties')));
  }

  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errors.push(fieldErrors.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errors.push(fieldErrors.invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));

  const firstAllOf = s.allOf?.[0];
  errors.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), isIntOrStringAnyOf(firstAllOf?.anyOf), level, path));

  if (embedded && s.type !== 'object') errors.push(typeMustBe(path, s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  else if (!s.type && !intOrString && !preserve) errors.push(fieldErrors.required(child(path, 'type'), EMPTY_TYPE[level]));
  if (embedded && s.additionalProperties !== undefined) errors.push(fieldErrors.forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && s.type && s.type !== 'object') errors.push(fieldErrors.invalid(child(path, 'type'), s.type, 'must be object at the root'));

  // An object that is a resource (the root, or an embedded one) has a string kind and apiVersion and an object metadata.
  const resource = level === 'root' || embedded;
  for (const typeMeta of ['kind', 'apiVersion']) {
    const prop = s.properties?.[typeMeta];
    if (resource && prop && prop.type !== 'string') errors.push(fieldErrors.invalid(child(key(child(path, 'properties'), typeMeta), 'type'), prop.type ?? '', 'must be string'));
  }
  const metadata = s.properties?.['metadata'];
  if (metadata) errors.push(...metadataInvariants(metadata, resource, level, key(child(path, 'properties'), 'metadata')));

  if (embedded && !preserve && propertiesOf(s).length === 0) {
    errors.push(fieldErrors.required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errors;
}

function typeMustBe(path: string, type: string | undefined, detail: string): FieldError {
  return type ? fieldErrors.invalid(child(path, 'type'), type, detail) : fieldErrors.required(child(path, 'type'), detail);
}

/** What the root `metadata` schema may say besides restricting name and generateName. */
const ROOT_METADATA_KEYS = new Set(['type', 'default', 'properties', 'example', 'externalDocs']);

function metadataInvariants(s: JSONSchemaProps, resource: boolean, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resource && s.type !== 'object') errors.push(fieldErrors.invalid(child(path, 'type'), s.type ?? '', 'must be object'));
  if (level === 'root') {
    // ObjectMeta is validated by the server: a schema may only narrow name and generateName.
    const names = Object.keys(s.properties ?? {});
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    if (!onlyNames || Object.keys(s).some((k) => !ROOT_METADATA_KEYS.has(k))) {
      errors.push(fieldErrors.forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errors;
}

/** kube's `validateValueValidation`: the combinators of a node, and its pattern. */
function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!skipAnyOf) (s.anyOf ?? []).forEach((v, i) => errors.push(...nested(v, false, level, index(child(path, 'anyOf'), i))));
  (s.allOf ?? []).forEach((v, i) => errors.push(...nested(v, skipFirstAllOfAnyOf && i === 0, level, index(child(path, 'allOf'), i))));
  (s.oneOf ?? []).forEach((v, i) => errors.push(...nested(v, false, level, index(child(path, 'oneOf'), i))));
  if (s.not) errors.push(...nested(s.not, false, level, child(path, 'not')));
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    try {
      compiledPattern(s.pattern);
    } catch (err) {
      errors.push(fieldErrors.invalid(child(path, 'pattern'), s.pattern, `must be a valid regular expression, but isn't: ${(err as Error).message}`));
    }
  }
  return errors;
}

/** What a schema inside a combinator must leave empty, and kube's word for each. */
const FORBIDDEN_NESTED: Array<[keyof JSONSchemaProps & string, (v: unknown) => boolean, string]> = [
  ['type', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['additionalProperties', (v) => v !== undefined, 'must be undefined to be structural'],
  ['default', (v) => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['title', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['description', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['nullable', (v) => v === true, 'must be false to be structural'],
  ['externalDocs', (v) => v !== undefined, 'must be undefined to be structural'],
  ['x-kubernetes-preserve-unknown-fields', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', (v) => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
  ['x-kubernetes-list-type', (v) => v !== undefined, 'must be undefined to be structural'],
  ['x-kubernetes-map-type', (v) => v !== undefined, 'must be undefined to be structural'],
  ['x-kubernetes-validations', (v) => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
];

/** kube's `validateNestedValueValidation`: a schema under a combinator. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, level: Level, path: string): FieldError[] {
  const errors = valueValidation(v, skipAnyOf, false, level, path);
  const items = itemsOf(v);
  if (items) errors.push(...nested(items, false, level, child(path, 'items')));
  for (const [name, prop] of propertiesOf(v)) errors.push(...nested(prop, false, 'field', key(child(path, 'properties'), name)));
  for (const [field, present, detail] of FORBIDDEN_NESTED) if (present(v[field])) errors.push(fieldErrors.forbidden(child(path, field), detail));
  if (v.properties?.['metadata']) errors.push(fieldErrors.forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errors;
}

/**
 * kube's `validateStructuralCompleteness`: a field or items named inside a combinator of `s`
 * must be specified in `s` itself, at `sPath`.
 */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errors: FieldError[] = [];
  if (v.not) errors.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
    (v[combinator] ?? []).forEach((sub, i) => errors.push(...nestedCompleteness(sub, s, sPath, index(child(vPath, combinator), i))));
  }
  return errors;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [fieldErrors.required(sPath, `because it is defined in ${vPath}`)];
  const errors = completeness(v, s, sPath, vPath);
  const items = itemsOf(v);
  if (items) errors.push(...nestedCompleteness(items, itemsOf(s), child(sPath, 'items'), child(vPath, 'items')));
  for (const [name, prop] of propertiesOf(v)) {
    errors.push(...nestedCompleteness(prop, s.properties?.[name], key(child(sPath, 'properties'), name), key(child(vPath, 'properties'), name)));
  }
  return errors;
}

/** The schema's structural errors at `path`, sorted as kube-apiserver sorts them. */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  const errors = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  const text = (e: FieldError): string => `${e.field}: ${e.message}`;
  return errors.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}
