import { describe, expect, it } from 'vitest';
import { applyDefaults, validateAgainstSchema } from './schema-validation.js';
import type { JSONSchemaProps } from './types.js';

const spec: JSONSchemaProps = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' },
    size: { type: 'integer', minimum: 1, maximum: 1e6, default: 3 },
    ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1e6 },
    color: { type: 'string', enum: ['red', 'blue', 7] },
    port: { 'x-kubernetes-int-or-string': true },
    when: { type: 'string', format: 'date-time' },
    items: { type: 'array', maxItems: 1, items: { type: 'object', properties: { p: { type: 'string', default: 'TCP' } } } },
    box: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    maybe: { type: 'string', nullable: true },
    never: { type: 'string' },
  },
};

describe('validateAgainstSchema', () => {
  it.each([
    [{ name: 'ab' }, []],
    [{}, ['spec.name: Required value']],
    [{ name: 5 }, ['spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"']],
    [{ name: 'ABC' }, [`spec.name: Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`]],
    [{ name: 'a' }, ['spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long']],
    [{ name: 'abcde' }, ['spec.name: Too long: may not be more than 4 bytes']],
    [{ name: 'ab', size: 2e6 }, ['spec.size: Invalid value: 2000000: spec.size in body should be less than or equal to 1000000']],
    [{ name: 'ab', size: 1.5 }, ['spec.size: Invalid value: "number": spec.size in body must be of type integer: "number"']],
    [{ name: 'ab', ratio: 0 }, ['spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0']],
    [{ name: 'ab', ratio: -0.5 }, ['spec.ratio: Invalid value: -0.5: spec.ratio in body should be greater than 0']],
    [{ name: 'ab', ratio: 1 }, []],
    [{ name: 'ab', ratio: 1e6 + 0.5 }, ['spec.ratio: Invalid value: 1.0000005e+06: spec.ratio in body should be less than or equal to 1e+06']],
    [{ name: 'ab', color: 'pink' }, ['spec.color: Unsupported value: "pink": supported values: "red", "blue", "7"']],
    [{ name: 'ab', port: true }, ['spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']],
    [{ name: 'ab', when: '2026-12-02T10:00:00Z' }, []],
    [{ name: 'ab', when: 'soon' }, ['spec.when: Invalid value: "soon": spec.when in body must be of type date-time: "soon"']],
    [{ name: 'ab', items: [{}, {}] }, ['spec.items: Too many: 2: must have at most 1 items']],
    [{ name: 'ab', box: { a: 1 } }, ['spec.box.apiVersion: Required value: must not be empty', 'spec.box.kind: Required value: must not be empty']],
    [{ name: 'ab', maybe: null }, []],
    [{ name: 'ab', never: undefined }, []],
    [{ name: undefined }, ['spec.name: Required value']],
    [{ name: 'ab', never: null }, ['spec.never: Invalid value: "null": spec.never in body must be of type string: "null"']],
  ])('%j → %j', (value, expected) => {
    expect(validateAgainstSchema(value, spec, 'spec').map((e) => `${e.field}: ${e.message}`)).toEqual(expected);
  });
});

describe('applyDefaults', () => {
  it('fills missing properties, items included, and drops nulls the schema does not allow', () => {
    const value = { name: 'ab', items: [{}, { p: 'UDP' }], maybe: null, never: null };
    applyDefaults(value, spec);
    expect(value).toEqual({ name: 'ab', size: 3, items: [{ p: 'TCP' }, { p: 'UDP' }], maybe: null });
  });
});
