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
  ])('%s', (_name, patch, message) => {
    const got = refusal(() => applyJsonPatch(object(), patch));
    expect(got).toEqual({ code: 422, reason: 'Invalid', message: `the server rejected our request due to an error in our request: ${message}` });
  });
});
