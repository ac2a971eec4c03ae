/**
 * Spaces in two storage clusters (two embedded stores here): each space's objects in its own
 * store, and `tenants/all` lists and watches merging both with resourceVersions naming each
 * cluster's revision, resumable, usable as an object's precondition, refused when malformed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { StorageClusters } from '../../storage/storage-clusters.js';
import { ApiError } from '../status.js';
import { ALL_TENANTS, GenericStore } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';
import type { ApiWatchEvent } from './watch.js';
import { WatchCaches } from './watch-cache.js';

const configMaps = builtinKinds.find((d) => d.group === '' && d.resource === 'configmaps') as ResourceDefinition;
const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
const all = { tenant: ALL_TENANTS };

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('spaces across storage clusters', () => {
  let dir: string;
  let main: Store;
  let east: Store;
  let generic: GenericStore;
  let caches: WatchCaches;
  const eventually = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 5000, interval: 10 });
  const create = (tenant: string, name: string) => generic.create(configMaps, { tenant, namespace: 'ns' }, cm(name));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'across-clusters-'));
    main = await openSqliteStore(join(dir, 'main.db'), { compactIntervalMs: 0 });
    east = await openSqliteStore(join(dir, 'east.db'), { compactIntervalMs: 0 });
    const clusters = new StorageClusters(main, new Map([['east', east]]));
    // Spaces whose name starts with e live in east.
    clusters.locate = (tenant) => Promise.resolve(tenant.startsWith('e') ? 'east' : undefined);
    generic = new GenericStore(clusters);
    caches = new WatchCaches(generic);
    // Moves main's revisions ahead of east's, so a revision of one is no revision of the other.
    for (const name of ['x1', 'x2', 'x3']) await create('m0', name);
  });

  afterEach(async () => {
    await caches.stop();
    await main.close();
    await east.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each space in its cluster, with plain revisions of its own', async () => {
    const inEast = await create('e1', 'a');
    const inMain = await create('m1', 'b');
    expect((await east.list('/registry/')).items.map((kv) => kv.key)).toEqual(['/registry/core/configmaps/e1/ns/a']);
    expect((await main.list('/registry/core/configmaps/')).items.map((kv) => kv.key)).not.toContain('/registry/core/configmaps/e1/ns/a');
    expect(inEast.metadata.resourceVersion).toBe('1');
    expect(inMain.metadata.resourceVersion).toBe('4');
    const space = await generic.list(configMaps, { tenant: 'e1' });
    expect(space.metadata.resourceVersion).toBe('1');
    expect((await caches.readList(configMaps, { tenant: 'e1' }, {}, undefined, 0))!.items.map((o) => o.metadata.name)).toEqual(['a']);
  });

  it('lists every space of both clusters in key order, in pages, at each cluster\'s revision', async () => {
    await create('e1', 'a');
    await create('m1', 'b');
    await create('e2', 'c');
    const whole = await generic.list(configMaps, all);
    expect(whole.items.map((o) => `${o.metadata.tenant}/${o.metadata.name}`)).toEqual(['e1/a', 'e2/c', 'm0/x1', 'm0/x2', 'm0/x3', 'm1/b']);
    expect(whole.metadata.resourceVersion).toBe('default=4,east=2');
    const cached = await caches.readList(configMaps, all, {}, undefined, 0);
    expect(cached!.items.map((o) => o.metadata.name)).toEqual(['a', 'c', 'x1', 'x2', 'x3', 'b']);
    expect(cached!.metadata.resourceVersion).toBe('default=4,east=2');

    const first = (await caches.readList(configMaps, all, {}, undefined, 2))!;
    expect(first.items.map((o) => o.metadata.name)).toEqual(['a', 'c']);
    expect(first.metadata.remainingItemCount).toBe(4);
    await create('e1', 'later'); // not in the listing: its pages stay at their revisions
    const names: string[] = [];
    let token = first.metadata.continue;
    while (token) {
      const page = await generic.list(configMaps, all, { limit: 2, continue: token });
      names.push(...page.items.map((o) => o.metadata.name!));
      expect(page.metadata.resourceVersion).toBe('default=4,east=2');
      token = page.metadata.continue;
    }
    expect(names).toEqual(['x1', 'x2', 'x3', 'b']);

    // A token of one kind of listing is no token of the other.
    expect((await refusal(generic.list(configMaps, { tenant: 'e1' }, { limit: 1, continue: first.metadata.continue }))).code).toBe(400);
    const spaceToken = (await generic.list(configMaps, { tenant: 'm0' }, { limit: 1 })).metadata.continue;
    expect((await refusal(generic.list(configMaps, all, { limit: 1, continue: spaceToken }))).code).toBe(400);
  });

  it('refuses malformed resourceVersions across clusters with kube\'s 400, and one of a single cluster', async () => {
    for (const rv of ['4', 'default=4', 'default=4,west=1', 'default=4,east=x']) {
      const err = await refusal(generic.list(configMaps, all, { resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }));
      expect([err.code, err.message]).toEqual([400, `invalid resource version "${rv}"`]);
      const watchErr = await refusal(caches.startWatch(configMaps, all, { resourceVersion: rv }, { send: () => undefined, end: () => undefined }));
      expect(watchErr.code).toBe(400);
    }
    expect((await refusal(generic.list(configMaps, { tenant: 'e1' }, { resourceVersion: 'default=4,east=0', resourceVersionMatch: 'NotOlderThan' }))).code).toBe(400);
    expect((await refusal(caches.startWatch(configMaps, { tenant: 'e1' }, { resourceVersion: 'default=4,east=0' }, { send: () => undefined, end: () => undefined }))).code).toBe(400);
  });

  it('takes an object\'s own cluster\'s revision from a resourceVersion naming every cluster, as a precondition', async () => {
    await create('e1', 'a');
    const listed = await generic.list(configMaps, all);
    const events: ApiWatchEvent[] = [];
    const watch = await caches.startWatch(configMaps, all, { resourceVersion: listed.metadata.resourceVersion }, { send: (e) => events.push(e), end: () => undefined });
    await generic.mutate(configMaps, { tenant: 'e1', namespace: 'ns', name: 'a' }, (o) => ({ ...o, data: { k: 'changed' } }));
    await eventually(() => expect(events).toHaveLength(1));
    watch.stop();
    const seen = events[0]!.object;
    expect(seen.metadata.resourceVersion).toBe('default=3,east=2');
    const updated = await generic.update(configMaps, { tenant: 'e1', namespace: 'ns', name: 'a' }, { ...structuredClone(seen), data: { k: 'again' } });
    expect(updated.object.metadata.resourceVersion).toBe('3');
    const stale = await refusal(generic.update(configMaps, { tenant: 'e1', namespace: 'ns', name: 'a' }, { ...structuredClone(seen), data: { k: 'stale' } }));
    expect(stale.code).toBe(409);
  });

  it('watches every space of both clusters and resumes from any event\'s resourceVersion without missing one', async () => {
    const listed = await generic.list(configMaps, all);
    expect(listed.metadata.resourceVersion).toBe('default=3,east=0');
    const events: ApiWatchEvent[] = [];
    const watch = await caches.startWatch(configMaps, all, { resourceVersion: listed.metadata.resourceVersion, allowWatchBookmarks: true }, { send: (e) => events.push(e), end: () => undefined });
    await create('e1', 'a');
    await eventually(() => expect(events).toHaveLength(1));
    await create('m1', 'b');
    await eventually(() => expect(events).toHaveLength(2));
    await create('e2', 'c');
    await eventually(() => expect(events).toHaveLength(3));
    watch.stop();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`)).toEqual(['ADDED a default=3,east=1', 'ADDED b default=4,east=1', 'ADDED c default=4,east=2']);

    // Resuming from the first event gives the two after it, from both clusters.
    const resumed: ApiWatchEvent[] = [];
    const again = await caches.startWatch(configMaps, all, { resourceVersion: events[0]!.object.metadata.resourceVersion }, { send: (e) => resumed.push(e), end: () => undefined });
    await eventually(() => expect(resumed).toHaveLength(2));
    again.stop();
    expect(resumed.map((e) => e.object.metadata.name)).toEqual(['b', 'c']);
  });

  it('answers 410 Expired when one cluster\'s component was compacted', async () => {
    await create('e1', 'a');
    await create('e1', 'b');
    await east.compact(2);
    const err = await refusal(caches.startWatch(configMaps, all, { resourceVersion: 'default=3,east=1' }, { send: () => undefined, end: () => undefined }));
    expect(err.code).toBe(410);
  });

  it('counts a kind\'s cached objects over both clusters, one metrics row per kind', async () => {
    await create('e1', 'a');
    await caches.list(configMaps, all, {});
    expect(caches.objectCount('', 'configmaps')).toBe(4);
    expect(caches.stats().filter((row) => row.def === configMaps).map((row) => row.objects)).toEqual([4]);
  });

  it('starts from both clusters\' state, named by each cluster\'s revision, then their events after it', async () => {
    await create('e1', 'a');
    await create('m1', 'b');
    const events: ApiWatchEvent[] = [];
    const watch = await caches.startWatch(configMaps, all, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, { send: (e) => events.push(e), end: () => undefined });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name ?? ''} ${e.object.metadata.resourceVersion}`)).toEqual([
      'ADDED a default=4,east=1',
      'ADDED x1 default=4,east=1',
      'ADDED x2 default=4,east=1',
      'ADDED x3 default=4,east=1',
      'ADDED b default=4,east=1',
      'BOOKMARK  default=4,east=1',
    ]);
    await create('e2', 'c');
    await eventually(() => expect(events).toHaveLength(7));
    watch.stop();
    expect(events[6]!.object.metadata.resourceVersion).toBe('default=4,east=2');

    // Resuming from the state's resourceVersion gives what came after it, nothing of the state again.
    const resumed: ApiWatchEvent[] = [];
    const again = await caches.startWatch(configMaps, all, { resourceVersion: events[0]!.object.metadata.resourceVersion }, { send: (e) => resumed.push(e), end: () => undefined });
    await eventually(() => expect(resumed).toHaveLength(1));
    again.stop();
    expect(resumed.map((e) => e.object.metadata.name)).toEqual(['c']);
  });

  it('refuses initial events without resourceVersionMatch NotOlderThan, as for one cluster', async () => {
    expect((await refusal(caches.startWatch(configMaps, all, { sendInitialEvents: true }, { send: () => undefined, end: () => undefined }))).code).toBe(422);
  });
});
