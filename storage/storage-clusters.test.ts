import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';
import { DEFAULT_STORAGE_CLUSTER, parseStorageClusterFlag, parseStorageClusterFlags, StorageClusters } from './storage-clusters.js';
import { isStorageError } from './errors.js';

describe('parseStorageClusterFlag', () => {
  it('reads an id and its endpoints', () => {
    expect(parseStorageClusterFlag('east=http://127.0.0.1:2479,https://127.0.0.1:2579')).toEqual({ id: 'east', etcdServers: ['http://127.0.0.1:2479', 'https://127.0.0.1:2579'] });
  });
  it.each([
    ['east', 'must be <id>=<etcd url>'],
    ['east=', 'must be <id>=<etcd url>'],
    ['=http://127.0.0.1:2479', 'must be a DNS label'],
    ['East=http://127.0.0.1:2479', 'must be a DNS label'],
    ['a,b=http://127.0.0.1:2479', 'must be a DNS label'],
    ['default=http://127.0.0.1:2479', 'names the default store'],
    ['east=127.0.0.1:2479', 'is not an http:// or https:// etcd endpoint'],
  ])('refuses %j', (value, message) => {
    expect(() => parseStorageClusterFlag(value)).toThrow(message);
  });
  it('refuses an id given twice', () => {
    expect(() => parseStorageClusterFlags(['east=http://127.0.0.1:1', 'east=http://127.0.0.1:2'])).toThrow('--storage-cluster east is given twice');
  });
});

describe('StorageClusters', () => {
  let dir: string;
  let main: Store;
  let east: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'storage-clusters-'));
    main = await openSqliteStore(join(dir, 'main.db'));
    east = await openSqliteStore(join(dir, 'east.db'));
  });
  afterEach(async () => {
    await main.close();
    await east.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with no cluster configured, routes nothing: the default store is every key\'s', () => {
    const clusters = new StorageClusters(main);
    expect(clusters.routed).toBe(main);
    expect(clusters.multiple).toBe(false);
    expect(clusters.ids).toEqual([DEFAULT_STORAGE_CLUSTER]);
  });

  it('sends a pinned space\'s keys and prefixes to its cluster, everything else to the default store', async () => {
    const clusters = new StorageClusters(main, new Map([['east', east]]));
    clusters.locate = (tenant) => Promise.resolve(tenant === 't2' ? 'east' : undefined);
    const { routed } = clusters;
    await routed.create('/registry/core/configmaps/t1/default/a', 'in main');
    await routed.create('/registry/core/configmaps/t2/default/b', 'in east');
    await routed.create('/registry/core/tenants/t2', 'tenant in main');
    expect((await main.list('/registry/')).items.map((kv) => kv.key)).toEqual(['/registry/core/configmaps/t1/default/a', '/registry/core/tenants/t2']);
    expect((await east.list('/registry/')).items.map((kv) => kv.key)).toEqual(['/registry/core/configmaps/t2/default/b']);
    expect((await routed.get('/registry/core/configmaps/t2/default/b')).kv?.value).toBe('in east');
    expect((await routed.list('/registry/core/configmaps/t2/')).items).toHaveLength(1);
    const kv = (await routed.get('/registry/core/configmaps/t2/default/b')).kv!;
    await routed.update(kv.key, 'changed', kv.modRevision);
    await routed.delete(kv.key);
    expect((await east.list('/registry/')).items).toHaveLength(0);
  });

  it('refuses a space pinned to a cluster not configured rather than writing it to the default store', async () => {
    const clusters = new StorageClusters(main, new Map([['east', east]]));
    clusters.locate = () => Promise.resolve('west');
    const err = await clusters.routed.create('/registry/core/configmaps/t3/default/a', 'x').catch((e: unknown) => e);
    expect(isStorageError(err, 'Unavailable')).toBe(true);
    expect((await main.list('/registry/')).items).toHaveLength(0);
  });
});
