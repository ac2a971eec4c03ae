import { describe, expect, it } from 'vitest';
import { compareObjects } from './compare-objects.js';
import type { FieldSet } from './field-set.js';
import type { JsonObject } from './json-value.js';
import { schemaOf } from './testing.js';

const pods = schemaOf('Pod');
const v1 = (s: FieldSet): object => s.toFieldsV1();

function compare(lhs: JsonObject | undefined, rhs: JsonObject | undefined): { added: object; modified: object; removed: object } {
  const { added, modified, removed } = compareObjects(lhs, rhs, pods);
  return { added: v1(added), modified: v1(modified), removed: v1(removed) };
}

const pod = (spec: JsonObject, metadata: JsonObject = { name: 'p' }): JsonObject => ({ metadata, spec });

describe('comparing two versions of an object', () => {
  it('reports changed, added and removed leaves', () => {
    expect(compare(pod({ nodeName: 'a', hostname: 'h' }), pod({ nodeName: 'b', subdomain: 's' }))).toEqual({
      added: { 'f:spec': { 'f:subdomain': {} } },
      modified: { 'f:spec': { 'f:nodeName': {} } },
      removed: { 'f:spec': { 'f:hostname': {} } },
    });
  });

  it('reports a map, struct or list item that appears as added itself', () => {
    const before = pod({ containers: [{ name: 'a', image: 'x' }] });
    const after = pod({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y', ports: [{ containerPort: 80 }] }] }, { name: 'p', labels: { app: 'web' } });
    expect(compare(before, after)).toEqual({
      added: {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
      },
      modified: {},
      removed: {},
    });
  });

  it('compares atomic lists and empty values as leaves', () => {
    expect(compare(pod({ tolerations: [{ key: 'a' }], containers: [] }), pod({ tolerations: [{ key: 'b' }], containers: null }))).toEqual({
      added: {},
      modified: { 'f:spec': { 'f:containers': {}, 'f:tolerations': {} } },
      removed: {},
    });
  });

  it('compares the items of a repeated key as one group', () => {
    const twice = pod({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }] });
    expect(compare(twice, pod({ containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'z' }] })).modified).toEqual({ 'f:spec': { 'f:containers': { 'k:{"name":"a"}': {} } } });
    expect(compare(twice, pod({ containers: [{ name: 'a', image: 'x' }] }))).toEqual({
      added: { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
      modified: {},
      removed: { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': {} } } },
    });
  });

  it('reports items without a key and leaves them out', () => {
    const { errors, added } = compareObjects(pod({}), pod({ containers: [{ image: 'x' }, null] }), pods);
    expect(errors).toEqual([
      '.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
      '.spec.containers: element 1: associative list with keys may not have a null element',
    ]);
    // The list itself appeared; its items are not there to compare.
    expect(added.toFieldsV1()).toEqual({ 'f:spec': { 'f:containers': {} } });
  });
});
