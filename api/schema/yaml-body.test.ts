import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH, MAX_OBJECT_KEYS } from './json-syntax.js';
import { decodeYaml } from './yaml-body.js';

describe('decodeYaml', () => {
  const decoded: Array<[string, string, unknown, string[]]> = [
    ['a mapping', 'a: 1\nb: [x, y]\n', { a: 1, b: ['x', 'y'] }, []],
    ['a duplicate key, the last kept', 'metadata:\n  name: a\n  name: b\n', { metadata: { name: 'b' } }, ['metadata.name']],
    ['duplicates inside a list', 'items:\n- {k: 1, k: 2}\n- {k: 3}\n', { items: [{ k: 2 }, { k: 3 }] }, ['items[0].k']],
    ['the same key in sibling mappings', 'a: {k: 1}\nb: {k: 2}\n', { a: { k: 1 }, b: { k: 2 } }, []],
    ['a top-level duplicate', 'kind: A\nkind: B\n', { kind: 'B' }, ['kind']],
    ['an alias', 'base: &b {x: 1}\ncopy: *b\n', { base: { x: 1 }, copy: { x: 1 } }, []],
    ['a scalar alias', 'a: &v hello\nb: *v\n', { a: 'hello', b: 'hello' }, []],
    ['a scalar document', 'hello', 'hello', []],
    ['nothing', '', null, []],
  ];
  it.each(decoded)('%s', (_name, text, value, duplicateFields) => {
    expect(decodeYaml(text)).toEqual({ value, duplicateFields });
  });

  const laughs = ['a: &a [x,x,x,x,x,x,x,x,x,x]', ...'bcdefgh'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(',')}]`)].join('\n');
  const refused: Array<[string, string, string]> = [
    ['a billion laughs', laughs, 'yaml: document contains excessive aliasing'],
    ['an alias of its own enclosing collection', 'a: &a [1, *a]\n', 'yaml: document contains excessive aliasing'],
    ['nesting past the bound (flow)', `${'['.repeat(MAX_BODY_DEPTH + 1)}${']'.repeat(MAX_BODY_DEPTH + 1)}`, `yaml: exceeded max depth of ${MAX_BODY_DEPTH}`],
    ['nesting far past the bound (flow)', '['.repeat(100_000), `yaml: exceeded max depth of ${MAX_BODY_DEPTH}`],
    ['nesting far past the bound (block)', '- '.repeat(20_000) + 'x', `yaml: exceeded max depth of ${MAX_BODY_DEPTH}`],
    ['a mapping value where none may be', 'a: 1\nb: c: d\n', 'yaml: line 2: Nested mappings are not allowed in compact mappings'],
  ];
  it.each(refused)('refuses %s', (_name, text, message) => {
    expect(() => decodeYaml(text)).toThrow(message);
  });

  it('takes nesting up to the bound', () => {
    const depth = MAX_BODY_DEPTH;
    expect(() => decodeYaml(`${'['.repeat(depth)}${']'.repeat(depth)}`)).not.toThrow();
  });

  it('finds duplicates among many keys in one pass', () => {
    const lines = Array.from({ length: MAX_OBJECT_KEYS }, (_, i) => `k${i}: v`);
    lines.push('k7: again');
    expect(decodeYaml(lines.join('\n')).duplicateFields).toEqual(['k7']);
  });

  it('bounds the keys of one mapping', () => {
    const keys = (count: number, indent = ''): string => Array.from({ length: count }, (_, i) => `${indent}k${i}: v`).join('\n');
    expect(() => decodeYaml(keys(MAX_OBJECT_KEYS + 1))).toThrow(`yaml: object at the top level has more than ${MAX_OBJECT_KEYS} keys`);
    expect(() => decodeYaml(`spec:\n  data:\n${keys(MAX_OBJECT_KEYS + 1, '    ')}`)).toThrow(`yaml: object "spec.data" has more than ${MAX_OBJECT_KEYS} keys`);
  });
});
