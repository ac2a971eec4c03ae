/**
 * Where a request's CPU goes in the server process: the built server (embedded store, or etcd)
 * takes 1,000 requests of the chosen load to warm up, then the inspector's sampling profiler runs
 * in the server (started and stopped by SIGUSR2 through a preload, so the client's work is not in
 * it) over 4,000 more. The loads are bench:api's:
 * - `creates`: ConfigMap creates at 64 in flight;
 * - `gets`: consistent GETs (no resourceVersion) of one ConfigMap on 50 connections;
 * - `lists`: consistent LISTs of a namespace of 1,000 ConfigMaps, 4 at a time (400 of them);
 * - `deletes`: one DELETE of a collection of 4,000 ConfigMaps (what the namespace controller
 *   sends for each kind of a namespace going), after one of 1,000.
 * Prints the top functions by self and by inclusive time, and keeps the `.cpuprofile` (open it in
 * Chrome's DevTools) at the path given, else in a temporary directory it names.
 *
 *   npm run build && node dist/bench/profile-server.js creates etcd /tmp/creates.cpuprofile
 *   node dist/bench/profile-server.js /tmp/creates.cpuprofile   # the tables of a profile taken before
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { startEtcd } from '../e2e/harness/etcd.js';
import { startServer } from '../e2e/harness/server.js';
import { load } from './http-load.js';

const WARM_UP = 1_000;
const PROFILED = 4_000;
const LIST_SIZE = 1_000;
const TOP = 15;
const SAMPLING_INTERVAL_US = 200;

/** Runs in the server: SIGUSR2 starts the profiler, the next one stops it and writes $PROFILE_OUT. */
const PRELOAD = `
const inspector = require('node:inspector');
const fs = require('node:fs');
const session = new inspector.Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  running = !running;
  if (running) {
    session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: ${SAMPLING_INTERVAL_US} }, () => session.post('Profiler.start')));
  } else {
    session.post('Profiler.stop', (err, result) => {
      fs.writeFileSync(process.env.PROFILE_OUT + '.part', JSON.stringify(result.profile));
      fs.renameSync(process.env.PROFILE_OUT + '.part', process.env.PROFILE_OUT);
    });
  }
});
`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The server's own code (built into dist/), not Node's or a package's. */
const OURS = /\/dist\/(?!.*node_modules)/;

/** Top functions by self share of the samples, and ours by inclusive share (a function counted once per stack). */
function summarize(profile: { nodes: ProfileNode[]; samples: number[] }): string {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const sample of profile.samples) {
    add(self, name(nodes.get(sample)!));
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const node = nodes.get(id)!;
      if (OURS.test(node.callFrame.url)) seen.add(name(node));
    }
    for (const k of seen) add(inclusive, k);
  }
  const table = (title: string, m: Map<string, number>) =>
    [`| ${title} | share |`, '|---|---|', ...[...m].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([k, v]) => `| ${k} | ${((100 * v) / profile.samples.length).toFixed(1)}% |`)].join('\n');
  return `${profile.samples.length} samples\n\n${table('self time', self)}\n\n${table('inclusive time (the server\'s code)', inclusive)}`;
}

async function main(): Promise<void> {
  if (process.argv[2]?.endsWith('.cpuprofile')) return console.log(summarize(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
  const [kind = '', backend = ''] = process.argv.slice(2);
  if (!['creates', 'gets', 'lists', 'deletes'].includes(kind) || !['sqlite', 'etcd'].includes(backend)) {
    throw new Error('usage: profile-server.js <creates|gets|lists|deletes> <sqlite|etcd> [out.cpuprofile] | profile-server.js <file.cpuprofile>');
  }
  const dir = await mkdtemp(join(tmpdir(), 'profile-server-'));
  const preload = join(dir, 'preload.cjs');
  writeFileSync(preload, PRELOAD);
  const out = process.argv[4] ?? join(dir, `${kind}.cpuprofile`);
  const etcd = backend === 'etcd' ? await startEtcd() : undefined;
  const server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [], env: { NODE_OPTIONS: `--require ${preload}`, PROFILE_OUT: out } });
  try {
    const target = { url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) };
    const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: name.split('-')[0]! } }, data: { key: 'v'.repeat(512) } });
    const configMaps = '/api/v1/namespaces/default/configmaps';
    const create = (prefix: string) => (i: number) => ({ method: 'POST', path: configMaps, body: configMap(`${prefix}-${i}`) });
    const run = {
      creates: (prefix: string, total: number) => load(target, 64, total, 201, create(prefix)),
      gets: (_: string, total: number) => load(target, 50, total, 200, () => ({ method: 'GET', path: `${configMaps}/warm-0` })),
      lists: (_: string, total: number) => load(target, 4, total / 10, 200, () => ({ method: 'GET', path: configMaps })),
      deletes: (prefix: string) => load(target, 1, 1, 200, () => ({ method: 'DELETE', path: `${configMaps}?labelSelector=app%3D${prefix}` })),
    }[kind as 'creates' | 'gets' | 'lists' | 'deletes'];
    await load(target, 64, kind === 'lists' ? LIST_SIZE : WARM_UP, 201, create('warm'));
    if (kind === 'deletes') await load(target, 64, PROFILED, 201, create('cm'));
    if (kind !== 'creates') await run('warm', WARM_UP);
    process.kill(server.pid, 'SIGUSR2');
    const profiled = await run('cm', PROFILED);
    process.kill(server.pid, 'SIGUSR2');
    for (let waited = 0; !existsSync(out); waited += 1) {
      if (waited > 600) throw new Error('the server wrote no profile');
      await sleep(100);
    }
    console.log(`${backend}: ${kind} profiled at ${profiled.perSecond.toFixed(1)} requests/s (slowed by the profiler); profile in ${out}\n`);
    console.log(summarize(JSON.parse(readFileSync(out, 'utf8'))));
  } finally {
    await server.cleanup();
    await etcd?.cleanup();
  }
}

await main();
