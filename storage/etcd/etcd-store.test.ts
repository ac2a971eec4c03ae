/**
 * The etcd store against a real etcd (one per file): the shared conformance suite, then what only
 * etcd has — connection loss and etcd restarts under a watch, compactions made by other clients,
 * listings larger than one range call, the key root that isolates stores.
 */
import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from '../../e2e/harness/etcd.js';
import { runStoreConformance } from '../conformance.js';
import { isStorageError, type StorageError } from '../errors.js';
import type { Store, WatchEvent, WatchHandler } from '../store.js';
import { openEtcdStore, orderedProgressIn } from './etcd-store.js';

const etcdBinary = etcdBinaryForTests();

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `done` until it holds (or fails after `ms`). */
async function waitUntil(what: string, done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A watch handler that records everything. */
function recorder(): { events: WatchEvent[]; progress: number[]; errors: Error[]; handler: WatchHandler } {
  const events: WatchEvent[] = [];
  const progress: number[] = [];
  const errors: Error[] = [];
  return {
    events,
    progress,
    errors,
    handler: { onEvent: (e) => events.push(e), onProgress: (rev) => progress.push(rev), onError: (err) => errors.push(err) },
  };
}

/**
 * A loopback TCP proxy in front of etcd that a test can cut (existing connections dropped, new ones
 * refused) and restore: the store loses etcd while other clients, connected directly, do not.
 */
class CuttableProxy {
  private readonly sockets = new Set<Socket>();
  private cutOff = false;

  private constructor(private readonly server: Server) {}

  static async start(target: URL): Promise<CuttableProxy> {
    const server = createServer();
    const proxy = new CuttableProxy(server);
    server.on('connection', (client) => proxy.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get endpoint(): string {
    const address = this.server.address();
    if (typeof address !== 'object' || !address) throw new Error('proxy is not listening');
    return `http://127.0.0.1:${address.port}`;
  }

  private accept(client: Socket, target: URL): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = createConnection(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe.skipIf(!etcdBinary)('etcd store', () => {
  let etcd: EtcdProcess;
  /** A plain etcd3 client: another writer, or a look behind the store's back. */
  let raw: Etcd3;
  const stores: Store[] = [];

  beforeAll(async () => {
    // Frequent progress notifications, so onProgress can be seen within a test.
    etcd = await startEtcd({ binary: etcdBinary, extraArgs: ['--experimental-watch-progress-notify-interval=500ms'] });
    raw = new Etcd3({ hosts: etcd.endpoint });
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    raw?.close();
    await etcd?.cleanup();
  });

  /** A store under a root of its own (closed after all tests), and that root for raw writes. */
  async function openStore(endpoint = etcd.endpoint): Promise<{ store: Store; root: string }> {
    const root = `/test-${randomUUID()}`;
    const store = await openEtcdStore([endpoint], { prefix: root });
    stores.push(store);
    return { store, root };
  }

  runStoreConformance('etcd', async () => {
    const store = await openEtcdStore([etcd.endpoint], { prefix: `/conformance-${randomUUID()}` });
    return { store, cleanup: () => store.close() };
  });

  it('keeps each store under its own root, invisible to stores under another', async () => {
    const { store: a, root: rootA } = await openStore();
    const { store: b } = await openStore();
    const key = `/registry/core/configmaps/t1/ns1/${randomUUID()}`;
    const created = await a.create(key, 'in a');
    expect((await b.get(key)).kv).toBeNull();
    expect(await raw.get(`${rootA}${key}`).string()).toBe('in a');
    expect((await a.list('/registry/core/configmaps/t1/')).items).toContainEqual(created);
    expect((await b.list('/registry/core/configmaps/t1/')).items).toEqual([]);
  });

  it('lists more keys than one range call returns, at one revision, with the right remainder', async () => {
    const { store, root } = await openStore();
    const prefix = '/registry/core/configmaps/t1/big/';
    // Seed 10,050 keys through the raw client, 100 per transaction (etcd allows 128 operations).
    const names = Array.from({ length: 10_050 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    for (let i = 0; i < names.length; i += 100) {
      await raw.kv.txn({
        success: names.slice(i, i + 100).map((n) => ({ request_put: { key: Buffer.from(`${root}${prefix}${n}`), value: Buffer.from(n) } })),
      });
    }
    const all = await store.list(prefix);
    expect(all.items.map((kv) => kv.value)).toEqual(names);
    expect(all.remaining).toBe(0);
    expect(all.continue).toBeUndefined();

    const first = await store.list(prefix, { limit: 10_020 });
    expect(first.items).toHaveLength(10_020);
    expect(first.remaining).toBe(30);
    await store.create(`${prefix}k99999`, 'late');
    const rest = await store.list(prefix, { limit: 10_020, continue: first.continue! });
    expect(rest.revision).toBe(first.revision);
    expect(rest.items.map((kv) => kv.value)).toEqual(names.slice(10_020));
    expect(rest.continue).toBeUndefined();
  });

  it('replays a batch of large values that etcd splits into fragments', async () => {
    const { store } = await openStore();
    const prefix = `/registry/core/secrets/t1/${randomUUID()}/`;
    const since = await store.currentRevision();
    // Four 3 MiB values: one replay response of 12 MiB, over etcd's request limit (8 MiB here).
    const values = ['a', 'b', 'c', 'd'].map((c) => c.repeat(3 * 1024 * 1024));
    for (const [i, value] of values.entries()) await store.create(`${prefix}k${i}`, value);
    const r = recorder();
    const watch = await store.watch(prefix, { sinceRevision: since }, r.handler);
    await waitUntil('the replay', () => r.events.length === values.length);
    watch.close();
    expect(r.events.map((e) => e.value)).toEqual(values);
    expect(r.errors).toEqual([]);
  });

  it('finds a compaction made by another client', async () => {
    const { store } = await openStore();
    await store.create(`/registry/x/${randomUUID()}`, 'x');
    const revision = await store.currentRevision();
    await store.create(`/registry/x/${randomUUID()}`, 'y');
    await raw.kv.compact({ revision, physical: true });
    expect(await store.compactedRevision()).toBe(revision);
  });

  it('delivers progress notifications to onProgress', async () => {
    const { store } = await openStore();
    const r = recorder();
    const watch = await store.watch('/registry/quiet/', {}, r.handler);
    const current = await store.currentRevision();
    await waitUntil('a progress notification', () => r.progress.some((rev) => rev >= current), 10_000);
    watch.close();
    expect(r.events).toEqual([]);
    expect(r.errors).toEqual([]);
  });

  it('ends open watches with Unavailable when the store closes, and refuses calls after', async () => {
    const store = await openEtcdStore([etcd.endpoint], { prefix: `/test-${randomUUID()}` });
    const r = recorder();
    await store.watch('/registry/', {}, r.handler);
    await store.close();
    expect(r.errors).toHaveLength(1);
    expect(isStorageError(r.errors[0], 'Unavailable')).toBe(true);
    await expect(store.get('/registry/a')).rejects.toSatisfy((err) => isStorageError(err, 'Unavailable'));
    await expect(store.watch('/registry/', {}, recorder().handler)).rejects.toSatisfy((err) => isStorageError(err, 'Unavailable'));
  });

  it('refuses to open on an endpoint where no etcd answers', async () => {
    const proxy = await CuttableProxy.start(new URL(etcd.endpoint));
    proxy.cut();
    await expect(openEtcdStore([proxy.endpoint])).rejects.toSatisfy((err) => isStorageError(err, 'Unavailable'));
    await proxy.close();
  });

  it('resumes a watch after its connection drops, with every event exactly once', async () => {
    const proxy = await CuttableProxy.start(new URL(etcd.endpoint));
    try {
      const { store, root: storeRoot } = await openStore(proxy.endpoint);
      const prefix = `/registry/core/pods/t1/${randomUUID()}/`;
      const r = recorder();
      await store.watch(prefix, {}, r.handler);
      const before = await store.create(`${prefix}before`, '0');
      await waitUntil('the first event', () => r.events.length === 1);

      proxy.cut();
      await expect(store.get(`${prefix}before`)).rejects.toSatisfy((err) => isStorageError(err, 'Unavailable'));
      await expect(store.watch(prefix, {}, recorder().handler)).rejects.toSatisfy((err) => isStorageError(err, 'Unavailable'));
      const during: number[] = [];
      for (let i = 0; i < 20; i += 1) during.push(Number((await raw.put(`${storeRoot}${prefix}during-${i}`).value(String(i)).exec()).header.revision));
      proxy.restore();

      await waitUntil('the events written during the outage', () => r.events.length === 21);
      const after = await createWhenAvailable(store, `${prefix}after`, 'x');
      await waitUntil('the event after the outage', () => r.events.length === 22);
      expect(r.events.map((e) => e.revision)).toEqual([before.modRevision, ...during, after]);
      expect(r.errors).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('fails a watch with TooOld when its resume revision was compacted during the outage', async () => {
    const proxy = await CuttableProxy.start(new URL(etcd.endpoint));
    try {
      const { store, root: storeRoot } = await openStore(proxy.endpoint);
      const prefix = `/registry/core/pods/t1/${randomUUID()}/`;
      const r = recorder();
      await store.watch(prefix, {}, r.handler);
      await store.create(`${prefix}a`, 'a');
      await waitUntil('the first event', () => r.events.length === 1);

      proxy.cut();
      await raw.put(`${storeRoot}${prefix}missed`).value('m');
      const compacted = Number((await raw.put(`${storeRoot}/elsewhere`).value('e').exec()).header.revision);
      await raw.kv.compact({ revision: compacted, physical: true });
      proxy.restore();

      await waitUntil('the watch to fail', () => r.errors.length === 1);
      const err = r.errors[0];
      expect(isStorageError(err, 'TooOld')).toBe(true);
      expect((err as StorageError).revision).toBe(compacted);
      expect(r.events).toHaveLength(1);
      expect(await store.compactedRevision()).toBe(compacted);
    } finally {
      await proxy.close();
    }
  });

  it('resumes a catch-up replay cut by an etcd SIGKILL after the last event it delivered', async () => {
    // etcd replays history in batches of 1,000 revisions; etcd3's own Watcher loses the rest of
    // the replay when its stream breaks after the first batch.
    const { store, root } = await openStore();
    const prefix = `/registry/core/secrets/t1/${randomUUID()}/`;
    const since = await store.currentRevision();
    const written: number[] = [];
    for (let i = 0; i < 2_500; i += 50) {
      const puts = Array.from({ length: 50 }, (_, j) => raw.put(`${root}${prefix}k${i + j}`).value('v').exec());
      for (const res of await Promise.all(puts)) written.push(Number(res.header.revision));
    }
    written.sort((x, y) => x - y);

    const r = recorder();
    let restarted: Promise<void> | undefined;
    await store.watch(prefix, { sinceRevision: since }, {
      ...r.handler,
      onEvent: (e) => {
        r.events.push(e);
        restarted ??= etcd.kill9().then(() => etcd.restart()); // at the first event of the replay
      },
    });
    await waitUntil('the whole replay', () => r.events.length >= written.length);
    await restarted;
    await sleep(300);
    expect(r.errors).toEqual([]);
    expect(r.events.map((e) => e.revision)).toEqual(written);
  });

  it('resumes a watch across an etcd SIGKILL and restart under a steady writer, losing and repeating nothing', async () => {
    const { store } = await openStore();
    const prefix = `/registry/core/configmaps/t1/${randomUUID()}/`;
    const r = recorder();
    await store.watch(prefix, { sinceRevision: await store.currentRevision() }, r.handler);

    // One writer, one write at a time, so the acknowledged order is the revision order.
    const acknowledged: Array<{ key: string; revision: number }> = [];
    const total = 300;
    const writer = (async () => {
      for (let i = 0; i < total; i += 1) {
        const key = `${prefix}cm-${String(i).padStart(3, '0')}`;
        acknowledged.push({ key, revision: await createWhenAvailable(store, key, `v${i}`) });
      }
    })();

    await waitUntil('100 acknowledged writes', () => acknowledged.length >= 100);
    await etcd.kill9();
    await sleep(1_000); // the writer keeps failing meanwhile
    const failedWhileDown = await store.get(`${prefix}cm-000`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isStorageError(failedWhileDown, 'Unavailable')).toBe(true);
    await etcd.restart();
    await writer;

    await waitUntil('every acknowledged write to be watched', () => r.events.length >= total);
    await sleep(300); // and nothing more, or twice
    expect(r.errors).toEqual([]);
    expect(r.events.map((e) => ({ key: e.key, revision: e.revision }))).toEqual(acknowledged);
    expect(r.events.every((e, i) => e.type === 'create' && e.value === `v${i}`)).toBe(true);
  });
});

/**
 * Creates `key`, retrying while etcd is unreachable, and returns the write's revision. A create
 * that failed in transit may still have committed: AlreadyExists on a retry means it did, and the
 * key's revision is the write's (the test's keys are written once each).
 */
async function createWhenAvailable(store: Store, key: string, value: string): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return (await store.create(key, value)).modRevision;
    } catch (err) {
      if (attempt > 0 && isStorageError(err, 'AlreadyExists')) {
        const { kv } = await store.get(key);
        if (kv?.value === value) return kv.modRevision;
      }
      // A create cut off by the kill may have been applied (OutcomeUnknown): the retry finds it.
      if (!isStorageError(err, 'Unavailable') && !isStorageError(err, 'OutcomeUnknown') && !isStorageError(err, 'AlreadyExists')) throw err;
      await sleep(50);
    }
  }
}

describe('orderedProgressIn', () => {
  it('holds from the etcd releases that answer progress requests in order with events', () => {
    expect(['3.4.23', '3.4.30', '3.5.0', '3.5.12', '2.3.8'].map(orderedProgressIn)).toEqual([false, false, false, false, false]);
    expect(['3.4.31', '3.5.13', '3.5.21', '3.6.0', '3.6.4', '4.0.0'].map(orderedProgressIn)).toEqual([true, true, true, true, true, true]);
  });
});

describe.skipIf(!etcdBinary)('etcd store progress requests', () => {
  // etcd's default progress interval (10 minutes): any progress seen here was asked for.
  let etcd: EtcdProcess;
  let store: Store;
  let version: string;
  beforeAll(async () => {
    etcd = await startEtcd({ binary: etcdBinary });
    store = await openEtcdStore([etcd.endpoint], { prefix: `/progress-${randomUUID()}` });
    const raw = new Etcd3({ hosts: etcd.endpoint });
    version = (await raw.maintenance.status()).version;
    raw.close();
  });
  afterAll(async () => {
    await store?.close();
    await etcd?.cleanup();
  });

  it('serves a watch from a revision from its feed, which writes of another store root (another program) move on, on any etcd', async () => {
    const other = await openEtcdStore([etcd.endpoint], { prefix: `/other-${randomUUID()}` });
    try {
      const r = recorder();
      const watch = await store.watch('/registry/feed-quiet/', { sinceRevision: await store.currentRevision() }, r.handler);
      expect(watch.orderedProgress).toBe(true);
      const written = await other.create('/registry/feed-quiet/x', 'not this store');
      watch.requestProgress();
      await waitUntil('progress past the other root\'s write', () => r.progress.some((rev) => rev >= written.modRevision), 5_000);
      const own = await store.create('/registry/feed-quiet/mine', 'v');
      await waitUntil('its own write', () => r.events.length === 1, 5_000);
      expect(r.events.map((e) => [e.key, e.revision])).toEqual([['/registry/feed-quiet/mine', own.modRevision]]);
      watch.close();
      expect(r.errors).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('asks only an etcd whose answer comes in order with the events, and then hears the current revision', async () => {
    expect(store.orderedProgress).toBe(orderedProgressIn(version));
    const r = recorder();
    const watch = await store.watch('/registry/quiet/', {}, r.handler);
    for (let i = 0; i < 3; i += 1) await store.create(`/registry/busy/${i}`, 'x');
    const current = await store.currentRevision();
    watch.requestProgress();
    if (store.orderedProgress) {
      await waitUntil('the asked-for progress', () => r.progress.some((rev) => rev >= current), 5_000);
    } else {
      await sleep(500);
      expect(r.progress).toEqual([]);
    }
    watch.close();
    expect(r.events).toEqual([]);
    expect(r.errors).toEqual([]);
  });
});
