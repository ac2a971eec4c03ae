import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { configMaps } from './config-map.js';
import type { ConfigMap } from './types.js';

const cm = (fields: Partial<ConfigMap>): ConfigMap => ({ metadata: { name: 'cfg' }, ...fields });

describe('config maps', () => {
  it.each<[string, ConfigMap, string[]]>([
    ['valid keys', cm({ data: { 'app.properties': 'x', KEY_1: 'y' }, binaryData: { 'logo.png': 'aGVsbG8=' } }), []],
    ['a key with a slash', cm({ data: { 'a/b': 'x' } }), [
      `data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]],
    ['a key in both maps', cm({ data: { k: 'x' }, binaryData: { k: 'eA==' } }), ['data[k]: Invalid value: "k": duplicate of key present in binaryData']],
    ['keys named like JavaScript object members', cm({ data: JSON.parse('{"__proto__":"x","constructor":"y","toString":"z"}') as Record<string, string> }), []],
    ['more than 1 MiB', cm({ data: { a: 'x'.repeat(1024 * 1024), b: 'y' } }), [': Too long: may not be more than 1048576 bytes']],
  ])('%s', async (_, input, expected) => {
    expect(messages((await create(configMaps, input)).errors)).toEqual(expected);
  });

  it('freezes the data once immutable', async () => {
    const { object: old } = await create(configMaps, cm({ data: { a: '1' }, immutable: true }));
    expect(messages(update(configMaps, { ...old, data: { a: '2' } }, old))).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    expect(messages(update(configMaps, { ...old, immutable: false }, old))).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']);
    expect(update(configMaps, { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old)).toEqual([]);
  });

  it('counts data and binaryData keys', () => {
    expect(headers(configMaps)).toEqual(['NAME', 'DATA', 'AGE']);
    const input = cm({ data: { a: '1', b: '2' }, binaryData: { c: 'eA==' } });
    input.metadata.creationTimestamp = CREATED;
    expect(cells(configMaps, input)).toEqual(['cfg', 3, '10m']);
  });
});
