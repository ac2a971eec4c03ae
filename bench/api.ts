/**
 * API benchmark: the built server against baselines measured in the same run, on this machine.
 *   - GET of one ConfigMap: req/s and p99 through kube-spaces (embedded and etcd) against a bare
 *     Fastify HTTPS route in its own process returning the same JSON (ratio);
 *   - creates/s (64 in flight) through kube-spaces (embedded and etcd) against raw etcd3
 *     create-if-absent transactions on an etcd of its own (ratio; measured first);
 *   - the time to LIST 10,000 ConfigMaps as JSON and as Table, against a raw etcd3 range of the
 *     same keys in the etcd-backed server's own etcd plus a JSON.parse of each value (ratio: the
 *     server's time over the raw one; both backends compare with that one etcd figure).
 *
 *   npm run bench:api
 *
 * One load generator (this process, keep-alive HTTPS, bounded request counts) drives every
 * subject, so the ratios compare servers, not clients. Client and servers share two cores: only
 * ratios from one run mean anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { load, send, type Load, type Target } from './http-load.js';
import { Etcd3 } from 'etcd3';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { findEtcdBinary, startEtcd, type EtcdProcess } from '../e2e/harness/etcd.js';
import { REPO_ROOT, startServer, type ServerProcess } from '../e2e/harness/server.js';

const GET_REQUESTS = 20_000;
const GET_CONNECTIONS = 50;
const CREATES = 5_000;
const CREATES_IN_FLIGHT = 64;
const LIST_OBJECTS = 10_000;
/** LISTs (and raw ranges) timed, after LIST_WARM_UP untimed ones: the median is kept. */
const LIST_RUNS = 5;
/** The first runs of either side are slower while the JIT compiles their paths (326, 186, 129, 138 ms: the server's first four LISTs of 10,000). */
const LIST_WARM_UP = 2;
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

async function targetOf(server: ServerProcess): Promise<Target> {
  return { url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) };
}

const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { key: 'v'.repeat(512) } });

/** A bare Fastify HTTPS server in its own process, serving `body` on GET /cm with the server's certificate. */
async function startBareFastify(dataDir: string, body: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'dist/bench/bare-fastify.js'), join(dataDir, 'serving.key'), join(dataDir, 'serving.crt')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin!.end(body);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return {
    url: line.toString('utf8').trim(),
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

interface ServerFigures {
  get: Load;
  creates: Load;
  listJsonMs: number;
  listTableMs: number;
}

async function measureServer(server: ServerProcess): Promise<{ figures: ServerFigures; sample: string }> {
  const target = await targetOf(server);
  const agent = new Agent({ ca: target.ca, keepAlive: true });
  const ns = '/api/v1/namespaces/default/configmaps';
  const created = await send(agent, target, 'POST', ns, configMap('probe'));
  if (created.status !== 201) throw new Error(`create probe: ${created.status} ${created.body}`);
  const sample = (await send(agent, target, 'GET', `${ns}/probe`)).body;
  const get = await load(target, GET_CONNECTIONS, GET_REQUESTS, 200, () => ({ method: 'GET', path: `${ns}/probe` }));
  const creates = await load(target, CREATES_IN_FLIGHT, CREATES, 201, (i) => ({ method: 'POST', path: ns, body: configMap(`cm-${i}`) }));
  await load(target, CREATES_IN_FLIGHT, LIST_OBJECTS - CREATES, 201, (i) => ({ method: 'POST', path: ns, body: configMap(`more-${i}`) }));
  const timeList = async (accept: string): Promise<number> => {
    const runs: number[] = [];
    for (let i = 0; i < LIST_WARM_UP + LIST_RUNS; i += 1) {
      const t0 = performance.now();
      const answer = await send(agent, target, 'GET', ns, undefined, accept);
      if (answer.status !== 200) throw new Error(`list: ${answer.status}`);
      if (i >= LIST_WARM_UP) runs.push(performance.now() - t0);
    }
    return median(runs);
  };
  const listJsonMs = await timeList('application/json');
  const listTableMs = await timeList(TABLE_ACCEPT);
  agent.destroy();
  return { figures: { get, creates, listJsonMs, listTableMs }, sample };
}

function median(runs: number[]): number {
  return [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
}

/** A raw etcd3 range over the server's ConfigMap keys plus a JSON.parse of each value (median of LIST_RUNS): the floor under an etcd-served LIST. */
async function rawEtcdList(endpoint: string): Promise<number> {
  // One range of every key, as large as the server's own pages may be.
  const client = new Etcd3({ hosts: endpoint, grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 } });
  const runs: number[] = [];
  try {
    for (let i = 0; i < LIST_WARM_UP + LIST_RUNS; i += 1) {
      const t0 = performance.now();
      const values = await client.getAll().prefix('/registry/core/configmaps/').strings();
      const parsed = Object.values(values).map((value) => JSON.parse(value) as unknown);
      if (i >= LIST_WARM_UP) runs.push(performance.now() - t0);
      if (parsed.length < LIST_OBJECTS) throw new Error(`raw range: ${parsed.length} ConfigMaps`);
    }
  } finally {
    client.close();
  }
  return median(runs);
}

/** Raw etcd3 create-if-absent transactions, 64 in flight: the floor under any etcd-backed create. */
async function rawEtcdCreates(endpoint: string): Promise<Load> {
  const client = new Etcd3({ hosts: endpoint });
  const latencies: number[] = [];
  let next = 0;
  const value = configMap('x');
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CREATES_IN_FLIGHT }, async () => {
      while (next < CREATES) {
        const key = `/bench/raw/${next++}`;
        const t0 = performance.now();
        await client.if(key, 'Create', '==', 0).then(client.put(key).value(value)).commit();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  client.close();
  latencies.sort((a, b) => a - b);
  return { perSecond: CREATES / seconds, p99Ms: latencies[Math.floor(latencies.length * 0.99)]! };
}

async function main(): Promise<void> {
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const measured: Array<{ backend: string; figures: ServerFigures }> = [];
  let bare: Load | undefined;
  // Measured first, so both backends' creates compare with it (goals: SQLite ≥ 3x, etcd ≥ 0.7x).
  let raw: Load | undefined;
  let rawListMs: number | undefined;
  if (findEtcdBinary()) {
    const rawEtcd = await startEtcd();
    try {
      raw = await rawEtcdCreates(rawEtcd.endpoint);
    } finally {
      await rawEtcd.cleanup();
    }
  }
  for (const backend of raw ? (['sqlite', 'etcd'] as const) : (['sqlite'] as const)) {
    let etcd: EtcdProcess | undefined;
    let server: ServerProcess | undefined;
    try {
      if (backend === 'etcd') etcd = await startEtcd();
      server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [] });
      const { figures, sample } = await measureServer(server);
      measured.push({ backend, figures });
      if (etcd) rawListMs = await rawEtcdList(etcd.endpoint);
      if (!bare) {
        const fastify = await startBareFastify(server.dataDir, sample);
        try {
          bare = await load({ url: fastify.url, ca: server.caCert, token: 'unused' }, GET_CONNECTIONS, GET_REQUESTS, 200, () => ({ method: 'GET', path: '/cm' }));
        } finally {
          await fastify.stop();
        }
      }
    } finally {
      await server?.cleanup();
      await etcd?.cleanup();
    }
  }
  console.log(`\nAPI benchmark (GET: ${f(GET_REQUESTS)} requests on ${GET_CONNECTIONS} connections; creates: ${f(CREATES)} at ${CREATES_IN_FLIGHT} in flight; LIST of ${f(LIST_OBJECTS)} ConfigMaps, median of ${LIST_RUNS} after ${LIST_WARM_UP} untimed, raw range too)\n`);
  console.log(`bare Fastify HTTPS route, same JSON: ${f(bare!.perSecond)} req/s, p99 ${f(bare!.p99Ms, 1)} ms`);
  if (raw) console.log(`raw etcd3 create-if-absent transactions, ${CREATES_IN_FLIGHT} in flight: ${f(raw.perSecond)}/s, p99 ${f(raw.p99Ms, 1)} ms`);
  if (rawListMs !== undefined) console.log(`raw etcd3 range of the ${f(LIST_OBJECTS)} ConfigMap keys + JSON.parse: ${f(rawListMs)} ms (goal: a LIST <= 0.7x of it)`);
  console.log('');
  console.log('| backend | GET req/s | GET p99 | GET vs bare Fastify | creates/s | creates vs raw etcd3 | LIST 10k JSON | vs raw etcd range | LIST 10k Table |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { backend, figures } of measured) {
    const createRatio = raw ? `${f(figures.creates.perSecond / raw.perSecond, 2)}x` : 'n/a (no etcd here)';
    const listRatio = rawListMs === undefined ? 'n/a (no etcd)' : `${f(figures.listJsonMs / rawListMs, 2)}x`;
    console.log(
      `| ${backend} | ${f(figures.get.perSecond)} | ${f(figures.get.p99Ms, 1)} ms | ${f(figures.get.perSecond / bare!.perSecond, 2)}x | ${f(figures.creates.perSecond)} | ${createRatio} | ${f(figures.listJsonMs)} ms | ${listRatio} | ${f(figures.listTableMs)} ms |`,
    );
  }
}

await main();
