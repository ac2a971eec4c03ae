/**
 * The defaults of a structural schema checked as kube-apiserver checks them when a CRD is written
 * (`apiextensions-apiserver/pkg/apiserver/schema/defaulting/validation.go`): each default must be
 * pruned already (no field its schema would drop) and valid against its own schema, errors at
 * `<path>.default`. Defaults inside a resource's metadata, apiVersion or kind are not checked
 * here: at the root they are refused outright, and in embedded resources kube checks them as
 * ObjectMeta, which this server does not do yet.
 *
 * @example
 *   validateDefaults({ type: 'object', properties: { n: { type: 'integer', default: 'x' } } }, 'p')
 *   // [{ field: 'p.properties[n].default', message: 'Invalid value: "string":  in body must be of type integer: "string"', … }]
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { checkObject } from '../../schema/check-object.js';
import type { Schema } from '../../schema/schema.js';
import { child, key } from '../../validation/field-path.js';
import { withEmbeddedTypeMeta } from './custom-resource.js';
import { validateAgainstSchema } from './schema-validation.js';
import type { JSONSchemaProps } from './types.js';

const RESOURCE_META = new Set(['apiVersion', 'kind', 'metadata']);

/** kube-openapi's errors for the default are named from the default itself: `<path>.default.<field>`. */
function underDefault(errors: FieldError[], defaultPath: string): FieldError[] {
  return errors.map((e) => ({ ...e, field: e.field ? `${defaultPath}.${e.field}` : defaultPath }));
}

function checkDefault(s: JSONSchemaProps, path: string): FieldError[] {
  const defaultPath = child(path, 'default');
  const errors: FieldError[] = [];
  // Pruning keeps what the schema declares; an embedded resource also keeps apiVersion, kind and metadata.
  if (checkObject(s.default, withEmbeddedTypeMeta(s as Schema)).unknownFields.length > 0) errors.push(fieldErrors.invalid(defaultPath, s.default, 'must not have unknown fields'));
  errors.push(...underDefault(validateAgainstSchema(s.default, s, ''), defaultPath));
  return errors;
}

/** `insideMeta`: `s` is (part of) a resource's apiVersion, kind or metadata. */
function walk(s: JSONSchemaProps, path: string, resource: boolean, insideMeta: boolean): FieldError[] {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const meta = insideMeta && !embedded;
  const errors = s.default !== undefined && s.default !== null && !meta ? checkDefault(s, path) : [];
  // As kube, additionalProperties are not followed.
  if (s.items && !Array.isArray(s.items)) errors.push(...walk(s.items, child(path, 'items'), false, meta));
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    errors.push(...walk(prop, key(child(path, 'properties'), name), false, meta || ((resource || embedded) && RESOURCE_META.has(name))));
  }
  return errors;
}

/** The schema's default errors; `schema` is a version's root, itself a resource. */
export function validateDefaults(schema: JSONSchemaProps, path: string): FieldError[] {
  return walk(schema, path, true, false);
}
