import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../registry/object.js';
import type { JsonObject } from './json-value.js';
import { LAST_APPLIED_ANNOTATION, lastAppliedFields, syncLastApplied } from './last-applied.js';
import { schemaOf } from './testing.js';

const configMaps = schemaOf('ConfigMap');
const cm = (data: Record<string, string>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', ...(annotations ? { annotations } : {}) },
  data,
});

describe('the last-applied annotation', () => {
  const applied = '{"apiVersion":"v1","data":{"a":"1","b":"2"},"kind":"ConfigMap","metadata":{"name":"cfg"}}\n';

  it('yields the applied fields whose live value is still the applied one', () => {
    const live = cm({ a: '1', b: 'changed', c: '3' }, { [LAST_APPLIED_ANNOTATION]: applied });
    expect(lastAppliedFields(live, configMaps, 'v1')?.toFieldsV1()).toEqual({ 'f:apiVersion': {}, 'f:data': { 'f:a': {} }, 'f:kind': {}, 'f:metadata': { 'f:name': {} } });
  });

  it.each<[string, KubeObject]>([
    ['no annotation', cm({})],
    ['an annotation that is not JSON', cm({}, { [LAST_APPLIED_ANNOTATION]: '{' })],
    ['an annotation of another version', cm({}, { [LAST_APPLIED_ANNOTATION]: '{"apiVersion":"v2","kind":"ConfigMap"}' })],
  ])('yields nothing for %s', (_, live) => {
    expect(lastAppliedFields(live, configMaps, 'v1')).toBeUndefined();
  });

  it('is rewritten to the applied configuration, without itself, when the object has one', () => {
    const object = cm({ a: '1' }, { [LAST_APPLIED_ANNOTATION]: 'old', note: 'x' });
    const config: JsonObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', annotations: { [LAST_APPLIED_ANNOTATION]: 'ignored', note: 'x' } }, data: { z: '<&>' } };
    syncLastApplied(object, config);
    expect(object.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBe(
      '{"apiVersion":"v1","data":{"z":"\\u003c\\u0026\\u003e"},"kind":"ConfigMap","metadata":{"annotations":{"note":"x"},"name":"cfg"}}\n',
    );
  });

  it('is left alone when the object has none, and dropped when it would not fit', () => {
    const bare = cm({});
    syncLastApplied(bare, { apiVersion: 'v1' });
    expect(bare.metadata.annotations).toBeUndefined();
    const big = cm({}, { [LAST_APPLIED_ANNOTATION]: 'old', other: 'x'.repeat(200 * 1024) });
    syncLastApplied(big, { apiVersion: 'v1', data: { a: 'y'.repeat(100 * 1024) } });
    expect(Object.keys(big.metadata.annotations ?? {})).toEqual(['other']);
  });
});
