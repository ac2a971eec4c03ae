/**
 * The watch cache over the embedded store: one storage watch per kind whatever the number of
 * watchers, the same events a storage watch gives (scope, selectors entering and leaving), resumes
 * replayed from the window, older revisions served by storage, and a failed storage watch ending
 * every watch with an ERROR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { parseLabelSelector } from '../selection/label-selector.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { GenericStore } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';
import { startStoreWatch, type ApiWatchEvent, type WatchQuery } from './watch.js';
import { BOOKMARK_INTERVAL_MS, CurrentRevision, WatchCaches } from './watch-cache.js';

const coreEvents = builtinKinds.find((d) => d.group === '' && d.resource === 'events') as ResourceDefinition;
const v1Events = builtinKinds.find((d) => d.group === 'events.k8s.io' && d.resource === 'events') as ResourceDefinition;
const configMaps = builtinKinds.find((d) => d.group === '' && d.resource === 'configmaps') as ResourceDefinition;
const cm = (name: string, labels: Record<string, string> = {}, data = 'v'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { k: data } });

/** A watch's events as `TYPE tenant/name` lines. */
function recorder() {
  const events: ApiWatchEvent[] = [];
  let ended = false;
  return {
    sink: { send: (e: ApiWatchEvent) => events.push(e), end: () => (ended = true) },
    lines: () => events.map((e) => (e.type === 'BOOKMARK' || e.type === 'ERROR' ? e.type : `${e.type} ${e.object.metadata.tenant}/${e.object.metadata.name}`)),
    events,
    ended: () => ended,
  };
}

describe('WatchCaches', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  let caches: WatchCaches;
  const eventually = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 5000, interval: 10 });
  const create = (tenant: string, obj: KubeObject) => generic.create(configMaps, { tenant, namespace: 'ns' }, obj);
  const update = (tenant: string, name: string, change: (o: KubeObject) => void) =>
    generic.mutate(configMaps, { tenant, namespace: 'ns', name }, (o) => {
      change(o);
      return o;
    });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'watch-cache-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
    caches = new WatchCaches(generic, { events: 4, bytes: 1024 * 1024 });
  });

  afterEach(async () => {
    await caches.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves many watchers of a kind from one storage watch, each seeing only its space', async () => {
    const watchSpy = vi.spyOn(store, 'watch');
    await create('t1', cm('before'));
    await create('t10', cm('other-before'));
    const t1a = recorder();
    const t1b = recorder();
    const all = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, t1a.sink);
    await caches.startWatch(configMaps, { tenant: 't1', namespace: 'ns' }, {}, t1b.sink);
    await caches.startWatch(configMaps, { tenant: 'all' }, {}, all.sink);
    expect(watchSpy).toHaveBeenCalledTimes(1);
    await create('t1', cm('after'));
    await create('t10', cm('other-after'));
    await eventually(() => expect(all.lines()).toHaveLength(4));
    expect(t1a.lines()).toEqual(['ADDED t1/before', 'ADDED t1/after']);
    expect(t1b.lines()).toEqual(['ADDED t1/before', 'ADDED t1/after']);
    expect(all.lines()).toEqual(['ADDED t1/before', 'ADDED t10/other-before', 'ADDED t1/after', 'ADDED t10/other-after']);
  });

  it('retires a kind served no more: its watches end, its cache goes, and later reads go to storage without a new cache', async () => {
    const watchSpy = vi.spyOn(store, 'watch');
    await create('t1', cm('a'));
    const watcher = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, watcher.sink);
    expect(caches.stats().map((s) => s.def)).toEqual([configMaps]);
    caches.retire(configMaps);
    await eventually(() => expect(watcher.ended()).toBe(true));
    expect(watcher.lines()).toEqual(['ADDED t1/a']);
    expect(caches.stats()).toEqual([]);
    expect((await caches.list(configMaps, { tenant: 't1' }, {})).items.map((o) => o.metadata.name)).toEqual(['a']);
    expect((await caches.get(configMaps, { tenant: 't1', namespace: 'ns', name: 'a' }))?.metadata.name).toBe('a');
    expect(await caches.get(configMaps, { tenant: 't1', namespace: 'ns', name: 'gone' })).toBeUndefined();
    const late = recorder();
    const handle = await caches.startWatch(configMaps, { tenant: 't1' }, {}, late.sink);
    handle.stop();
    expect(caches.stats()).toEqual([]);
    // One storage watch for the cache, one for the late watch served by storage.
    expect(watchSpy).toHaveBeenCalledTimes(2);
  });

  it('turns updates into ADDED, MODIFIED and DELETED as objects enter and leave a selector, like a storage watch', async () => {
    await create('t1', cm('a', { app: 'x' }));
    const query: WatchQuery = { labelSelector: parseLabelSelector('app=web') };
    const cached = recorder();
    const direct = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, query, cached.sink);
    const handle = await startStoreWatch(generic, store, configMaps, { tenant: 't1' }, query, direct.sink);
    await update('t1', 'a', (o) => (o.metadata.labels = { app: 'web' }));
    await update('t1', 'a', (o) => (o.data = { k: 'changed' }));
    await update('t1', 'a', (o) => (o.metadata.labels = { app: 'x' }));
    await create('t1', cm('b', { app: 'web' }));
    await generic.delete(configMaps, { tenant: 't1', namespace: 'ns', name: 'b' });
    await eventually(() => expect(direct.lines()).toHaveLength(5));
    await eventually(() => expect(cached.lines()).toEqual(direct.lines()));
    expect(cached.lines()).toEqual(['ADDED t1/a', 'MODIFIED t1/a', 'DELETED t1/a', 'ADDED t1/b', 'DELETED t1/b']);
    expect(cached.events.map((e) => e.object.metadata.resourceVersion)).toEqual(direct.events.map((e) => e.object.metadata.resourceVersion));
    handle.stop();
  });

  it('replays a resume from a revision inside the window, and hands out frozen objects', async () => {
    const first = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, first.sink);
    const a = await create('t1', cm('a'));
    await create('t1', cm('b'));
    await eventually(() => expect(first.lines()).toHaveLength(2));
    const resumed = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, { resourceVersion: a.metadata.resourceVersion }, resumed.sink);
    expect(resumed.lines()).toEqual(['ADDED t1/b']);
    expect(Object.isFrozen(resumed.events[0]!.object.metadata)).toBe(true);
  });

  it('serves a resume from before the window from storage, with the same events', async () => {
    const first = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, first.sink);
    const a = await create('t1', cm('a'));
    // More writes than twice the window (4) push `a`'s successors out of it.
    for (let i = 0; i < 10; i += 1) await create('t1', cm(`n${i}`));
    await eventually(() => expect(first.lines()).toHaveLength(11));
    const watchSpy = vi.spyOn(store, 'watch');
    const resumed = recorder();
    const handle = await caches.startWatch(configMaps, { tenant: 't1' }, { resourceVersion: a.metadata.resourceVersion }, resumed.sink);
    expect(watchSpy).toHaveBeenCalledTimes(1);
    await eventually(() => expect(resumed.lines()).toEqual(Array.from({ length: 10 }, (_, i) => `ADDED t1/n${i}`)));
    handle.stop();
  });

  it('answers a watch from a revision newer than the cache without replaying older events', async () => {
    const first = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, first.sink);
    await create('t1', cm('a'));
    const later = await store.currentRevision();
    const resumed = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, { resourceVersion: String(later) }, resumed.sink);
    await create('t1', cm('b'));
    await eventually(() => expect(resumed.lines()).toEqual(['ADDED t1/b']));
  });

  it('sends the initial state and the initial-events-end bookmark for sendInitialEvents', async () => {
    await create('t1', cm('a'));
    const watch = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, watch.sink);
    expect(watch.lines()).toEqual(['ADDED t1/a', 'BOOKMARK']);
    expect(watch.events[1]!.object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('sends a watcher that allowed bookmarks one about every minute, even when nothing changed', async () => {
    await create('t1', cm('a'));
    const withBookmarks = recorder();
    const without = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, { allowWatchBookmarks: true }, withBookmarks.sink);
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, without.sink);
    const revision = Number(withBookmarks.events[0]!.object.metadata.resourceVersion);
    caches.sendDueBookmarks(Date.now() + BOOKMARK_INTERVAL_MS / 2);
    expect(withBookmarks.lines()).toEqual(['ADDED t1/a']);
    caches.sendDueBookmarks(Date.now() + BOOKMARK_INTERVAL_MS);
    expect(withBookmarks.lines()).toEqual(['ADDED t1/a', 'BOOKMARK']);
    expect(withBookmarks.events[1]!.object.metadata.resourceVersion).toBe(String(revision));
    // Due again only a minute after the last one.
    caches.sendDueBookmarks(Date.now() + BOOKMARK_INTERVAL_MS / 2);
    expect(withBookmarks.lines()).toEqual(['ADDED t1/a', 'BOOKMARK']);
    expect(without.lines()).toEqual(['ADDED t1/a']);
  });

  it('ends every watch with an ERROR when its storage watch fails, and starts afresh for the next', async () => {
    const watchSpy = vi.spyOn(store, 'watch');
    const watch = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, watch.sink);
    const handler = watchSpy.mock.calls[0]![2];
    handler.onError(new Error('connection lost'));
    expect(watch.lines()).toEqual(['ERROR']);
    expect(watch.ended()).toBe(true);
    expect(watch.events[0]!.object).toMatchObject({ kind: 'Status', code: 500, reason: 'InternalError' });
    const next = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, next.sink);
    expect(watchSpy).toHaveBeenCalledTimes(2);
    await create('t1', cm('a'));
    await eventually(() => expect(next.lines()).toEqual(['ADDED t1/a']));
  });

  it('refuses a wrong request before starting anything', async () => {
    await expect(caches.startWatch(configMaps, { tenant: 't1' }, { resourceVersion: 'abc' }, recorder().sink)).rejects.toThrow('invalid resource version "abc"');
    await expect(caches.startWatch(configMaps, { tenant: 't1' }, { sendInitialEvents: true }, recorder().sink)).rejects.toThrow(/requires setting resourceVersionMatch/);
  });

  it('lists a collection from memory for resourceVersion=0, by space and selector, at the cache revision', async () => {
    await create('t1', cm('b', { app: 'web' }));
    await create('t1', cm('a', { app: 'web' }));
    await create('t1', cm('c', { app: 'db' }));
    await create('t10', cm('a', { app: 'web' }));
    const listed = await caches.list(configMaps, { tenant: 't1' }, { labelSelector: parseLabelSelector('app=web') });
    expect(listed.items.map((o) => `${o.metadata.tenant}/${o.metadata.name}`)).toEqual(['t1/a', 't1/b']);
    expect(Number(listed.metadata.resourceVersion)).toBe(await store.currentRevision());
    const later = await create('t1', cm('d', { app: 'web' }));
    await eventually(async () => {
      const again = await caches.list(configMaps, { tenant: 't1' }, { labelSelector: parseLabelSelector('app=web') });
      expect(again.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'd']);
      expect(again.metadata.resourceVersion).toBe(later.metadata.resourceVersion);
    });
  });

  it('ends only the watcher whose sink throws; the others go on', async () => {
    const broken = { send: () => { throw new Error('cannot encode'); }, end: vi.fn() };
    const healthy = recorder();
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, broken);
    await caches.startWatch(configMaps, { tenant: 't1' }, {}, healthy.sink);
    await create('t1', cm('a'));
    await create('t1', cm('b'));
    await eventually(() => expect(healthy.lines()).toEqual(['ADDED t1/a', 'ADDED t1/b']));
    expect(broken.end).toHaveBeenCalledTimes(1);
  });

  it('bounds the window by bytes too: large objects push older events out sooner', async () => {
    const small = new WatchCaches(generic, { events: 1000, bytes: 8 * 1024 });
    try {
      const first = recorder();
      await small.startWatch(configMaps, { tenant: 't1' }, {}, first.sink);
      const a = await create('t1', cm('a'));
      for (let i = 0; i < 4; i += 1) await create('t1', cm(`big${i}`, {}, 'x'.repeat(3000)));
      await eventually(() => expect(first.lines()).toHaveLength(5));
      const watchSpy = vi.spyOn(store, 'watch');
      const resumed = recorder();
      const handle = await small.startWatch(configMaps, { tenant: 't1' }, { resourceVersion: a.metadata.resourceVersion }, resumed.sink);
      // `a`'s successors no longer fit: the resume is served by a storage watch, with the same events.
      expect(watchSpy).toHaveBeenCalledTimes(1);
      await eventually(() => expect(resumed.lines()).toEqual(['ADDED t1/big0', 'ADDED t1/big1', 'ADDED t1/big2', 'ADDED t1/big3']));
      handle.stop();
    } finally {
      await small.stop();
    }
  });

  it('serves one stored kind through two: events.k8s.io/v1 and core/v1 Events see each other\'s writes', async () => {
    const core = recorder();
    const v1 = recorder();
    await caches.startWatch(coreEvents, { tenant: 't1' }, {}, core.sink);
    await caches.startWatch(v1Events, { tenant: 't1' }, {}, v1.sink);
    const regarding = { kind: 'Pod', namespace: 'ns', name: 'web' };
    const eventTime = '2024-05-01T10:00:00.000000Z';
    await generic.create(v1Events, { tenant: 't1', namespace: 'ns' }, { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'web.1' }, eventTime, reportingController: 'c', reportingInstance: 'i', action: 'A', reason: 'R', regarding, note: 'from v1', type: 'Normal' });
    await generic.create(coreEvents, { tenant: 't1', namespace: 'ns' }, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.2' }, involvedObject: regarding, reason: 'R', message: 'from core', type: 'Normal', count: 1 });
    await eventually(() => expect([core.lines(), v1.lines()]).toEqual([['ADDED t1/web.1', 'ADDED t1/web.2'], ['ADDED t1/web.1', 'ADDED t1/web.2']]));
    expect(core.events.map((e) => [e.object.apiVersion, (e.object as { message?: string }).message])).toEqual([['v1', 'from v1'], ['v1', 'from core']]);
    expect(v1.events.map((e) => [e.object.apiVersion, (e.object as { note?: string }).note, (e.object as { deprecatedCount?: number }).deprecatedCount])).toEqual([['events.k8s.io/v1', 'from v1', undefined], ['events.k8s.io/v1', 'from core', 1]]);
    // One key for both: the events.k8s.io name reads the core object.
    const read = await generic.get(v1Events, { tenant: 't1', namespace: 'ns', name: 'web.2' });
    expect(read).toMatchObject({ regarding, note: 'from core' });
    expect((await store.list('/registry/events.k8s.io/', {})).items).toEqual([]);
  });

  it('answers a GET without resourceVersion from memory once the cache has every acknowledged write', async () => {
    await caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'absent' }).catch(() => undefined); // loads the cache
    const getSpy = vi.spyOn(store, 'get');
    for (let i = 0; i < 20; i += 1) {
      const written = await create('t1', cm(`c${i}`, {}, String(i)));
      // Read right after the write is acknowledged: the cache must have it, whatever its delay.
      const read = await caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: `c${i}` });
      expect(read.metadata.resourceVersion).toBe(written.metadata.resourceVersion);
    }
    expect(getSpy).not.toHaveBeenCalled();
    const changed = await update('t1', 'c0', (o) => void Object.assign(o, { data: { k: 'changed' } }));
    expect(await caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'c0' })).toMatchObject({ data: { k: 'changed' }, metadata: { resourceVersion: changed.metadata.resourceVersion } });
    await generic.delete(configMaps, { tenant: 't1', namespace: 'ns', name: 'c1' });
    await expect(caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'c1' })).rejects.toMatchObject({ reason: 'NotFound', message: 'configmaps "c1" not found' });
    await expect(caches.read(configMaps, { tenant: 't2', namespace: 'ns', name: 'c2' })).rejects.toMatchObject({ reason: 'NotFound' });
  });

  it('catches up for a kind nobody writes: the store reports progress when asked', async () => {
    await create('t1', cm('quiet'));
    await caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'quiet' });
    // Writes to another kind move the store's revision past every ConfigMap event.
    for (let i = 0; i < 5; i += 1) await generic.create(coreEvents, { tenant: 't1', namespace: 'ns' }, { apiVersion: 'v1', kind: 'Event', metadata: { name: `e${i}` }, involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' }, reason: 'R', message: 'm', type: 'Normal', count: 1 });
    const getSpy = vi.spyOn(store, 'get');
    expect(await caches.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'quiet' })).toMatchObject({ metadata: { name: 'quiet' } });
    expect(getSpy).not.toHaveBeenCalled();
  });

  it('reads storage when the cache cannot reach the store\'s revision in time, and for an exact resourceVersion', async () => {
    const slow = new WatchCaches(generic, { events: 4, bytes: 1024 * 1024 }, 50);
    try {
      const written = await create('t1', cm('x'));
      await slow.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'x' });
      const current = await store.currentRevision();
      vi.spyOn(store, 'currentRevision').mockResolvedValue(current + 1000);
      const getSpy = vi.spyOn(store, 'get');
      expect(await slow.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'x' })).toMatchObject({ metadata: { resourceVersion: written.metadata.resourceVersion } });
      expect(getSpy).toHaveBeenCalledTimes(1);
      await slow.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'x' }, written.metadata.resourceVersion);
      expect(getSpy).toHaveBeenCalledTimes(2);
      // resourceVersion=0 takes the cache as it is.
      await slow.read(configMaps, { tenant: 't1', namespace: 'ns', name: 'x' }, '0');
      expect(getSpy).toHaveBeenCalledTimes(2);
    } finally {
      await slow.stop();
    }
  });
});


describe('WatchCaches LIST requests', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  let caches: WatchCaches;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'watch-cache-list-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
    caches = new WatchCaches(generic);
  });

  afterEach(async () => {
    await caches.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = (items: KubeObject[]) => items.map((o) => `${o.metadata.tenant}/${o.metadata.namespace}/${o.metadata.name}`);

  it('serves a consistent first page from memory and the rest from storage at its revision, as storage alone would', async () => {
    for (const tenant of ['t1', 't10', 't2']) {
      for (const ns of ['a', 'b']) for (let i = 0; i < 5; i += 1) await generic.create(configMaps, { tenant, namespace: ns }, cm(`cm${i}`, { odd: String(i % 2) }));
    }
    await caches.list(configMaps, { tenant: 't1' }, {}); // loads the cache
    const listSpy = vi.spyOn(store, 'list');
    const first = (await caches.readList(configMaps, { tenant: 't1' }, {}, undefined, 4))!;
    expect(listSpy).not.toHaveBeenCalled();
    expect(names(first.items)).toEqual(['t1/a/cm0', 't1/a/cm1', 't1/a/cm2', 't1/a/cm3']);
    expect(first.metadata.remainingItemCount).toBe(6);
    // A write after the first page is not in the later pages: they are read at the first page's revision.
    await generic.create(configMaps, { tenant: 't1', namespace: 'b' }, cm('late'));
    const rest = await generic.list(configMaps, { tenant: 't1' }, { continue: first.metadata.continue });
    expect(names(rest.items)).toEqual(['t1/a/cm4', 't1/b/cm0', 't1/b/cm1', 't1/b/cm2', 't1/b/cm3', 't1/b/cm4']);
    expect(rest.metadata.resourceVersion).toBe(first.metadata.resourceVersion);

    // Selectors, namespaces and the space boundary (t1 is a prefix of t10) as storage answers them.
    const odd = (await caches.readList(configMaps, { tenant: 't1', namespace: 'b' }, { labelSelector: parseLabelSelector('odd=1') }, undefined, 0))!;
    expect(names(odd.items)).toEqual(['t1/b/cm1', 't1/b/cm3']);
    const all = (await caches.readList(configMaps, { tenant: 'all' }, {}, undefined, 0))!;
    expect(all.items).toHaveLength(31);
    const fromStorage = await generic.list(configMaps, { tenant: 't1' }, {});
    expect(names((await caches.readList(configMaps, { tenant: 't1' }, {}, undefined, 0))!.items)).toEqual(names(fromStorage.items));
    // resourceVersion=0 takes no limit; an exact revision is storage's.
    expect((await caches.readList(configMaps, { tenant: 't1' }, {}, '0', 2))!.items).toHaveLength(11);
    expect(await caches.readList(configMaps, { tenant: 't1' }, {}, first.metadata.resourceVersion, 2)).toBeUndefined();
  });
});

describe('CurrentRevision', () => {
  it('shares one storage read among the readers that arrive while none is out, and never hands a reader a read sent before it came', async () => {
    const reads: Array<(revision: number) => void> = [];
    const current = new CurrentRevision({ currentRevision: () => new Promise<number>((resolve) => reads.push(resolve)) });
    const first = current.read();
    expect(reads).toHaveLength(1);
    // These arrive while the first read is out: they share the next one, sent after it answers.
    const second = current.read();
    const third = current.read();
    expect(reads).toHaveLength(1);
    reads[0]!(10);
    expect(await first).toBe(10);
    await vi.waitFor(() => expect(reads).toHaveLength(2));
    reads[1]!(11);
    expect([await second, await third]).toEqual([11, 11]);
    // Nothing out: the next reader sends its own.
    const fourth = current.read();
    expect(reads).toHaveLength(3);
    reads[2]!(12);
    expect(await fourth).toBe(12);
  });
});
