import { describe, expect, it } from 'vitest';
import { boolean, integer, list, map, number, object, string, type Schema } from '../schema/schema.js';
import type { JsonObject } from './json-value.js';
import { dropNullFields, mergeObjects } from './merge-objects.js';

// The orderings below are structured-merge-diff's documented merge results (typed/merge_test.go).
const root: Schema = object('Root.', {
  numeric: number('A number.'),
  string: string('A string.'),
  bool: boolean('A boolean.'),
  setStr: list(string('An item.'), 'A set of strings.', { listType: 'set' }),
  setBool: list(boolean('An item.'), 'A set of booleans.', { listType: 'set' }),
  setNumeric: list(number('An item.'), 'A set of numbers.', { listType: 'set' }),
  list: list(
    object('An item.', { key: string('Key.'), id: integer('Id.'), value: map(string('A value.'), 'Values.'), bv: boolean('B.'), nv: number('N.') }),
    'A map-type list keyed by (key, id).',
    { listType: 'map', mapKeys: ['key', 'id'] },
  ),
  atomicList: list(string('An item.'), 'An atomic list.', { listType: 'atomic' }),
  inner: map(string('A value.'), 'A granular map.'),
  struct: object('A struct.', { value: string('A value.') }),
});

const merge = (lhs: string, rhs: string): unknown => mergeObjects(JSON.parse(lhs) as JsonObject, JSON.parse(rhs) as JsonObject, root).value;

describe('merging a configuration into a live object', () => {
  it.each<[string, string, string]>([
    ['{"numeric":1}', '{"numeric":3.14159}', '{"numeric":3.14159}'],
    ['{"string":"aoeu"}', '{"bool":true}', '{"string":"aoeu","bool":true}'],
    ['{}', '{"inner":{}}', '{"inner":{}}'],
    ['{}', '{"inner":null}', '{"inner":null}'],
    ['{"inner":null}', '{"inner":{}}', '{"inner":{}}'],
    ['{"inner":{}}', '{"inner":null}', '{"inner":null}'],
    ['{"inner":{"a":"1"}}', '{"inner":{}}', '{"inner":{"a":"1"}}'],
    ['{"struct":{"value":"a"}}', '{"struct":{}}', '{"struct":{"value":"a"}}'],
  ])('maps and structs: %s + %s', (lhs, rhs, out) => {
    expect(merge(lhs, rhs)).toEqual(JSON.parse(out));
  });

  it.each<[string, string, string]>([
    ['["a","b","c"]', '["a","b"]', '["a","b","c"]'],
    ['["a","b"]', '["a","b","c"]', '["a","b","c"]'],
    ['["a","b","c"]', '[]', '["a","b","c"]'],
    ['[]', '["a","b","c"]', '["a","b","c"]'],
    ['["a","b"]', '["b","a"]', '["b","a"]'],
    ['["a","b","c"]', '["d","e","f"]', '["a","b","c","d","e","f"]'],
    ['["a","b","c"]', '["c","d","e","f"]', '["a","b","c","d","e","f"]'],
    ['["a","b","c","g","f"]', '["c","d","e","f"]', '["a","b","c","g","d","e","f"]'],
    ['["c","d","e","f"]', '["a","c","e"]', '["a","c","d","e","f"]'],
    ['["a","b","c","x","y","z"]', '["d","e","f","x","y","z"]', '["a","b","c","d","e","f","x","y","z"]'],
    ['["c","a","g","f"]', '["c","f","a","g"]', '["c","f","a","g"]'],
    ['["a","b","c","d"]', '["d","e","f","a"]', '["b","c","d","e","f","a"]'],
    ['["c","d","e","f","g","h","i","j"]', '["2","h","3","e","4","k","l"]', '["c","d","f","g","2","h","i","j","3","e","4","k","l"]'],
    ['["a","b","c","d","e","f","g","h","i","j"]', '["1","b","2","h","3","e","4","k","l"]', '["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]'],
  ])('sets: %s + %s', (lhs, rhs, out) => {
    expect(merge(`{"setStr":${lhs}}`, `{"setStr":${rhs}}`)).toEqual({ setStr: JSON.parse(out) });
  });

  it('unions sets of booleans and numbers by value', () => {
    expect(merge('{"setBool":[true]}', '{"setBool":[false]}')).toEqual({ setBool: [true, false] });
    expect(merge('{"setNumeric":[1,2,3.14159]}', '{"setNumeric":[1,2,3]}')).toEqual({ setNumeric: [1, 2, 3.14159, 3] });
  });

  it.each<[string, string, string]>([
    ['[{"key":"a","id":1,"value":{"a":"a"}}]', '[{"key":"a","id":2,"value":{"a":"a"}}]', '[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]'],
    ['[{"key":"a","id":1},{"key":"b","id":1}]', '[{"key":"a","id":1},{"key":"a","id":2}]', '[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]'],
    ['[{"key":"b","id":2}]', '[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]', '[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]'],
    ['[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]', '[{"key":"c","id":3},{"key":"b","id":2}]', '[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]'],
    ['[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]', '[{"key":"c","id":3},{"key":"a","id":1}]', '[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]'],
    ['[{"key":"a","id":1,"bv":true,"value":{"x":"1"}}]', '[{"key":"a","id":1,"nv":2,"value":{"y":"2"}}]', '[{"key":"a","id":1,"bv":true,"nv":2,"value":{"x":"1","y":"2"}}]'],
  ])('map-type lists: %s + %s', (lhs, rhs, out) => {
    expect(merge(`{"list":${lhs}}`, `{"list":${rhs}}`)).toEqual({ list: JSON.parse(out) });
  });

  it.each<[string, string, string]>([
    ['["a","a","a"]', 'null', 'null'],
    ['["a","b","c"]', '[]', '[]'],
    ['["a","a","a"]', '["a","a"]', '["a","a"]'],
  ])('atomic lists are replaced: %s + %s', (lhs, rhs, out) => {
    expect(merge(`{"atomicList":${lhs}}`, `{"atomicList":${rhs}}`)).toEqual({ atomicList: JSON.parse(out) });
  });

  it('merges repeated live items into one, but refuses them in the configuration', () => {
    expect(merge('{"setStr":["a","a","b"]}', '{"setStr":["a"]}')).toEqual({ setStr: ['a', 'b'] });
    expect(mergeObjects({}, { setStr: ['a', 'a'] }, root).errors).toEqual(['.setStr: duplicate entries for key [="a"]']);
    expect(mergeObjects({}, { list: [{ key: 'a' }] }, root).errors).toEqual([
      '.list: element 0: associative list with keys has an element that omits key field "id" (and doesn\'t have default value)',
    ]);
  });
});

describe('the round trip through typed objects', () => {
  it('unsets null fields of typed structs and maps, keeping list items', () => {
    expect(dropNullFields({ string: null, inner: { a: null, b: '1' }, list: [{ key: 'a', id: 1, value: null }], struct: null }, root)).toEqual({
      inner: { b: '1' },
      list: [{ key: 'a', id: 1 }],
    });
  });
});
