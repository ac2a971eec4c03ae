/**
 * The `x-kubernetes-*` extensions of one schema node checked as kube-apiserver checks them when a
 * CRD is written (`ValidateCustomResourceDefinitionOpenAPISchema` and `validateMapListKeysMapSet`
 * in `apiextensions/validation/validation.go`): preserve-unknown-fields is true or unset; map types
 * are `granular` or `atomic`, on objects; list types are `atomic`, `set` or `map`, on arrays, a
 * set's items atomic; a `map` list has keys, which are scalar properties of its object items,
 * required or defaulted, never nullable.
 *
 * @example
 *   validateExtensions({ type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' } }, 'p')
 *   // [{ field: 'p.x-kubernetes-list-map-keys', message: 'Required value: must not be empty if x-kubernetes-list-type is map', … }]
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, key } from '../../validation/field-path.js';
import type { JSONSchemaProps } from './types.js';

function typeMustBe(path: string, type: string | undefined, detail: string): FieldError {
  return type ? fieldErrors.invalid(child(path, 'type'), type, detail) : fieldErrors.required(child(path, 'type'), detail);
}

/** A set compares whole items, so items that merge field by field cannot be in one. */
function setItemErrors(items: JSONSchemaProps, path: string): FieldError[] {
  const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
  const listType = items['x-kubernetes-list-type'];
  const mapType = items['x-kubernetes-map-type'];
  // kube reports the items' list type in both cases ("null" when unset).
  if (items.type === 'array' && listType !== undefined && listType !== 'atomic') return [fieldErrors.invalid(child(path, 'items', 'x-kubernetes-list-type'), listType, detail)];
  if (items.type === 'object' && mapType !== 'atomic') return [fieldErrors.invalid(child(path, 'items', 'x-kubernetes-map-type'), listType ?? 'null', detail)];
  return [];
}

function mapKeyErrors(s: JSONSchemaProps, items: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const keysPath = child(path, 'x-kubernetes-list-map-keys');
  const seen = new Set<string>();
  for (const k of keys) {
    const prop = items.properties?.[k];
    if (!prop) errors.push(fieldErrors.invalid(keysPath, keys, 'entries must all be names of item properties'));
    else if (prop.type === 'array' || prop.type === 'object') {
      // kube reports the items' type here, not the key's.
      errors.push(fieldErrors.invalid(child(key(child(path, 'items', 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    }
    if (seen.has(k)) errors.push(fieldErrors.invalid(keysPath, keys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errors;
}

/** kube's `validateMapListKeysMapSet`: set and map items are never null, nor are map keys, which are always there. */
function presenceErrors(s: JSONSchemaProps, items: JSONSchemaProps, listType: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (items.nullable === true) errors.push(fieldErrors.forbidden(child(path, 'items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errors;
  for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
    const prop = items.properties?.[k];
    if (!prop) continue;
    const propPath = key(child(path, 'items', 'properties'), k);
    if (!(items.required ?? []).includes(k) && prop.default === undefined) {
      errors.push(fieldErrors.required(child(propPath, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (prop.nullable === true) errors.push(fieldErrors.forbidden(child(propPath, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errors;
}

/** The extension errors of the node `s` at `path` (not of the nodes below it). */
export function validateExtensions(s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errors.push(fieldErrors.invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));

  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && s.type !== 'object') errors.push(typeMustBe(path, s.type, 'must be object if x-kubernetes-map-type is specified'));
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errors.push(fieldErrors.notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));

  const listType = s['x-kubernetes-list-type'];
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  if (listType !== undefined && s.type !== 'array') errors.push(typeMustBe(path, s.type, 'must be array if x-kubernetes-list-type is specified'));
  else if (listType === 'set' && items) errors.push(...setItemErrors(items, path));
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errors.push(fieldErrors.notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }

  if ((s['x-kubernetes-list-map-keys'] ?? []).length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errors.push(fieldErrors.required(child(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') errors.push(fieldErrors.invalid(child(path, 'x-kubernetes-list-type'), listType, detail));
  }
  if (listType === 'map') {
    if ((s['x-kubernetes-list-map-keys'] ?? []).length === 0) errors.push(fieldErrors.required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!s.items) errors.push(fieldErrors.required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') errors.push(fieldErrors.invalid(child(path, 'items', 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items && items.type === 'object') errors.push(...mapKeyErrors(s, items, path));
  }
  if (items && (listType === 'set' || listType === 'map')) errors.push(...presenceErrors(s, items, listType, path));
  return errors;
}
