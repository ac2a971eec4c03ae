/** JSON and merge patches within their bounds: operation count, copy growth, nesting. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../registry/object.js';
import { MAX_BODY_DEPTH } from '../schema/json-syntax.js';
import { define, object, ref } from '../schema/schema.js';
import { ApiError } from '../status.js';
import { applyJsonPatch, applyMergePatch, MAX_JSON_PATCH_OPERATIONS } from './apply-patch.js';
import { applyStrategicMergePatch } from './strategic-merge.js';

const cm = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', annotations: { a: 'x'.repeat(1024) } } });

/** `{"k":{"k":…{"k":"v"}}}` with `depth` objects. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 'v' };
  for (let i = 1; i < depth; i += 1) value = { k: value };
  return value;
}

function refusal(run: () => unknown): { code: number; reason: string; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, reason: err.reason, message: err.message };
    throw err;
  }
  throw new Error('the patch was applied');
}

describe('applyJsonPatch bounds', () => {
  const add = (i: number) => ({ op: 'add', path: `/metadata/labels/l${i}`, value: 'v' });
  it('takes the maximum number of operations', () => {
    const patch = [{ op: 'add', path: '/metadata/labels', value: {} }, ...Array.from({ length: MAX_JSON_PATCH_OPERATIONS - 1 }, (_, i) => add(i))];
    expect(Object.keys(applyJsonPatch(cm(), patch).metadata.labels ?? {})).toHaveLength(MAX_JSON_PATCH_OPERATIONS - 1);
  });

  const refused: Array<[string, unknown[], number, string]> = [
    ['one operation too many', Array.from({ length: 20_000 }, (_, i) => add(i)), 413, 'The allowed maximum operations in a JSON patch is 10000, got 20000'],
    ['copies that double the object thirty times', Array.from({ length: 30 }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/annotations/c${i}` })), 422, 'Unable to complete the copy, the accumulated size increase of copy is'],
    ['a value added below a long path', [{ op: 'add', path: `/metadata/annotations`, value: nested(MAX_BODY_DEPTH) }], 422, `the patched document nests deeper than ${MAX_BODY_DEPTH} levels`],
  ];
  it.each(refused)('refuses %s', (_name, patch, code, message) => {
    const got = refusal(() => applyJsonPatch(cm(), patch));
    expect(got.code).toBe(code);
    expect(got.message).toContain(message);
  });
});

describe('merge and strategic merge patches nested to the bound', () => {
  // The decoder refuses deeper patches; these must apply without exhausting the stack.
  const patch = { metadata: { annotations: nested(MAX_BODY_DEPTH - 2) } };
  it('merge patch', () => {
    expect(applyMergePatch(cm(), patch).metadata.annotations).toMatchObject({ a: 'x'.repeat(1024), k: { k: {} } });
  });
  it('strategic merge patch', () => {
    const schema = define('io.kubespaces.test.v1.Deep', object('Free-form spec.', { metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), spec: { type: 'object', description: 'Anything.', 'x-kubernetes-preserve-unknown-fields': true } }));
    const deep = { spec: nested(MAX_BODY_DEPTH - 1) };
    const obj: KubeObject = { apiVersion: 'v1', kind: 'Deep', metadata: { name: 'd' } };
    expect(applyStrategicMergePatch(obj, deep, schema)).toMatchObject({ spec: { k: { k: {} } } });
  });
});

describe('applyJsonPatch errors, in evanphx/json-patch\'s words', () => {
  const object = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
  it.each<[string, unknown[], string]>([
    ['a failed test', [{ op: 'test', path: '/data/a', value: '2' }], 'testing value /data/a failed: test failed'],
    ['an unknown operation', [{ op: 'frob', path: '/data/a' }], 'Unexpected kind: frob'],
    ['removing a missing key', [{ op: 'remove', path: '/data/b' }], 'Unable to remove nonexistent key: b: missing value'],
    ['replacing a missing key', [{ op: 'replace', path: '/data/b', value: 'x' }], 'replace operation does not apply: doc is missing key: /data/b: missing value'],
    ['adding below a missing parent', [{ op: 'add', path: '/spec/x/y', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/x/y": missing value'],
    ['copying from a missing path', [{ op: 'copy', from: '/nope', path: '/data/c' }], 'copy operation does not apply: doc is missing from path: /nope: missing value'],
    ['an op that is no string', [{ op: {}, path: '/data/a' }], 'Unexpected kind: unknown'],
    ['no op', [{ path: '/data/a' }], 'Unexpected kind: unknown'],
    ['a null operation', [null], 'Unexpected kind: unknown'],
    ['an add without a path', [{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
    ['a replace whose path is a number', [{ op: 'replace', path: 5, value: 1 }], 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
    ['a test without a path', [{ op: 'test', value: 1 }], 'test operation failed to decode path: operation missing path field: missing value'],
    ['a move without from', [{ op: 'move', path: '/data/b' }], 'move operation failed to decode from: operation, missing from field: missing value'],
    ['a copy whose from is a list', [{ op: 'copy', from: ['/data/a'], path: '/data/b' }], 'copy operation failed to decode from: json: cannot unmarshal array into Go value of type string'],
    ['an add to a path without "/"', [{ op: 'add', path: 'data', value: 1 }], 'add operation does not apply: doc is missing path: "data": missing value'],
    ['a replace of the empty path', [{ op: 'replace', path: '', value: {} }], 'replace operation does not apply: doc is missing path: : missing value'],
    ['a move to a path without "/"', [{ op: 'move', from: '/data/a', path: 'x' }], 'move operation does not apply: doc is missing destination path: x: missing value'],
  ])('%s', (_name, patch, message) => {
    const got = refusal(() => applyJsonPatch(object(), patch));
    expect(got).toEqual({ code: 422, reason: 'Invalid', message: `the server rejected our request due to an error in our request: ${message}` });
  });
});

describe('JSON patches Go applies where fast-json-patch would refuse them', () => {
  const object = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } });
  it('adds null for an add without a value', () => {
    expect(applyJsonPatch(object(), [{ op: 'add', path: '/data/b' }]).data).toEqual({ a: '1', b: null });
  });
  it('drops the segment before the first "/" of a pointer', () => {
    expect(applyJsonPatch(object(), [{ op: 'replace', path: 'ignored/data', value: { c: '3' } }]).data).toEqual({ c: '3' });
  });
});

describe('JSON patches that do not decode, in Go’s words (400)', () => {
  it.each<[string, unknown, string]>([
    ['an object', { op: 'add' }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['a string', 'x', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    ['a list with a number', [{ op: 'test', path: '/a', value: 1 }, 5], 'json: cannot unmarshal number into Go value of type jsonpatch.Operation'],
    ['a list with a list', [[]], 'json: cannot unmarshal array into Go value of type jsonpatch.Operation'],
    ['no body', null, 'unexpected end of JSON input'],
  ])('%s', (_name, patch, message) => {
    expect(refusal(() => applyJsonPatch(cm(), patch))).toEqual({ code: 400, reason: 'BadRequest', message });
  });
});
