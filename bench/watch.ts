/**
 * Watch fan-out benchmark, in process: W watchers of one space's ConfigMaps while C ConfigMaps are
 * created (64 in flight); the time until every watcher has every event, each encoded as the JSON
 * line an HTTP watch stream would carry. Two ways of serving the same watches, on each backend, in
 * the same run:
 *   - one storage watch per watcher (the baseline: what the server did before its watch cache);
 *   - the watch cache (one storage watch per kind, each event decoded and encoded once, fanned out).
 * The ratio is events delivered per second, cache over baseline.
 *
 * Delivery latency: 1,000 watchers over 100 spaces (10 per space, each of its own space's
 * ConfigMaps, through the watch cache) while ConfigMaps are created in every space; for each event
 * and watcher, the time from the create's start to the event reaching the watcher (encoded), p50
 * and p99, against a raw etcd3 watch of the same writes made as raw puts in the same run (the
 * baseline; goal p99 <= 4x), and the events that reached a watcher of another space (must be 0).
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
import { Etcd3 } from 'etcd3';
import { encodeWatchEvent } from '../src/server/negotiate.js';
import type { Store } from '../storage/store.js';

const WATCHERS = 200;
const CREATES = 1_000;
const IN_FLIGHT = 64;
const LATENCY_SPACES = 100;
const WATCHERS_PER_SPACE = 10;
const LATENCY_WRITES = 2_000;
const LATENCY_IN_FLIGHT = 16;
const LATENCY_LIMIT_MS = 120_000;
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
  const caches = new WatchCaches(new GenericStore(store));
  const cached = await measure(store, 'cached', async (_generic, s, sink) =>
    caches.startWatch(configMaps, { tenant: 'cached' }, { resourceVersion: String(await s.currentRevision()) }, sink),
  );
  await caches.stop();
  return `| ${name} | ${f(storeWatches.perSecond)} (${f(storeWatches.ms)} ms) | ${f(cached.perSecond)} (${f(cached.ms)} ms) | ${f(cached.perSecond / storeWatches.perSecond, 2)}x |`;
}

interface Latency {
  p50: number;
  p99: number;
  misrouted: number;
}

function percentiles(samples: number[], misrouted: number): Latency {
  samples.sort((a, b) => a - b);
  const at = (q: number): number => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p99: at(0.99), misrouted };
}

/** Resolves once `done()` holds, checked every 10 ms; rejects past the bench's limit. */
async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = performance.now() + LATENCY_LIMIT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${LATENCY_LIMIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `write(i)` for every i below LATENCY_WRITES, LATENCY_IN_FLIGHT at a time. */
async function writeAll(write: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: LATENCY_IN_FLIGHT }, async () => {
    while (next < LATENCY_WRITES) await write(next++);
  }));
}

/** The watch cache's delivery latency to 1,000 watchers over 100 spaces, and any event of another space. */
async function cacheLatency(store: Store): Promise<Latency> {
  const generic = new GenericStore(store);
  const caches = new WatchCaches(generic);
  const spaces = Array.from({ length: LATENCY_SPACES }, (_, i) => `latency-${i}`);
  const startedAt = new Map<string, number>();
  const samples: number[] = [];
  let misrouted = 0;
  const resourceVersion = String(await store.currentRevision());
  const watches: ActiveWatch[] = [];
  for (const tenant of spaces) {
    for (let w = 0; w < WATCHERS_PER_SPACE; w += 1) {
      const sink: WatchSink = {
        send: (event) => {
          if (event.type !== 'ADDED') return;
          encodeWatchEvent({ kind: 'json' }, event);
          const { tenant: owner, name } = event.object.metadata;
          if (owner !== tenant) misrouted += 1;
          else samples.push(performance.now() - startedAt.get(`${owner}/${name}`)!);
        },
        end: () => undefined,
      };
      watches.push(await caches.startWatch(configMaps, { tenant }, { resourceVersion }, sink));
    }
  }
  await writeAll((i) => {
    const tenant = spaces[i % LATENCY_SPACES]!;
    startedAt.set(`${tenant}/cm-${i}`, performance.now());
    return generic.create(configMaps, { tenant, namespace: 'bench' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { key: 'v'.repeat(512) } });
  });
  await until('every watcher had every event of its space', () => samples.length + misrouted >= LATENCY_WRITES * WATCHERS_PER_SPACE);
  for (const w of watches) w.stop();
  await caches.stop();
  return percentiles(samples, misrouted);
}

/** The baseline: one raw etcd3 watch of raw puts of the same values, from each put's start. */
async function rawEtcdLatency(endpoint: string): Promise<Latency> {
  const client = new Etcd3({ hosts: endpoint });
  try {
    const startedAt = new Map<string, number>();
    const samples: number[] = [];
    const watcher = await client.watch().prefix('/raw-latency/').create();
    watcher.on('put', (kv) => samples.push(performance.now() - startedAt.get(kv.key.toString())!));
    const value = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { key: 'v'.repeat(512) } });
    await writeAll((i) => {
      const key = `/raw-latency/latency-${i % LATENCY_SPACES}/bench/cm-${i}`;
      startedAt.set(key, performance.now());
      return client.put(key).value(value).exec();
    });
    await until('the raw watch had every put', () => samples.length >= LATENCY_WRITES);
    await watcher.cancel();
    return percentiles(samples, 0);
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const latencies: Array<[string, Latency]> = [];
  let raw: Latency | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
  try {
    const sqlite = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    rows.push(await compare('sqlite', sqlite));
    latencies.push(['sqlite', await cacheLatency(sqlite)]);
    await sqlite.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (findEtcdBinary()) {
    const etcd = await startEtcd();
    try {
      const store = await openEtcdStore([etcd.endpoint], { prefix: '/bench' });
      rows.push(await compare('etcd', store));
      latencies.push(['etcd', await cacheLatency(store)]);
      await store.close();
      raw = await rawEtcdLatency(etcd.endpoint);
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
  console.log(`\nDelivery latency (${f(LATENCY_SPACES * WATCHERS_PER_SPACE)} watchers over ${LATENCY_SPACES} spaces, ${WATCHERS_PER_SPACE} per space; ${f(LATENCY_WRITES)} ConfigMap creates spread over the spaces at ${LATENCY_IN_FLIGHT} in flight; from each create's start to each watcher of its space)\n`);
  console.log('| subject | p50 | p99 | p99 vs raw etcd watch (goal <= 4x) | events at a watcher of another space (must be 0) |');
  console.log('|---|---|---|---|---|');
  if (raw) console.log(`| raw etcd3 watch of raw puts (baseline) | ${f(raw.p50, 1)} ms | ${f(raw.p99, 1)} ms | 1.00x | |`);
  for (const [backend, l] of latencies) {
    const ratio = raw ? `${f(l.p99 / raw.p99, 2)}x` : 'n/a (no etcd)';
    console.log(`| watch cache on ${backend} | ${f(l.p50, 1)} ms | ${f(l.p99, 1)} ms | ${ratio} | ${l.misrouted} |`);
  }
}

await main();
