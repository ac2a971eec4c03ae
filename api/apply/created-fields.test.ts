import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { createdFieldsByShape, objectShape } from './created-fields.js';
import { schemaOf } from './testing.js';
import { integer, object } from '../schema/schema.js';
import { builtinKinds } from '../kinds/index.js';

describe('objectShape', () => {
  it('keeps keys, lists and nulls, and reduces other scalars to their type', () => {
    expect(objectShape({ a: 'x', b: 1, c: true, d: null, e: [{ name: 'n' }], f: { g: 'y' } })).toBe('{"a":s,"b":i,"c":b,"d":n,"e":a[{"name":"n"}],"f":{"g":s,},}');
    expect(objectShape({ a: 'one' })).toBe(objectShape({ a: 'two' }));
    expect(objectShape({ a: 'one' })).not.toBe(objectShape({ a: null }));
    expect(objectShape({ l: ['a'] })).not.toBe(objectShape({ l: ['b'] }));
  });

  it('gives up past its budget', () => {
    expect(objectShape({ l: ['x'.repeat(100)] }, 50)).toBeUndefined();
    expect(objectShape({ a: 's' }, 50)).toBeDefined();
  });
});

describe('createdFieldsByShape', () => {
  const schema = schemaOf('ConfigMap');
  const reset = new FieldSet();

  it('computes once per shape of a kind and reset set', () => {
    let computed = 0;
    const compute = () => String(++computed);
    expect(createdFieldsByShape(schema, reset, { data: { a: '1' } }, compute)).toBe('1');
    expect(createdFieldsByShape(schema, reset, { data: { a: '2' } }, compute)).toBe('1');
    expect(createdFieldsByShape(schema, reset, { data: { b: '1' } }, compute)).toBe('2');
    expect(createdFieldsByShape(schema, new FieldSet(), { data: { a: '1' } }, compute)).toBe('3');
    expect(createdFieldsByShape(schemaOf('Secret'), reset, { data: { a: '1' } }, compute)).toBe('4');
  });

  it('computes a shape too large to remember every time', () => {
    let computed = 0;
    const big = { data: { a: '1' }, l: ['x'.repeat(5000)] };
    createdFieldsByShape(schema, reset, big, () => String(++computed));
    createdFieldsByShape(schema, reset, big, () => String(++computed));
    expect(computed).toBe(2);
  });
});

describe('kinds whose zero value holds scalars', () => {
  const reset = new FieldSet();

  it('are computed for every create, since a value equal to the default is not taken', () => {
    const schema = object('A kind whose spec defaults to one replica.', {
      spec: { ...object('Spec.', { replicas: integer('Replicas.') }), default: { replicas: 1 } },
    });
    let computed = 0;
    createdFieldsByShape(schema, reset, { spec: { replicas: 1 } }, () => String(++computed));
    createdFieldsByShape(schema, reset, { spec: { replicas: 2 } }, () => String(++computed));
    expect(computed).toBe(2);
  });

  it('do not include any built-in kind', () => {
    const remembered = builtinKinds.filter((def) => {
      let computed = 0;
      createdFieldsByShape(def.schema, reset, { metadata: { name: 'a' } }, () => String(++computed));
      createdFieldsByShape(def.schema, reset, { metadata: { name: 'b' } }, () => String(++computed));
      return computed === 1;
    });
    expect(remembered.length).toBe(builtinKinds.length);
  });
});
