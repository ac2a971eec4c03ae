import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import type { JsonObject } from './json-value.js';
import { removeItems } from './remove-items.js';
import { schemaOf } from './testing.js';

const pods = schemaOf('Pod');
const pod = (spec: JsonObject, metadata: JsonObject = { name: 'p' }): JsonObject => ({ metadata, spec });

describe('removing fields', () => {
  const obj = pod({ containers: [{ name: 'a', image: 'x', env: [{ name: 'E', value: '1' }] }, { name: 'b', image: 'y' }] }, { name: 'p', labels: { app: 'web', tier: 'db' } });
  const remove = (fields: object): unknown => removeItems(obj, FieldSet.fromFieldsV1(fields), pods);

  it('removes map entries, list items and fields inside items, whole', () => {
    expect(remove({ 'f:metadata': { 'f:labels': { 'f:tier': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"b"}': {}, 'k:{"name":"a"}': { 'f:image': {} } } } })).toEqual(
      pod({ containers: [{ name: 'a', env: [{ name: 'E', value: '1' }] }] }, { name: 'p', labels: { app: 'web' } }),
    );
  });

  it('leaves null where a list or map is emptied', () => {
    expect(remove({ 'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:env': { 'k:{"name":"E"}': {} } } } } })).toEqual(
      pod({ containers: [{ name: 'a', image: 'x', env: null }, { name: 'b', image: 'y' }] }, { name: 'p', labels: null }),
    );
  });
});
