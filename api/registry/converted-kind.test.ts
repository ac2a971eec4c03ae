/**
 * A kind whose versions convert through a call (a CRD's conversion webhook): the generic store and
 * the watch cache store objects in the storage version and serve them in the version asked,
 * converting each space's objects in one call, watch events in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ref, type Schema } from '../schema/schema.js';
import { ApiError } from '../status.js';
import { GenericStore } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';
import { convertingSink, MAX_EVENTS_AWAITING_CONVERSION } from './watch.js';
import { defineKind, type ObjectConverter } from './resource-definition.js';
import type { ApiWatchEvent } from './watch.js';
import { WatchCaches } from './watch-cache.js';

const V1 = 'stable.example.com/v1';
const V2 = 'stable.example.com/v2';

/** v1 has `spec.cronSpec`, v2 `spec.schedule`; records each call's space, version and names. */
function renamingConverter() {
  const calls: string[] = [];
  let failing = false;
  const converter: ObjectConverter = {
    async convert(objects, apiVersion, tenant) {
      const sent = objects.filter((o) => o.apiVersion !== apiVersion);
      if (sent.length > 0) calls.push(`${tenant} ${apiVersion} ${sent.map((o) => o.metadata.name).join(',')}`);
      if (failing && sent.length > 0) throw new ApiError(500, '', 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: broken');
      // Some time passes, so a later event converted without waiting would overtake this one.
      await new Promise((resolve) => setTimeout(resolve, 5));
      return objects.map((o) => {
        if (o.apiVersion === apiVersion) return o;
        const spec = (o['spec'] ?? {}) as Record<string, unknown>;
        const value = spec['cronSpec'] ?? spec['schedule'];
        return { ...structuredClone(o), apiVersion, spec: apiVersion === V2 ? { schedule: value } : { cronSpec: value } };
      });
    },
  };
  return { converter, calls, fail: () => (failing = true) };
}

const SCHEMA: Schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta') } };

function kinds(converter: ObjectConverter) {
  const common = { group: 'stable.example.com', kind: 'CronTab', resource: 'crontabs', scope: 'namespace' as const, storageVersion: 'v1', converter, unstructured: true, schema: SCHEMA };
  return { v1: defineKind<KubeObject>({ ...common, version: 'v1' }), v2: defineKind<KubeObject>({ ...common, version: 'v2' }) };
}

const crontab = (name: string, schedule: string): KubeObject => ({ apiVersion: V2, kind: 'CronTab', metadata: { name }, spec: { schedule } }) as KubeObject;

describe('a kind converted through a call', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  let caches: WatchCaches;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'converted-kind-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
    caches = new WatchCaches(generic);
  });

  afterEach(async () => {
    await caches.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores in the storage version and reads in the version asked, one call per space of a list', async () => {
    const { converter, calls } = renamingConverter();
    const { v1, v2 } = kinds(converter);
    const created = await generic.create(v2, { tenant: 't1', namespace: 'ns' }, crontab('a', '* * * * */5'));
    expect(created).toMatchObject({ apiVersion: V2, spec: { schedule: '* * * * */5' } });
    await generic.create(v2, { tenant: 't1', namespace: 'ns' }, crontab('b', '1 * * * *'));
    await generic.create(v2, { tenant: 't2', namespace: 'ns' }, crontab('c', '2 * * * *'));
    const { kv } = await store.get('/registry/stable.example.com/crontabs/t1/ns/a');
    expect(JSON.parse(kv!.value)).toMatchObject({ apiVersion: V1, spec: { cronSpec: '* * * * */5' } });
    // Each write: to the storage version, and what was stored back to the version written, as kube answers.
    expect(calls).toEqual([`t1 ${V1} a`, `t1 ${V2} a`, `t1 ${V1} b`, `t1 ${V2} b`, `t2 ${V1} c`, `t2 ${V2} c`]);

    calls.length = 0;
    expect(await generic.get(v1, { tenant: 't1', namespace: 'ns', name: 'a' })).toMatchObject({ apiVersion: V1, spec: { cronSpec: '* * * * */5' } });
    expect(await generic.get(v2, { tenant: 't1', namespace: 'ns', name: 'a' })).toMatchObject({ apiVersion: V2, spec: { schedule: '* * * * */5' } });
    expect(calls).toEqual([`t1 ${V2} a`]);

    calls.length = 0;
    const listed = await generic.list(v2, { tenant: 'all' });
    expect(listed.items.map((o) => [o.metadata.name, o.apiVersion])).toEqual([
      ['a', V2],
      ['b', V2],
      ['c', V2],
    ]);
    expect(calls).toEqual([`t1 ${V2} a,b`, `t2 ${V2} c`]);

    calls.length = 0;
    const cached = await caches.list(v2, { tenant: 't1' }, {});
    expect(cached.items.map((o) => o['spec'])).toEqual([{ schedule: '* * * * */5' }, { schedule: '1 * * * *' }]);
    expect(calls).toEqual([`t1 ${V2} a,b`]);
  });

  it('updates through the version asked: the old object converted to it, the new one back to storage', async () => {
    const { converter } = renamingConverter();
    const { v2 } = kinds(converter);
    await generic.create(v2, { tenant: 't1', namespace: 'ns' }, crontab('a', 'old'));
    const updated = await generic.mutate(v2, { tenant: 't1', namespace: 'ns', name: 'a' }, (o) => ({ ...o, spec: { schedule: `${(o['spec'] as { schedule: string }).schedule}-new` } }));
    expect(updated['spec']).toEqual({ schedule: 'old-new' });
    const { kv } = await store.get('/registry/stable.example.com/crontabs/t1/ns/a');
    expect(JSON.parse(kv!.value)).toMatchObject({ apiVersion: V1, spec: { cronSpec: 'old-new' } });
    expect(updated.metadata.resourceVersion).toBe(String(kv!.modRevision));
  });

  it('converts nothing more for a watch its client stopped', async () => {
    const { converter, calls } = renamingConverter();
    const { v1, v2 } = kinds(converter);
    for (const name of ['a', 'b', 'c']) await generic.create(v1, { tenant: 't1', namespace: 'ns' }, { ...crontab(name, name), apiVersion: V1, spec: { cronSpec: name } });
    const events: ApiWatchEvent[] = [];
    const active = await caches.startWatch(v2, { tenant: 't1' }, {}, { send: (e) => events.push(e), end: () => undefined });
    active.stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first initial event was being converted when the watch stopped; the others never were.
    expect(calls).toEqual([`t1 ${V2} a`]);
    expect(events).toHaveLength(0);
  });

  it('keeps a write whose answer fails to convert back: the error is answered, the object stays stored', async () => {
    const { converter, calls } = renamingConverter();
    const failingBack: ObjectConverter = {
      convert: (objects, apiVersion, tenant, list) => (apiVersion === V2 ? Promise.reject(new ApiError(500, '', 'broken on the way back')) : converter.convert(objects, apiVersion, tenant, list)),
    };
    const { v2 } = kinds(failingBack);
    await expect(generic.create(v2, { tenant: 't1', namespace: 'ns' }, crontab('a', 'x'))).rejects.toThrow('broken on the way back');
    expect(calls).toEqual([`t1 ${V1} a`]);
    expect((await store.get('/registry/stable.example.com/crontabs/t1/ns/a')).kv).toBeDefined();
  });

  it('sends watch events converted and in order, and ends the watch with an ERROR when a conversion fails', async () => {
    const { converter, fail } = renamingConverter();
    const { v2 } = kinds(converter);
    const events: ApiWatchEvent[] = [];
    let ended = false;
    await caches.startWatch(v2, { tenant: 't1' }, {}, { send: (e) => events.push(e), end: () => (ended = true) });
    for (const name of ['a', 'b', 'c']) await generic.create(v2, { tenant: 't1', namespace: 'ns' }, crontab(name, name));
    await vi.waitFor(() => expect(events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.apiVersion}`)).toEqual([`ADDED a ${V2}`, `ADDED b ${V2}`, `ADDED c ${V2}`]));
    fail();
    await store.create('/registry/stable.example.com/crontabs/t1/ns/d', JSON.stringify({ apiVersion: V1, kind: 'CronTab', metadata: { name: 'd', namespace: 'ns', tenant: 't1' }, spec: { cronSpec: 'd' } }));
    await vi.waitFor(() => expect(ended).toBe(true));
    expect(events.at(-1)).toMatchObject({ type: 'ERROR', object: { code: 500, message: 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: broken' } });
  });
});

describe('convertingSink', () => {
  it('ends a watch whose events wait for a conversion that does not come, past MAX_EVENTS_AWAITING_CONVERSION', async () => {
    const stalled = { served: () => new Promise<KubeObject[]>(() => undefined) } as unknown as GenericStore;
    const sent: string[] = [];
    let ended = 0;
    const sink = convertingSink(stalled, {} as ResourceDefinition, { send: (e) => sent.push(e.type), end: () => (ended += 1) });
    const object: KubeObject = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' } };
    for (let i = 0; i < MAX_EVENTS_AWAITING_CONVERSION; i += 1) sink.send({ type: 'MODIFIED', object });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(0);
    sink.send({ type: 'MODIFIED', object });
    expect(ended).toBe(1);
    sink.send({ type: 'MODIFIED', object });
    expect(ended).toBe(1);
    expect(sent).toEqual([]);
  });
});
