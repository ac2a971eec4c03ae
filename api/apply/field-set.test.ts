import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import type { FieldPath } from './path-element.js';

const f = (...names: string[]): FieldPath => names.map((field) => ({ field }));
const set = (fields: object): FieldSet => FieldSet.fromFieldsV1(fields);
const text = (s: FieldSet): string => JSON.stringify(s.toFieldsV1());

describe('FieldsV1', () => {
  it.each<[string, string]>([
    ['leaves only', '{"f:data":{"f:a":{},"f:b":{}}}'],
    ['a node that is also a member', '{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}'],
    ['list keys with several fields', '{"f:spec":{"f:ports":{"k:{\\"port\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:port":{}}}}}'],
    ['set values', '{"f:metadata":{"f:finalizers":{"v:\\"a\\"":{},"v:\\"b\\"":{}}}}'],
    ['indexes', '{"f:args":{"i:0":{},"i:1":{}}}'],
  ])('round-trips %s byte for byte', (_, json) => {
    expect(text(set(JSON.parse(json) as object))).toBe(json);
  });

  it('writes keys in Kubernetes order whatever order they were read in', () => {
    const read = set({
      'f:spec': { 'f:replicas': {} },
      'f:metadata': { 'f:labels': { 'f:b': {}, '.': {}, 'f:a': {} } },
      'f:data': { 'k:{"protocol":"TCP","port":80}': {}, 'k:{"port":9,"protocol":"TCP"}': {} },
    });
    expect(text(read)).toBe(
      '{"f:data":{"k:{\\"port\\":9,\\"protocol\\":\\"TCP\\"}":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{}},' +
        '"f:metadata":{"f:labels":{".":{},"f:a":{},"f:b":{}}},"f:spec":{"f:replicas":{}}}',
    );
  });

  it('identifies keys by the element they name, however they are spelt', () => {
    const spelt = set({ 'f:ports': { 'k:{"protocol":"TCP","port":80}': {}, 'v:"a\\u003cb"': {} } });
    expect(spelt.has([{ field: 'ports' }, { key: [['port', 80], ['protocol', 'TCP']] }])).toBe(true);
    expect(spelt.has([{ field: 'ports' }, { value: 'a<b' }])).toBe(true);
  });

  it('skips element types it does not know and reads a node holding nothing known as a member', () => {
    expect(text(set({ 'x:future': {}, 'f:a': { 'x:future': {} } }))).toBe('{"f:a":{}}');
  });

  it.each<[string, unknown]>([
    ['a non-object', []],
    ['a key without a colon', { f: {} }],
    ['a non-object value', { 'f:a': 1 }],
    ['a malformed key', { 'k:{"name"': {} }],
    ['a key that is not an object', { 'k:[1]': {} }],
  ])('refuses %s', (_, fields) => {
    expect(() => FieldSet.fromFieldsV1(fields)).toThrow();
  });
});

describe('set operations', () => {
  const ab = FieldSet.of([f('a', 'b'), f('a', 'c'), f('d')]);

  it('tells membership and emptiness', () => {
    expect(ab.has(f('a', 'b'))).toBe(true);
    expect(ab.has(f('a'))).toBe(false);
    expect(ab.has([])).toBe(false);
    expect(new FieldSet().isEmpty()).toBe(true);
    expect(ab.isEmpty()).toBe(false);
  });

  it('unions, intersects and differences leaf-wise', () => {
    const other = FieldSet.of([f('a', 'c'), f('e')]);
    expect(text(ab.union(other))).toBe('{"f:a":{"f:b":{},"f:c":{}},"f:d":{},"f:e":{}}');
    expect(text(ab.intersection(other))).toBe('{"f:a":{"f:c":{}}}');
    expect(text(ab.difference(other))).toBe('{"f:a":{"f:b":{}},"f:d":{}}');
  });

  it('keeps paths below a removed member in a difference, drops them in a recursive difference', () => {
    const parent = FieldSet.of([f('a')]);
    expect(text(ab.difference(parent))).toBe('{"f:a":{"f:b":{},"f:c":{}},"f:d":{}}');
    expect(text(ab.recursiveDifference(parent))).toBe('{"f:d":{}}');
    expect(text(ab.recursiveDifference(FieldSet.of([f('a', 'b')])))).toBe('{"f:a":{"f:c":{}},"f:d":{}}');
  });

  it('never keeps an emptied node', () => {
    expect(ab.difference(ab).isEmpty()).toBe(true);
    expect(text(ab.intersection(FieldSet.of([f('d')])))).toBe('{"f:d":{}}');
  });

  it('lists leaves and paths in smd order', () => {
    const s = set({ 'f:spec': { '.': {}, 'f:replicas': {}, 'f:template': { 'f:x': {} } }, 'f:data': {} });
    expect(text(s.leaves())).toBe('{"f:data":{},"f:spec":{"f:replicas":{},"f:template":{"f:x":{}}}}');
    expect([...s.paths()].map((p) => p.map((pe) => ('field' in pe ? pe.field : '?')).join('.'))).toEqual(['data', 'spec', 'spec.replicas', 'spec.template.x']);
  });

  it('reads the paths below an element', () => {
    expect(text(ab.withPrefix({ field: 'a' }))).toBe('{"f:b":{},"f:c":{}}');
    expect(ab.withPrefix({ field: 'zzz' }).isEmpty()).toBe(true);
  });
});
