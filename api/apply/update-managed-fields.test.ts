import { describe, expect, it } from 'vitest';
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import { metaRef } from '../schema/meta.js';
import { described, integer, list, object, string, type Schema } from '../schema/schema.js';
import { FieldSet } from './field-set.js';
import { fieldsOutside, statusResetFields } from './reset-fields.js';
import { deployment, EVEN_LATER, kube, LATER, NOW, schemaOf } from './testing.js';
import { computeUpdateManagedFields, type UpdateManagedFieldsInput } from './update-managed-fields.js';

const configMaps = schemaOf('ConfigMap');
const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T11:00:00Z';
const T2 = '2024-05-01T12:00:00Z';

function update(input: Partial<UpdateManagedFieldsInput> & Pick<UpdateManagedFieldsInput, 'obj' | 'manager'>): ManagedFieldsEntry[] {
  return computeUpdateManagedFields({ schema: configMaps, resetFields: new FieldSet(), old: undefined, apiVersion: 'v1', now: NOW, ...input });
}

const cm = (data: Record<string, string>, managedFields?: ManagedFieldsEntry[], labels: Record<string, string> = { app: 'web' }): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'default', labels, ...(managedFields ? { managedFields } : {}) },
  data,
});

const entry = (manager: string, time: string | undefined, fieldsV1: object, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry => ({
  manager,
  operation: 'Update',
  apiVersion: 'v1',
  ...(time ? { time } : {}),
  fieldsType: 'FieldsV1',
  fieldsV1: fieldsV1 as Record<string, unknown>,
  ...extra,
});

describe('managedFields of updates', () => {
  const created = update({ obj: cm({ a: '1', b: '2' }), manager: 'kubectl-create' });

  it('gives a create everything it set, maps it created included', () => {
    expect(created).toEqual([entry('kubectl-create', T0, { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } })]);
  });

  it('moves changed and added fields to the writer and takes removed ones from everybody', () => {
    const old = cm({ a: '1', b: '2' }, created);
    const result = update({ old, obj: cm({ a: '10', c: '3' }, created), manager: 'editor', now: LATER });
    expect(result).toEqual([
      // Owning only the map itself is written as a leaf.
      entry('kubectl-create', T0, { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } }),
      entry('editor', T1, { 'f:data': { 'f:a': {}, 'f:c': {} } }),
    ]);
  });

  it('keeps an entry and its time when its manager changes nothing, and merges into it when it does', () => {
    const old = cm({ a: '1', b: '2' }, created);
    expect(update({ old, obj: cm({ a: '1', b: '2' }, created), manager: 'kubectl-create', now: LATER })).toEqual(created);
    const relabelled = update({ old, obj: cm({ a: '1', b: '2' }, created, { app: 'web', tier: 'db' }), manager: 'kubectl-create', now: LATER });
    expect(relabelled).toEqual([entry('kubectl-create', T1, { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:tier': {} } } })]);
  });

  it('drops an entry left without fields', () => {
    const old = cm({ a: '1' }, [entry('writer', T0, { 'f:data': { 'f:a': {} } }), entry('other', T0, { 'f:metadata': { 'f:labels': { 'f:app': {} } } })]);
    const result = update({ old, obj: cm({}, old.metadata.managedFields), manager: 'cleaner', now: LATER });
    expect(result).toEqual([entry('other', T0, { 'f:metadata': { 'f:labels': { 'f:app': {} } } })]);
  });

  it('keeps one entry per manager, API version and subresource', () => {
    const old = cm({ a: '1' }, [entry('writer', T0, { 'f:data': { 'f:a': {} } }, { apiVersion: 'v1beta1' })]);
    const result = update({ old, obj: cm({ a: '1', b: '2' }, old.metadata.managedFields), manager: 'writer', now: LATER });
    expect(result.map((e) => [e.manager, e.apiVersion, e.fieldsV1])).toEqual([
      ['writer', 'v1beta1', { 'f:data': { 'f:a': {} } }],
      ['writer', 'v1', { 'f:data': { 'f:b': {} } }],
    ]);
  });

  it('names a manager without a name "unknown"', () => {
    expect(update({ obj: cm({ a: '1' }), manager: '' })[0]?.manager).toBe('unknown');
  });
});

describe('managedFields a request carries', () => {
  const stored = [entry('kubectl-create', T0, { 'f:data': { '.': {}, 'f:a': {} } })];
  const old = cm({ a: '1' }, stored);

  it('does not start tracking an object that has none (only an apply does)', () => {
    expect(update({ old: cm({ a: '1' }), obj: cm({ a: '2' }), manager: 'editor' })).toEqual([]);
  });

  it('resets them on [] and on [{}]', () => {
    expect(update({ old, obj: cm({ a: '2' }, []), manager: 'editor' })).toEqual([]);
    expect(update({ old, obj: cm({ a: '2' }, [{}]), manager: 'editor' })).toEqual([]);
  });

  it('takes a valid rewrite, then records the update on top', () => {
    // kubectl's client-side to server-side apply migration rewrites the entries this way.
    const migrated = [entry('kubectl', T0, { 'f:data': { '.': {}, 'f:a': {} } }, { operation: 'Apply', apiVersion: 'v1' })];
    expect(update({ old, obj: cm({ a: '1' }, migrated), manager: 'kubectl', now: LATER })).toEqual(migrated);
    expect(update({ old, obj: cm({ a: '1', b: '2' }, migrated), manager: 'editor', now: LATER })).toEqual([...migrated, entry('editor', T1, { 'f:data': { 'f:b': {} } })]);
  });

  it('keeps the stored ones when the request omits them or sends invalid ones', () => {
    expect(update({ old, obj: cm({ a: '1' }), manager: 'editor' })).toEqual(stored);
    const invalid = [{ manager: 'x', operation: 'Patch', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] as unknown as ManagedFieldsEntry[];
    expect(update({ old, obj: cm({ a: '1' }, invalid), manager: 'editor' })).toEqual(stored);
    expect(update({ old, obj: cm({ a: '1' }, [entry('x', T0, { 'f:a': 1 })]), manager: 'editor' })).toEqual(stored);
  });

  it('ignores them on a subresource write', () => {
    expect(update({ old, obj: cm({ a: '1' }, []), manager: 'editor', subresource: 'status' })).toEqual(stored);
  });
});

describe('reset fields and subresources', () => {
  const deployments = schemaOf('Deployment');
  const stored = kube({ ...deployment({ replicas: 1 }), status: { observedGeneration: 1 } });
  const base = { schema: deployments, apiVersion: 'apps/v1', now: LATER };

  it('does not give status to a writer of the main resource', () => {
    const old: KubeObject = { ...stored, metadata: { ...stored.metadata, managedFields: [entry('kubectl-create', T0, { 'f:spec': { 'f:replicas': {} } }, { apiVersion: 'apps/v1' })] } };
    const obj = { ...old, spec: { ...(old.spec as object), replicas: 2 }, status: { observedGeneration: 1, replicas: 5 } };
    expect(computeUpdateManagedFields({ ...base, resetFields: statusResetFields(), old, obj, manager: 'kubectl-scale' })).toEqual([
      entry('kubectl-scale', T1, { 'f:spec': { 'f:replicas': {} } }, { apiVersion: 'apps/v1' }),
    ]);
  });

  it('gives a status writer status only, in an entry of its own', () => {
    const mine = entry('kubectl-create', T0, { 'f:spec': { 'f:replicas': {} } }, { apiVersion: 'apps/v1' });
    const old = { ...stored, metadata: { ...stored.metadata, managedFields: [mine] } };
    const obj = { ...old, metadata: { ...old.metadata, labels: { app: 'changed' } }, status: { observedGeneration: 1, replicas: 1 } };
    expect(
      computeUpdateManagedFields({ ...base, resetFields: fieldsOutside(deployments, ['status']), old, obj, manager: 'kube-controller-manager', subresource: 'status' }),
    ).toEqual([mine, entry('kube-controller-manager', T1, { 'f:status': { 'f:replicas': {} } }, { apiVersion: 'apps/v1', subresource: 'status' })]);
  });
});

describe('creates', () => {
  // Kubernetes' OpenAPI marks non-pointer structs `default: {}` and lists without omitempty required;
  // a create is compared with Go's zero value, which has them, so they get no `".": {}`.
  const containers = list(object('A container.', { name: string('Name.'), image: string('Image.') }), 'Containers.', { mergeKey: 'name', strategy: 'merge' });
  const kind: Schema = object('A kind with non-pointer structs.', {
    metadata: { ...described(metaRef('ObjectMeta'), 'Metadata.'), default: {} },
    spec: {
      ...object('Spec.', { replicas: integer('Replicas.'), template: object('Template.', { containers }, { required: ['containers'] }) }, { required: ['template'] }),
      default: {},
    },
  });

  it('compares a create with Go’s zero value of the kind', () => {
    const obj: KubeObject = { metadata: { name: 'x', labels: { app: 'web' } }, spec: { replicas: 1, template: { containers: [{ name: 'a', image: 'nginx' }] } } };
    expect(computeUpdateManagedFields({ schema: kind, resetFields: new FieldSet(), old: undefined, obj, manager: 'kubectl-create', apiVersion: 'example/v1', now: NOW })).toEqual([
      entry(
        'kubectl-create',
        T0,
        { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
        { apiVersion: 'example/v1' },
      ),
    ]);
  });

  it('keeps the stored entries when the object’s lists cannot be keyed', () => {
    const old = { ...stored(), metadata: { name: 'p', managedFields: [entry('a', T0, { 'f:spec': {} })] } };
    const obj = { ...old, spec: { containers: [{ image: 'no-name' }] } };
    expect(computeUpdateManagedFields({ schema: schemaOf('Pod'), resetFields: new FieldSet(), old, obj, manager: 'b', apiVersion: 'v1', now: NOW })).toEqual(old.metadata.managedFields);
  });

  it('gives creates of one shape the same fields, each its own writer, time and copy', () => {
    const resetFields = new FieldSet();
    const create = (name: string, image: string, manager: string, now: Date) =>
      computeUpdateManagedFields({ schema: kind, resetFields, old: undefined, obj: { metadata: { name }, spec: { template: { containers: [{ name: 'a', image }] } } }, manager, apiVersion: 'example/v1', now });
    const fields = { 'f:spec': { 'f:template': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } };
    const first = create('x', 'nginx', 'one', NOW);
    first[0]!.fieldsV1!['f:spec'] = {};
    expect(create('y', 'redis', 'two', LATER)).toEqual([entry('two', T1, fields, { apiVersion: 'example/v1' })]);
  });

  it('tells creates apart by their list items, which name fields', () => {
    const pod = (container: string): KubeObject => ({ metadata: { name: 'p' }, spec: { containers: [{ name: container, image: 'x' }] } });
    const resetFields = statusResetFields();
    const create = (obj: KubeObject) => computeUpdateManagedFields({ schema: schemaOf('Pod'), resetFields, old: undefined, obj, manager: 'm', apiVersion: 'v1', now: NOW });
    expect(Object.keys((create(pod('a'))[0]!.fieldsV1!['f:spec'] as Record<string, Record<string, unknown>>)['f:containers']!)).toEqual(['.', 'k:{"name":"a"}']);
    expect(Object.keys((create(pod('b'))[0]!.fieldsV1!['f:spec'] as Record<string, Record<string, unknown>>)['f:containers']!)).toEqual(['.', 'k:{"name":"b"}']);
  });

  it('gives a create the fields it set to other values than the kind’s defaults, whatever an earlier create set', () => {
    const defaulted: Schema = object('A kind whose spec defaults to one replica.', { spec: { ...object('Spec.', { replicas: integer('Replicas.') }), default: { replicas: 1 } } });
    const resetFields = new FieldSet();
    const create = (replicas: number) => computeUpdateManagedFields({ schema: defaulted, resetFields, old: undefined, obj: { metadata: {}, spec: { replicas } }, manager: 'm', apiVersion: 'example/v1', now: NOW });
    expect(create(1)).toEqual([]);
    expect(create(2)).toEqual([entry('m', T0, { 'f:spec': { 'f:replicas': {} } }, { apiVersion: 'example/v1' })]);
  });

  it('writes no entry for a create that takes nothing, the first time as the next', () => {
    const resetFields = new FieldSet();
    const create = () => computeUpdateManagedFields({ schema: kind, resetFields, old: undefined, obj: { metadata: {} }, manager: 'm', apiVersion: 'example/v1', now: NOW });
    expect(create()).toEqual([]);
    expect(create()).toEqual([]);
  });

  function stored(): KubeObject {
    return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] } };
  }
});

describe('the cap on Update entries', () => {
  it('folds the oldest entries of a version into "ancient-changes" past ten', () => {
    const times = ['2024-05-01T01:00:00Z', '2024-05-01T02:00:00Z', '2024-05-01T03:00:00Z'];
    const writers = Array.from({ length: 10 }, (_, i) => entry(`w${i}`, times[Math.min(i, 2)], { 'f:data': { [`f:k${i}`]: {} } }));
    const old = cm(Object.fromEntries(writers.map((_, i) => [`k${i}`, 'v'])), writers);
    const result = update({ old, obj: cm({ ...(old.data as Record<string, string>), new: 'v' }, writers), manager: 'w10', now: EVEN_LATER });
    expect(result.map((e) => [e.manager, e.time, e.fieldsV1])).toEqual([
      ['ancient-changes', times[1], { 'f:data': { 'f:k0': {}, 'f:k1': {} } }],
      ['w2', times[2], { 'f:data': { 'f:k2': {} } }],
      ...[3, 4, 5, 6, 7, 8, 9].map((i) => [`w${i}`, times[2], { 'f:data': { [`f:k${i}`]: {} } }]),
      ['w10', T2, { 'f:data': { 'f:new': {} } }],
    ]);
  });
});
