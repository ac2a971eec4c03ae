import { describe, expect, it } from 'vitest';
import { compareJson, compareStrings, goJson } from './json-value.js';

describe('JSON values as Go sees them', () => {
  it('encodes like encoding/json: sorted keys, HTML-safe, line separators escaped', () => {
    expect(goJson({ b: 1, a: ['<x>', 'a&b', '\u2028', 'é', '\n', '\u0001'], c: null, d: true })).toBe(
      '{"a":["\\u003cx\\u003e","a\\u0026b","\\u2028","é","\\n","\\u0001"],"b":1,"c":null,"d":true}',
    );
  });

  it('orders numbers numerically, then strings, booleans, lists, maps, null', () => {
    const values = [null, { a: 1 }, [1], true, 'b', 'a', 10, 9];
    expect([...values].sort(compareJson)).toEqual([9, 10, 'a', 'b', true, [1], { a: 1 }, null]);
  });

  it('orders strings by code point, as Go orders UTF-8 bytes', () => {
    expect(compareStrings('\uffff', '\u{1f600}')).toBe(-1);
    expect(compareStrings('a', 'ab')).toBe(-1);
    expect(compareStrings('b', 'a')).toBe(1);
  });
});
