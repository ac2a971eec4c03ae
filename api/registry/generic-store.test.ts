import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ApiError } from '../status.js';
import { define, map, object, ref, string } from '../schema/schema.js';
import { GenericStore } from './generic-store.js';
import type { KubeObject } from './object.js';
import { defineKind } from './resource-definition.js';
import { startStoreWatch, type ApiWatchEvent } from './watch.js';
import { parseLabelSelector } from '../selection/label-selector.js';

// A small kind of our own, so these tests do not depend on the built-in kinds' details.
const widgetSchema = define(
  'io.kubespaces.test.v1.Widget',
  object('A test kind.', {
    apiVersion: string('API version.'),
    kind: string('Kind.'),
    metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
    spec: object('Desired state.', { size: string('How big.'), tags: map(string('A tag.'), 'Tags.') }),
    status: object('Observed state.', { phase: string('Phase.') }),
  }),
);
const widgets = defineKind({
  group: 'test.kube-spaces.io',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  scope: 'namespace',
  schema: widgetSchema,
  status: true,
  tracksGeneration: true,
  allowUnconditionalUpdate: false,
  prepareForCreate: (obj) => {
    obj.status = { phase: 'New' };
  },
});

const t1 = { tenant: 't1', namespace: 'ns1' };
const widget = (name: string, spec: Record<string, unknown> = { size: 's' }): KubeObject => ({ apiVersion: 'test.kube-spaces.io/v1', kind: 'Widget', metadata: { name }, spec });

async function expectApiError(p: Promise<unknown>, code: number, reason: string): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect({ code: (err as ApiError).code, reason: (err as ApiError).reason }).toEqual({ code, reason });
    return err as ApiError;
  }
  throw new Error(`expected ${code} ${reason}`);
}

describe('GenericStore', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  beforeAll(async () => {
    await import('../schema/meta.js');
    dir = mkdtempSync(join(tmpdir(), 'generic-store-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates with system metadata, the tenant, a fresh status and generation 1', async () => {
    const created = await generic.create(widgets, t1, { ...widget('a'), status: { phase: 'Hacked' }, metadata: { name: 'a', uid: 'mine', resourceVersion: '7' } });
    expect(created.metadata).toMatchObject({ name: 'a', namespace: 'ns1', tenant: 't1', generation: 1 });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.status).toEqual({ phase: 'New' });
    expect(await generic.get(widgets, { ...t1, name: 'a' })).toEqual(created);
    await expectApiError(generic.create(widgets, t1, widget('a')), 409, 'AlreadyExists');
  });

  it('keeps spaces apart: the same name in two tenants are two objects', async () => {
    await generic.create(widgets, { tenant: 't2', namespace: 'ns1' }, widget('a', { size: 'xl' }));
    expect((await generic.get(widgets, { ...t1, name: 'a' })).spec).toEqual({ size: 's' });
    expect((await generic.get(widgets, { tenant: 't2', namespace: 'ns1', name: 'a' })).spec).toEqual({ size: 'xl' });
    expect((await generic.list(widgets, { tenant: 't1' })).items.map((o) => o.metadata.tenant)).toEqual(['t1']);
    expect((await generic.list(widgets, { tenant: 'all', namespace: 'ns1' })).items.map((o) => o.metadata.tenant).sort()).toEqual(['t1', 't2']);
  });

  it('refuses a body naming another tenant or namespace with 400', async () => {
    await expectApiError(generic.create(widgets, t1, { ...widget('b'), metadata: { name: 'b', tenant: 't2' } }), 400, 'BadRequest');
    await expectApiError(generic.create(widgets, t1, { ...widget('b'), metadata: { name: 'b', namespace: 'other' } }), 400, 'BadRequest');
    await expectApiError(generic.get(widgets, { ...t1, name: 'b' }), 404, 'NotFound');
  });

  it('decodes like kube-apiserver: wrong types 400, unknown fields per fieldValidation', async () => {
    await expectApiError(generic.create(widgets, t1, widget('c', { size: 3 })), 400, 'BadRequest');
    const strict = await expectApiError(generic.create(widgets, t1, widget('c', { size: 's', colour: 'red' }), { fieldValidation: 'Strict' }), 400, 'BadRequest');
    expect(strict.message).toBe('Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"');
    const warnings: string[] = [];
    const warned = await generic.create(widgets, t1, widget('c', { size: 's', colour: 'red' }), { fieldValidation: 'Warn', warnings });
    expect(warnings).toEqual(['unknown field "spec.colour"']);
    expect(warned.spec).toEqual({ size: 's' });
  });

  it('reports duplicate fields like unknown ones: 400 under Strict, a warning under Warn', async () => {
    const strict = await expectApiError(generic.create(widgets, t1, widget('dup'), { fieldValidation: 'Strict', duplicateFields: ['metadata.name'] }), 400, 'BadRequest');
    expect(strict.message).toBe('Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "metadata.name"');
    const warnings: string[] = [];
    await generic.create(widgets, t1, widget('dup'), { fieldValidation: 'Warn', duplicateFields: ['metadata.name'], warnings });
    expect(warnings).toEqual(['duplicate field "metadata.name"']);
  });

  it('answers 422 Invalid with one cause per field', async () => {
    const err = await expectApiError(generic.create(widgets, t1, { ...widget('Bad_Name'), metadata: { name: 'Bad_Name', labels: { 'a b': 'x' } } }), 422, 'Invalid');
    expect(err.details?.causes?.map((c) => c.field)).toEqual(['metadata.name', 'metadata.labels']);
  });

  it('generates names from generateName', async () => {
    const a = await generic.create(widgets, t1, { ...widget(''), metadata: { generateName: 'gen-' } });
    expect(a.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('updates with optimistic concurrency, keeps status and counts spec generations', async () => {
    const cur = await generic.create(widgets, t1, widget('u'));
    await expectApiError(generic.update(widgets, { ...t1, name: 'u' }, widget('u', { size: 'm' })), 422, 'Invalid');
    const next = await generic.update(widgets, { ...t1, name: 'u' }, { ...widget('u', { size: 'm' }), status: { phase: 'Ignored' }, metadata: { name: 'u', resourceVersion: cur.metadata.resourceVersion } });
    expect(next.object.spec).toEqual({ size: 'm' });
    expect(next.object.status).toEqual({ phase: 'New' });
    expect(next.object.metadata.generation).toBe(2);
    expect(Number(next.object.metadata.resourceVersion)).toBeGreaterThan(Number(cur.metadata.resourceVersion));
    await expectApiError(generic.update(widgets, { ...t1, name: 'u' }, { ...widget('u', { size: 'l' }), metadata: { name: 'u', resourceVersion: cur.metadata.resourceVersion } }), 409, 'Conflict');
    const status = await generic.update(widgets, { ...t1, name: 'u' }, { ...widget('u', { size: 'ignored' }), status: { phase: 'Ready' }, metadata: { name: 'u', resourceVersion: next.object.metadata.resourceVersion } }, { subresource: 'status' });
    expect(status.object.spec).toEqual({ size: 'm' });
    expect(status.object.status).toEqual({ phase: 'Ready' });
    expect(status.object.metadata.generation).toBe(2);
  });

  it('refuses a PUT whose body names another object, or none', async () => {
    const cur = await generic.create(widgets, t1, widget('named'));
    const rv = cur.metadata.resourceVersion;
    const other = await expectApiError(generic.update(widgets, { ...t1, name: 'named' }, { ...widget('other'), metadata: { name: 'other', resourceVersion: rv } }), 400, 'BadRequest');
    expect(other.message).toBe('the name of the object (other) does not match the name on the URL (named)');
    const none = await expectApiError(generic.update(widgets, { ...t1, name: 'named' }, { ...widget('x'), metadata: { resourceVersion: rv } }, { subresource: 'status' }), 400, 'BadRequest');
    expect(none.message).toBe('the name of the object () does not match the name on the URL (named)');
  });

  it('lets a PUT without resourceVersion create where the kind allows it, even if updates need one (Lease)', async () => {
    const gadgets = { ...widgets, resource: 'gadgets', allowCreateOnUpdate: true, allowUnconditionalUpdate: false };
    const made = await generic.update(gadgets, { ...t1, name: 'g' }, widget('g'));
    expect(made.created).toBe(true);
    const err = await expectApiError(generic.update(gadgets, { ...t1, name: 'g' }, widget('g', { size: 'm' })), 422, 'Invalid');
    expect(err.details?.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
  });

  it('checks a patch result like a decoded body: types, kind, unknown fields and name', async () => {
    const loc = { ...t1, name: 'patched' };
    const cur = await generic.create(widgets, t1, widget('patched'));
    const change = (f: (o: KubeObject) => unknown) => (o: KubeObject) => f(o) as KubeObject;
    const typed = await expectApiError(generic.mutate(widgets, loc, change((o) => ({ ...o, spec: { size: 5 } }))), 422, 'Invalid');
    expect(typed.details?.causes?.[0]).toMatchObject({ field: 'patch', message: expect.stringContaining('cannot unmarshal number into Go struct field Widget.spec.size of type string') });
    await expectApiError(generic.mutate(widgets, loc, change(() => 5)), 422, 'Invalid');
    await expectApiError(generic.mutate(widgets, loc, change((o) => ({ ...o, kind: 'Gadget' }))), 422, 'Invalid');
    const strict = await expectApiError(generic.mutate(widgets, loc, change((o) => ({ ...o, colour: 'red' })), { fieldValidation: 'Strict' }), 422, 'Invalid');
    expect(strict.details?.causes?.[0]?.message).toContain('strict decoding error: unknown field "colour"');
    const renamed = await expectApiError(generic.mutate(widgets, loc, change((o) => ({ ...o, metadata: { ...o.metadata, name: 'other' } }))), 400, 'BadRequest');
    expect(renamed.message).toBe('the name of the object (other) does not match the name on the URL (patched)');
    expect((await generic.get(widgets, loc)).metadata.resourceVersion).toBe(cur.metadata.resourceVersion);
    const warnings: string[] = [];
    const dropped = await generic.mutate(widgets, loc, change((o) => ({ ...o, colour: 'red', spec: { size: 'm' } })), { fieldValidation: 'Warn', warnings });
    expect(warnings).toEqual(['unknown field "colour"']);
    expect(dropped).not.toHaveProperty('colour');
    expect((await generic.get(widgets, loc)).spec).toEqual({ size: 'm' });
  });

  it('writes nothing when an update changes nothing', async () => {
    const cur = await generic.create(widgets, t1, widget('same'));
    const same = await generic.mutate(widgets, { ...t1, name: 'same' }, (o) => o);
    expect(same.metadata.resourceVersion).toBe(cur.metadata.resourceVersion);
  });

  it('holds an object with finalizers until they are removed, then deletes it', async () => {
    await generic.create(widgets, t1, { ...widget('f'), metadata: { name: 'f', finalizers: ['example.com/hold'] } });
    const first = await generic.delete(widgets, { ...t1, name: 'f' });
    expect(first.deleted).toBe(false);
    expect(first.object.metadata.deletionTimestamp).toBeDefined();
    const released = await generic.mutate(widgets, { ...t1, name: 'f' }, (o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } }));
    expect(released.metadata.finalizers).toEqual([]);
    await expectApiError(generic.get(widgets, { ...t1, name: 'f' }), 404, 'NotFound');
  });

  it('checks delete preconditions and supports dry run', async () => {
    const cur = await generic.create(widgets, t1, widget('d'));
    await expectApiError(generic.delete(widgets, { ...t1, name: 'd' }, { preconditions: { uid: 'nope' } }), 409, 'Conflict');
    await generic.delete(widgets, { ...t1, name: 'd' }, { dryRun: true });
    expect((await generic.get(widgets, { ...t1, name: 'd' })).metadata.uid).toBe(cur.metadata.uid);
    const gone = await generic.delete(widgets, { ...t1, name: 'd' }, { preconditions: { uid: cur.metadata.uid } });
    expect(gone.deleted).toBe(true);
  });

  it('dry-run create returns the object and stores nothing', async () => {
    const rv = await store.currentRevision();
    const obj = await generic.create(widgets, t1, widget('dry'), { dryRun: true });
    expect(obj.metadata.uid).toBeDefined();
    expect(obj.metadata.resourceVersion).toBeUndefined();
    expect(await store.currentRevision()).toBe(rv);
    await expectApiError(generic.get(widgets, { ...t1, name: 'dry' }), 404, 'NotFound');
  });

  it('pages lists with selectors, without remainingItemCount when filtered', async () => {
    for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) await generic.create(widgets, { tenant: 't3', namespace: 'ns' }, { ...widget(n), metadata: { name: n, labels: { odd: String(Number(n[1]) % 2) } } });
    const page1 = await generic.list(widgets, { tenant: 't3' }, { limit: 2 });
    expect(page1.items.map((o) => o.metadata.name)).toEqual(['p1', 'p2']);
    expect(page1.metadata.remainingItemCount).toBe(3);
    const page2 = await generic.list(widgets, { tenant: 't3' }, { limit: 2, continue: page1.metadata.continue });
    expect(page2.items.map((o) => o.metadata.name)).toEqual(['p3', 'p4']);
    const odd = await generic.list(widgets, { tenant: 't3' }, { limit: 2, labelSelector: parseLabelSelector('odd=1') });
    expect(odd.items.map((o) => o.metadata.name)).toEqual(['p1', 'p3']);
    expect(odd.metadata.remainingItemCount).toBeUndefined();
    const rest = await generic.list(widgets, { tenant: 't3' }, { limit: 2, continue: odd.metadata.continue, labelSelector: parseLabelSelector('odd=1') });
    expect(rest.items.map((o) => o.metadata.name)).toEqual(['p5']);
  });

  it('watches: initial ADDED, then changes; an object leaving the selector is DELETED', async () => {
    const scope = { tenant: 't4', namespace: 'ns' };
    await generic.create(widgets, scope, { ...widget('w1'), metadata: { name: 'w1', labels: { app: 'x' } } });
    const events: ApiWatchEvent[] = [];
    const w = await startStoreWatch(generic, store, widgets, scope, { labelSelector: parseLabelSelector('app=x') }, { send: (e) => events.push(e), end: () => undefined });
    await generic.mutate(widgets, { ...scope, name: 'w1' }, (o) => ({ ...o, metadata: { ...o.metadata, labels: { app: 'y' } } }));
    await generic.create(widgets, scope, { ...widget('w2'), metadata: { name: 'w2', labels: { app: 'x' } } });
    await generic.create(widgets, { tenant: 't5', namespace: 'ns' }, { ...widget('w3'), metadata: { name: 'w3', labels: { app: 'x' } } });
    for (let i = 0; i < 50 && events.length < 3; i += 1) await new Promise((r) => setTimeout(r, 20));
    w.stop();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED w1', 'DELETED w1', 'ADDED w2']);
  });
});
