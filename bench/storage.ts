/**
 * Storage benchmark: the etcd store, the SQLite store and the raw etcd3 client, measured in one
 * run on one machine, printed as a table with ratios against raw etcd3. Only ratios from the same
 * run mean anything (machine-baselines.md): client and server share the cores, so throughput
 * swings 10–20 % between runs; client CPU per operation is the steadier measure of what our layer
 * costs.
 *
 *   npm run bench:storage
 *
 * Starts a fresh etcd (e2e harness) or SQLite file for every subject and round, runs fixed-size
 * loops, and removes them all. About a minute.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Etcd3 } from 'etcd3';
import { startEtcd } from '../e2e/harness/etcd.js';
import { openEtcdStore } from '../storage/etcd/etcd-store.js';
import { openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import type { Store } from '../storage/store.js';

/** Keys written (and then read back) per subject; also the size of the listing. */
const KEYS = 10_000;
const IN_FLIGHT = 64;
const WARMUP_OPS = 500;
const LIST_RUNS = 5;
/** Every subject is measured this many times, interleaved; the table shows medians. */
const ROUNDS = 3;
const PREFIX = '/registry/core/configmaps/bench/ns1/';

/** The operations measured, implemented once per subject. */
interface Subject {
  create(key: string, value: string): Promise<unknown>;
  get(key: string): Promise<unknown>;
  /** Resolves to the number of keys listed. */
  list(prefix: string): Promise<number>;
  close(): Promise<void>;
}

interface Throughput {
  perSecond: number;
  p99Ms: number;
  /** This process's CPU time per operation (user + system). */
  cpuUs: number;
}

interface Figures {
  creates: Throughput;
  gets: Throughput;
  listMs: number;
}

function keyOf(i: number, prefix = PREFIX): string {
  return `${prefix}cm-${String(i).padStart(5, '0')}`;
}

/** A ConfigMap-like JSON value of about 1 KB. */
function valueOf(key: string): string {
  const meta = { name: key.slice(key.lastIndexOf('/') + 1), namespace: 'ns1', tenant: 'bench' };
  const head = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { pad: '' } });
  return head.replace('"pad":""', `"pad":"${'x'.repeat(1024 - head.length)}"`);
}

/** Runs `total` operations, `IN_FLIGHT` at a time. */
async function measure(total: number, op: (i: number) => Promise<unknown>): Promise<Throughput> {
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await op(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p99Ms: latencies[Math.floor(latencies.length * 0.99)]!, cpuUs: (used.user + used.system) / total };
}

async function bench(subject: Subject): Promise<Figures> {
  // Warm up connections and the JIT on keys outside the measured prefix.
  await measure(WARMUP_OPS, (i) => subject.create(keyOf(i, '/registry/core/configmaps/bench/warmup/'), valueOf('warmup')));
  const creates = await measure(KEYS, (i) => subject.create(keyOf(i), valueOf(keyOf(i))));
  // A fixed pseudo-random order, the same for every subject.
  const gets = await measure(KEYS, (i) => subject.get(keyOf((i * 7919) % KEYS)));
  const listTimes: number[] = [];
  for (let run = 0; run < LIST_RUNS; run += 1) {
    const started = performance.now();
    const count = await subject.list(PREFIX);
    listTimes.push(performance.now() - started);
    if (count !== KEYS) throw new Error(`listed ${count} keys, not ${KEYS}`);
  }
  return { creates, gets, listMs: median(listTimes) };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** An etcd subject on an etcd of its own, so none measures on a database another one filled. */
async function withOwnEtcd(open: (endpoint: string) => Promise<Subject>): Promise<Subject> {
  const etcd = await startEtcd();
  try {
    const subject = await open(etcd.endpoint);
    return {
      ...subject,
      close: async () => {
        await subject.close();
        await etcd.cleanup();
      },
    };
  } catch (err) {
    await etcd.cleanup();
    throw err;
  }
}

function rawEtcd3(endpoint: string): Subject {
  const client = new Etcd3({ hosts: endpoint, grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 } });
  return {
    // The same operation as the store's create: a create-if-absent transaction.
    create: (key, value) => client.if(key, 'Create', '==', 0).then(client.put(key).value(value)).commit(),
    get: (key) => client.get(key).exec(),
    list: async (prefix) => (await client.getAll().prefix(prefix).exec()).kvs.length,
    close: async () => client.close(),
  };
}

function storeSubject(store: Store): Subject {
  return {
    create: (key, value) => store.create(key, value),
    get: (key) => store.get(key),
    list: async (prefix) => (await store.list(prefix)).items.length,
    close: () => store.close(),
  };
}

function printTable(rows: Array<{ name: string; figures: Figures }>): void {
  const base = rows[0]!.figures;
  const ratio = (value: number, baseline: number): string => `${(value / baseline).toFixed(2)}×`;
  const count = (value: number): string => Math.round(value).toLocaleString('en-US');
  const header = ['', 'creates/s', 'vs raw', 'p99 ms', 'CPU µs', 'gets/s', 'vs raw', 'CPU µs', `list ${count(KEYS)} ms`, 'vs raw'];
  const body = rows.map(({ name, figures: { creates, gets, listMs } }) => [
    name,
    count(creates.perSecond),
    ratio(creates.perSecond, base.creates.perSecond),
    creates.p99Ms.toFixed(1),
    count(creates.cpuUs),
    count(gets.perSecond),
    ratio(gets.perSecond, base.gets.perSecond),
    count(gets.cpuUs),
    listMs.toFixed(0),
    ratio(listMs, base.listMs),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((row) => row[i]!.length)));
  for (const row of [header, ...body]) {
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  }
  console.log(
    `\n${IN_FLIGHT} in flight, ~1 KB values; medians of ${ROUNDS} rounds (lists: of ${LIST_RUNS} per round).` +
      '\nThroughput ratios: higher is better. List ratio is time: lower is better. CPU µs: this process per operation.' +
      '\nThe raw client lists without decoding; the stores return every key and value as strings.',
  );
}

async function main(): Promise<void> {
  const sqliteDir = await mkdtemp(join(tmpdir(), 'kube-spaces-bench-'));
  try {
    const subjects: Array<{ name: string; open: (round: number) => Promise<Subject> }> = [
      { name: 'etcd3 client (raw)', open: () => withOwnEtcd(async (endpoint) => rawEtcd3(endpoint)) },
      { name: 'etcd store', open: () => withOwnEtcd(async (endpoint) => storeSubject(await openEtcdStore([endpoint]))) },
      {
        name: 'sqlite store',
        // The periodic compactor is off so that it cannot land inside a measurement.
        open: async (round) => storeSubject(await openSqliteStore(join(sqliteDir, `round-${round}.db`), { compactIntervalMs: 0 })),
      },
    ];
    const results = new Map<string, Figures[]>(subjects.map((s) => [s.name, []]));
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const { name, open } of subjects) {
        const subject = await open(round);
        try {
          results.get(name)!.push(await bench(subject));
        } finally {
          await subject.close();
        }
        console.log(`round ${round}/${ROUNDS}: measured ${name}`);
      }
    }
    console.log('');
    printTable(
      [...results].map(([name, runs]) => {
        const throughput = (pick: (f: Figures) => Throughput): Throughput => ({
          perSecond: median(runs.map((f) => pick(f).perSecond)),
          p99Ms: median(runs.map((f) => pick(f).p99Ms)),
          cpuUs: median(runs.map((f) => pick(f).cpuUs)),
        });
        return { name, figures: { creates: throughput((f) => f.creates), gets: throughput((f) => f.gets), listMs: median(runs.map((f) => f.listMs)) } };
      }),
    );
  } finally {
    await rm(sqliteDir, { recursive: true, force: true });
  }
}

await main();
