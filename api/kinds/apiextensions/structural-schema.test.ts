import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from './crd-validation.js';
import type { CustomResourceDefinition, JSONSchemaProps } from './types.js';

/** A valid CRD whose version has `root` as its schema. */
function crdWith(root: JSONSchemaProps): CustomResourceDefinition {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root } }],
    },
    status: { storedVersions: ['v1'] },
  };
}

const ROOT = 'spec.versions[0].schema.openAPIV3Schema';
/** The path of `spec` in a schema made by `withSpec`. */
const P = `${ROOT}.properties[spec]`;
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });

function messages(root: JSONSchemaProps): string[] {
  return validateCustomResourceDefinition(crdWith(root)).map((e) => `${e.field}: ${e.message}`);
}

const mapList = (items: JSONSchemaProps, keys = ['name']): JSONSchemaProps => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items });
const named: JSONSchemaProps = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } };

describe('structural schema checks, with kube-apiserver wording', () => {
  it.each<[string, JSONSchemaProps, string[]]>([
    // x-kubernetes-list-type and x-kubernetes-list-map-keys
    [
      'an unknown list type',
      withSpec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }),
      [`${P}.x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`],
    ],
    ['a list type on a string', withSpec({ type: 'string', 'x-kubernetes-list-type': 'atomic' }), [`${P}.type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`]],
    ['a map list without keys', withSpec(mapList(named, [])), [`${P}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]],
    [
      'map keys without a list type',
      withSpec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['name'] }),
      [`${P}.x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`],
    ],
    [
      'map keys on a set',
      withSpec({ type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-list-map-keys': ['name'] }),
      [`${P}.x-kubernetes-list-type: Invalid value: "set": must be map if x-kubernetes-list-map-keys is non-empty`],
    ],
    ['a map key that is no item property', withSpec(mapList(named, ['id'])), [`${P}.x-kubernetes-list-map-keys: Invalid value: ["id"]: entries must all be names of item properties`]],
    ['a map key given twice', withSpec(mapList(named, ['name', 'name'])), [`${P}.x-kubernetes-list-map-keys: Invalid value: ["name","name"]: must not contain duplicate entries`]],
    [
      'a map key that is an object',
      withSpec(mapList({ type: 'object', required: ['name'], properties: { name: { type: 'object', properties: { first: { type: 'string' } } } } })),
      [`${P}.items.properties[name].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`],
    ],
    [
      'a map key neither required nor defaulted',
      withSpec(mapList({ type: 'object', properties: { name: { type: 'string' } } })),
      [`${P}.items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`],
    ],
    [
      'a nullable map key',
      withSpec(mapList({ type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } })),
      [`${P}.items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`],
    ],
    ['map list items that are strings', withSpec(mapList({ type: 'string' })), [`${P}.items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`]],
    [
      'nullable set items',
      withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } }),
      [`${P}.items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`],
    ],
    [
      'a set of granular objects',
      withSpec({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } }),
      [`${P}.items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`],
    ],
    // x-kubernetes-map-type
    ['an unknown map type', withSpec({ type: 'object', 'x-kubernetes-map-type': 'loose' }), [`${P}.x-kubernetes-map-type: Unsupported value: "loose": supported values: "atomic", "granular"`]],
    ['a map type on a string', withSpec({ type: 'string', 'x-kubernetes-map-type': 'atomic' }), [`${P}.type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`]],
    // x-kubernetes-int-or-string
    [
      'int-or-string with types in anyOf other than kube’s pattern',
      withSpec({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] }),
      [`${P}.anyOf[0].type: Forbidden: must be empty to be structural`, `${P}.anyOf[1].type: Forbidden: must be empty to be structural`],
    ],
    [
      'int-or-string that preserves unknown fields',
      withSpec({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }),
      [`${P}.x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`],
    ],
    // x-kubernetes-embedded-resource and x-kubernetes-preserve-unknown-fields
    [
      'an embedded resource that is a string',
      withSpec({ type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
      [`${P}.type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`],
    ],
    [
      'an embedded resource without type',
      withSpec({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
      [`${P}.type: Required value: must be object if x-kubernetes-embedded-resource is true`],
    ],
    [
      'an embedded resource without properties that prunes',
      withSpec({ type: 'object', 'x-kubernetes-embedded-resource': true }),
      [`${P}.properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`],
    ],
    ['x-kubernetes-preserve-unknown-fields: false', withSpec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }), [`${P}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]],
    // what allOf, anyOf, oneOf and not may hold
    ['a type inside allOf', withSpec({ type: 'string', allOf: [{ type: 'string', minLength: 1 }] }), [`${P}.allOf[0].type: Forbidden: must be empty to be structural`]],
    [
      'a list type inside oneOf',
      withSpec({ type: 'array', items: { type: 'string' }, oneOf: [{ 'x-kubernetes-list-type': 'set' }] }),
      [`${P}.oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`, `${P}.oneOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`],
    ],
    [
      'a default and a description inside not',
      withSpec({ type: 'string', not: { default: 'a', description: 'no' } }),
      [`${P}.not.default: Forbidden: must be undefined to be structural`, `${P}.not.description: Forbidden: must be empty to be structural`],
    ],
    // kube checks only the root's combinators for this.
    [
      'a field named only inside anyOf at the root',
      { type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ properties: { status: { minProperties: 1 } } }] },
      [`${ROOT}.properties[status]: Required value: because it is defined in ${ROOT}.anyOf[0].properties[status]`],
    ],
    ['metadata inside allOf', { type: 'object', allOf: [{ properties: { metadata: {} } }] }, [`${ROOT}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`, `${ROOT}.properties[metadata]: Required value: because it is defined in ${ROOT}.allOf[0].properties[metadata]`]],
    // the root and its metadata
    [
      'root metadata restricting labels',
      { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } } } },
      [`${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`],
    ],
    ['a default in root metadata', { type: 'object', properties: { metadata: { type: 'object', default: {} } } }, [`${ROOT}.properties[metadata].default: Forbidden: must not be set in top-level metadata`]],
    ['additionalProperties at the root', { type: 'object', additionalProperties: { type: 'string' } }, [`${ROOT}.additionalProperties: Forbidden: must not be used at the root`]],
    ['a nullable root', { type: 'object', nullable: true }, [`${ROOT}.nullable: Forbidden: nullable cannot be true at the root`]],
    ['an array without items', withSpec({ type: 'array' }), [`${P}.items: Required value: must be specified`]],
    ['an unknown type', withSpec({ type: 'map' }), [`${P}.type: Unsupported value: "map": supported values: "array", "boolean", "integer", "number", "object", "string"`]],
    // defaults
    ['a default of the wrong type', withSpec({ type: 'integer', default: 'x' }), [`${P}.default: Invalid value: "string":  in body must be of type integer: "string"`]],
    ['a default over the maximum', withSpec({ type: 'integer', maximum: 5, default: 10 }), [`${P}.default: Invalid value: 10:  in body should be less than or equal to 5`]],
    ['a default outside the enum of a field', withSpec({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } }, default: { a: 'y' } }), [`${P}.default.a: Unsupported value: "y": supported values: "x"`]],
    ['a default with unknown fields', withSpec({ type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } }), [`${P}.default: Invalid value: {"a":"x","b":1}: must not have unknown fields`]],
  ])('refuses %s', (_what, root, want) => {
    expect(messages(root)).toEqual(want);
  });

  it.each<[string, JSONSchemaProps]>([
    ['a map list keyed by a required or defaulted scalar', withSpec(mapList({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, proto: { type: 'string', default: 'TCP' } } }, ['name', 'proto']))],
    ['a set of scalars and a set of atomic objects', withSpec({ type: 'object', properties: { s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, o: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic' } } } })],
    ['int-or-string in kube’s anyOf and allOf patterns', withSpec({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, b: { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: 'abc' }] } } })],
    ['root metadata restricting name and generateName', { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 }, generateName: { type: 'string' } } } } }],
    ['valid defaults, nested and in items', withSpec({ type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 3 }, l: { type: 'array', items: { type: 'object', properties: { p: { type: 'string', default: 'TCP' } } }, default: [{ p: 'UDP' }] } } })],
    ['an embedded resource with a default naming its kind', withSpec({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } })],
  ])('accepts %s', (_what, root) => {
    expect(messages(root)).toEqual([]);
  });
});
