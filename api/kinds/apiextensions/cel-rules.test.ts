import { describe, expect, it } from 'vitest';
import { compileRules, evaluateRules, validFieldPath } from './cel-rules.js';
import { validateCustomResourceDefinition } from './crd-validation.js';
import type { JSONSchemaProps } from './types.js';

const PATH = 'spec.validation.openAPIV3Schema';

function root(spec: JSONSchemaProps, extra: Record<string, unknown> = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec }, ...extra };
}

const messages = (schema: JSONSchemaProps): string[] => compileRules(schema, PATH).errors.map((e) => `${e.field}: ${e.message}`);

function failures(schema: JSONSchemaProps, obj: unknown, old?: unknown): string[] {
  const rules = compileRules(schema, PATH);
  expect(rules.errors).toEqual([]);
  return evaluateRules(rules, obj, old).map((e) => `${e.field}: ${e.message} (${e.type})`);
}

describe('compiling the rules of a CRD schema', () => {
  it('reports compile errors with kube-apiserver wording', () => {
    expect(messages(root({ type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.foo == 1' }] }))).toEqual([
      `${PATH}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.foo == 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'foo'\n | self.foo == 1\n | ....^`,
    ]);
    expect(messages(root({ type: 'integer', 'x-kubernetes-validations': [{ rule: 'self + 1' }] }))[0]).toMatch(/rule: Invalid value: .*: cel expression must evaluate to a bool$/);
  });

  it('checks the rule fields: empty rule, reason, fieldPath, messageExpression, optionalOldSelf', () => {
    const spec = { type: 'object', properties: { a: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } } };
    const r = (rule: Record<string, unknown>): string[] => messages(root({ ...spec, 'x-kubernetes-validations': [rule] }));
    const at = `${PATH}.properties[spec].x-kubernetes-validations[0]`;
    expect(r({ rule: ' ' })).toEqual([`${at}.rule: Required value: rule is not specified`]);
    expect(r({ rule: 'true', reason: 'Bad' })).toEqual([`${at}.reason: Unsupported value: "Bad": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`]);
    expect(r({ rule: 'true', fieldPath: '.b' })).toEqual([`${at}.fieldPath: Invalid value: ".b": fieldPath must be a valid path`]);
    expect(r({ rule: 'true', fieldPath: ".m['x.y']" })).toEqual([]);
    expect(r({ rule: 'true', messageExpression: '1' })[0]).toMatch(/messageExpression: Invalid value: .*: must evaluate to a string$/);
    expect(r({ rule: 'true', optionalOldSelf: true })).toEqual([`${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`]);
    expect(r({ rule: 'true', message: 'a\nb' })).toEqual([`${at}.message: Invalid value: "a\\nb": message must not contain line breaks`]);
  });

  it('refuses oldSelf below a list whose items do not correlate', () => {
    const schema = root({ type: 'object', properties: { list: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } });
    expect(messages(schema)).toEqual([
      `${PATH}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${PATH}.properties[spec].properties[list].items`,
    ]);
  });

  it('refuses rules estimated too expensive, per rule and for the whole schema', () => {
    const list = { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists(y, y == x))' }] };
    expect(messages(root({ type: 'object', properties: { list } }))).toEqual([
      `${PATH}.properties[spec].properties[list].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      `${PATH}.properties[spec].properties[list].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${PATH}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ]);
    // Bounded, the same rule fits.
    expect(messages(root({ type: 'object', properties: { list: { ...list, maxItems: 100, items: { type: 'string', maxLength: 10 } } } }))).toEqual([]);
  });

  it('multiplies a rule on list items by how many items there can be', () => {
    const items = { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [{ rule: "self.contains('x')" }] };
    expect(messages(root({ type: 'object', properties: { list: { type: 'array', maxItems: 10, items } } }))).toEqual([]);
    expect(messages(root({ type: 'object', properties: { list: { type: 'array', items } } }))[0]).toMatch(/items.x-kubernetes-validations\[0\].rule: Forbidden: estimated rule cost exceeds budget/);
  });
});

describe('rules the server does not evaluate', () => {
  it('refuses rules inside a combinator, as kube (not structural)', () => {
    const crd = {
      metadata: { name: 'xs.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'xs', singular: 'x', kind: 'X', listKind: 'XList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: root({ type: 'object', allOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] }) } }],
      },
      status: { storedVersions: ['v1'] },
    };
    expect(validateCustomResourceDefinition(crd).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural',
    ]);
  });
});

describe('field paths', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, m: { type: 'object', additionalProperties: { type: 'string' } } } };
  it('names the field as kube does', () => {
    expect(validFieldPath('.a.b', schema)).toBe('a.b');
    expect(validFieldPath(".a['b']", schema)).toBe('a.b');
    expect(validFieldPath(".m['k.1']", schema)).toBe('m[k.1]');
    expect(validFieldPath('.a.c', schema)).toBeUndefined();
    expect(validFieldPath('a', schema)).toBeUndefined();
  });
});

describe('evaluating rules on custom resources', () => {
  const spec: JSONSchemaProps = {
    type: 'object',
    properties: {
      replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self <= 10', message: 'at most 10' }] },
      name: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
      min: { type: 'integer' },
      max: { type: 'integer' },
      ports: {
        type: 'array',
        maxItems: 100,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port'],
        items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, proto: { type: 'string', maxLength: 8 } }, 'x-kubernetes-validations': [{ rule: 'self.proto == oldSelf.proto', message: 'proto is immutable' }] },
      },
    },
    'x-kubernetes-validations': [
      { rule: 'self.min <= self.max', messageExpression: "'min ' + string(self.min) + ' is above max ' + string(self.max)", fieldPath: '.min', reason: 'FieldValueForbidden' },
    ],
  };
  const schema = root(spec);
  const obj = (s: Record<string, unknown>) => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a' }, spec: s });

  it('reports failures with the message, the value type and the reason', () => {
    expect(failures(schema, obj({ replicas: 11, min: 1, max: 2 }))).toEqual(['spec.replicas: Invalid value: "integer": at most 10 (FieldValueInvalid)']);
    expect(failures(schema, obj({ min: 3, max: 2 }))).toEqual(['spec.min: Forbidden: min 3 is above max 2 (FieldValueForbidden)']);
    expect(failures(schema, obj({ min: 1, max: 2 }))).toEqual([]);
  });

  it('runs transition rules only on update, with the correlated old value', () => {
    expect(failures(schema, obj({ name: 'a', min: 1, max: 2 }))).toEqual([]);
    expect(failures(schema, obj({ name: 'b', min: 1, max: 2 }), obj({ name: 'a', min: 1, max: 2 }))).toEqual(['spec.name: Invalid value: "string": name is immutable (FieldValueInvalid)']);
    const ports = (...p: Array<[number, string]>) => obj({ min: 1, max: 1, ports: p.map(([port, proto]) => ({ port, proto })) });
    // Items are matched by their key, wherever they are in the list; a new item has no oldSelf.
    expect(failures(schema, ports([2, 'UDP'], [1, 'TCP'], [3, 'SCTP']), ports([1, 'TCP'], [2, 'UDP']))).toEqual([]);
    expect(failures(schema, ports([2, 'TCP'], [1, 'TCP']), ports([1, 'TCP'], [2, 'UDP']))).toEqual(['spec.ports[0]: Invalid value: "object": proto is immutable (FieldValueInvalid)']);
  });

  it('ratchets: an unchanged value that breaks a rule is not refused again', () => {
    expect(failures(schema, obj({ replicas: 11, min: 1, max: 3 }), obj({ replicas: 11, min: 1, max: 2 }))).toEqual([]);
    expect(failures(schema, obj({ replicas: 12, min: 1, max: 3 }), obj({ replicas: 11, min: 1, max: 2 }))).toEqual(['spec.replicas: Invalid value: "integer": at most 10 (FieldValueInvalid)']);
  });

  it('runs a rule with optionalOldSelf on create too, with an empty oldSelf', () => {
    const s = root({
      type: 'object',
      properties: { v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue() ? self >= oldSelf.value() : self == 1', message: 'starts at 1, never decreases', optionalOldSelf: true }] } },
    });
    expect(failures(s, obj({ v: 2 }))).toEqual(['spec.v: Invalid value: "integer": starts at 1, never decreases (FieldValueInvalid)']);
    expect(failures(s, obj({ v: 1 }))).toEqual([]);
    expect(failures(s, obj({ v: 3 }), obj({ v: 2 }))).toEqual([]);
    expect(failures(s, obj({ v: 1 }), obj({ v: 2 }))).toEqual(['spec.v: Invalid value: "integer": starts at 1, never decreases (FieldValueInvalid)']);
  });

  it('reports evaluation errors and a failed rule without message', () => {
    const s = root({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "self.a == 'x'" }, { rule: 'false' }] });
    expect(failures(s, obj({}))).toEqual([
      `spec: Invalid value: "object": no such key: a evaluating rule: self.a == 'x' (FieldValueInvalid)`,
      'spec: Invalid value: "object": failed rule: false (FieldValueInvalid)',
    ]);
  });

  it('applies rules at the root, which sees apiVersion, kind and metadata.name', () => {
    const s = root({ type: 'object' }, { 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok-')", message: 'name must start with ok-' }] });
    expect(failures(s, obj({}))).toEqual(['<nil>: Invalid value: "object": name must start with ok- (FieldValueInvalid)']);
  });

  it('stops when a rule would cost more than one call may', () => {
    const s = root({ type: 'object', properties: { list: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 5 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists(y, y == x))' }] } } });
    const list = Array.from({ length: 600 }, (_, i) => String(i));
    expect(failures(s, obj({ list }))).toEqual([
      `spec.list: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.exists(y, y == x)) (FieldValueInvalid)`,
    ]);
    expect(failures(s, obj({ list: list.slice(0, 20) }))).toEqual([]);
  });

  it('stops when the request has spent its budget', () => {
    // Each evaluation is within the per-call limit; ten lists, two rules each, are not within the request's.
    const rules = [{ rule: "self.exists(x, x == 'z')" }, { rule: "self.exists(x, x != 'y')" }];
    const inner = { type: 'array', maxItems: 10_000, items: { type: 'string', maxLength: 1 }, 'x-kubernetes-validations': rules };
    const s = root({ type: 'object', properties: { list: { type: 'array', maxItems: 10, items: inner } } });
    const big = Array.from({ length: 10 }, () => Array.from({ length: 10_000 }, () => 'z'));
    const out = failures(s, obj({ list: big }));
    expect(out).toEqual([expect.stringMatching(/^spec.list\[\d\]: Invalid value: "array": validation failed due to running out of cost budget, no further validation rules will be run/)]);
  });
});
