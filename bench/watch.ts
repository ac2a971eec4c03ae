/**
 * Watch fan-out benchmark, in process: W watchers of one space's ConfigMaps while C ConfigMaps are
 * created (64 in flight); the time until every watcher has every event, each encoded as the JSON
 * line an HTTP watch stream would carry. Two ways of serving the same watches, on each backend, in
 * the same run:
 *   - one storage watch per watcher (the baseline: what the server did before its watch cache);
 *   - the watch cache (one storage watch per kind, each event decoded and encoded once, fanned out).
 * The ratio is events delivered per second, cache over baseline.
 *
 *   npm run bench:watch
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { builtinKinds } from '../api/kinds/index.js';
import { GenericStore } from '../api/registry/generic-store.js';
import type { ResourceDefinition } from '../api/registry/resource-definition.js';
import { WatchCaches } from '../api/registry/watch-cache.js';
import { startStoreWatch, type ActiveWatch, type WatchSink } from '../api/registry/watch.js';
import { findEtcdBinary, startEtcd } from '../e2e/harness/etcd.js';
import { openEtcdStore } from '../storage/etcd/etcd-store.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import { encodeWatchEvent } from '../src/server/negotiate.js';
import type { Store } from '../storage/store.js';

const WATCHERS = 200;
const CREATES = 1_000;
const IN_FLIGHT = 64;
const configMaps = builtinKinds.find((d) => d.group === '' && d.resource === 'configmaps') as ResourceDefinition;

const f = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

type StartWatch = (generic: GenericStore, store: Store, sink: WatchSink) => Promise<ActiveWatch>;

/** Events delivered per second to all watchers, and the time until the last one had them all. */
async function measure(store: Store, tenant: string, start: StartWatch): Promise<{ perSecond: number; ms: number }> {
  const generic = new GenericStore(store);
  let delivered = 0;
  let encoded = 0;
  let done: () => void = () => undefined;
  const allDelivered = new Promise<void>((resolve) => (done = resolve));
  const sink: WatchSink = {
    send: (event) => {
      encoded += encodeWatchEvent({ kind: 'json' }, event).length;
      if (event.type === 'ADDED' && ++delivered === WATCHERS * CREATES) done();
    },
    end: () => undefined,
  };
  const watches = await Promise.all(Array.from({ length: WATCHERS }, () => start(generic, store, sink)));
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CREATES) {
        const i = next++;
        await generic.create(configMaps, { tenant, namespace: 'bench' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { key: 'v'.repeat(512) } });
      }
    }),
  );
  await allDelivered;
  const ms = performance.now() - t0;
  for (const w of watches) w.stop();
  if (encoded === 0) throw new Error('nothing was encoded');
  return { perSecond: (WATCHERS * CREATES) / (ms / 1000), ms };
}

async function compare(name: string, store: Store): Promise<string> {
  // Each way gets a space of its own, so neither watches the other's objects; the rv of "now" starts each watch.
  const storeWatches = await measure(store, 'per-watcher', async (generic, s, sink) =>
    startStoreWatch(generic, s, configMaps, { tenant: 'per-watcher' }, { resourceVersion: String(await s.currentRevision()) }, sink),
  );
  const caches = new WatchCaches(new GenericStore(store), store);
  const cached = await measure(store, 'cached', async (_generic, s, sink) =>
    caches.startWatch(configMaps, { tenant: 'cached' }, { resourceVersion: String(await s.currentRevision()) }, sink),
  );
  await caches.stop();
  return `| ${name} | ${f(storeWatches.perSecond)} (${f(storeWatches.ms)} ms) | ${f(cached.perSecond)} (${f(cached.ms)} ms) | ${f(cached.perSecond / storeWatches.perSecond, 2)}x |`;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
  try {
    const sqlite = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    rows.push(await compare('sqlite', sqlite));
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (findEtcdBinary()) {
    const etcd = await startEtcd();
    try {
      const store = await openEtcdStore([etcd.endpoint], { prefix: '/bench' });
      rows.push(await compare('etcd', store));
      await store.close();
    } finally {
      await etcd.cleanup();
    }
  } else {
    rows.push('| etcd | not measured: no etcd binary | | |');
  }
  console.log(`\nWatch fan-out (${WATCHERS} watchers of one space's ConfigMaps, ${f(CREATES)} creates at ${IN_FLIGHT} in flight; events delivered to all watchers, each encoded as a JSON watch line)\n`);
  console.log('| backend | one storage watch per watcher: events/s | watch cache: events/s | cache vs per-watcher |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
