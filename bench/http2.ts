/**
 * HTTP/2 benchmark: what a client-go-like process sees with 50 watches open and 1,000 GETs of one
 * ConfigMap (50 in flight), over one HTTP/2 connection against HTTP/1.1 keep-alive connections
 * (a connection per watch, 50 more for the GETs), on the built server (embedded store). Baselines
 * measured in the same run: a bare Fastify HTTPS route in its own process, returning the same
 * JSON, over the same protocol. Figures:
 *   - GET req/s and p99 with the watches open (median of 3 rounds), and their ratio to the bare route;
 *   - the time to open the 50 watches, and for one new ConfigMap to reach all of them.
 * Then the same with stock kubectl 1.33 (when installed), h2 against HTTP/1.1 (client-go's
 * `DISABLE_HTTP2`): 50 `kubectl get configmaps --watch-only` processes, 1,000 GETs as 100
 * `kubectl get configmap` processes naming the probe 10 times (each over its one connection;
 * client-go's rate limiter holds one kubectl to a burst of 10, then 5 a second), 10 at a time,
 * and one create that all 50 watches must print.
 *
 *   npm run bench:http2
 *
 * Client and servers share the machine's cores: only ratios from one run mean anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { send, type Target } from './http-load.js';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { createKubectl, findKubectl, type KubectlProcess } from '../e2e/harness/kubectl.js';
import { REPO_ROOT, startServer } from '../e2e/harness/server.js';

const WATCHES = 50;
const GETS = 1_000;
const IN_FLIGHT = 50;
const ROUNDS = 3;
const KUBECTL_GETS_PER_PROCESS = 10;
const KUBECTL_GETS_IN_FLIGHT = 10;
const NS = '/api/v1/namespaces/default/configmaps';

type Protocol = 'h2' | 'http/1.1';

const f = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'v'.repeat(512) } });

/** One client's way of sending a GET and of opening a watch whose lines it hands to `onLine`. */
interface Client {
  get(path: string): Promise<number>;
  watch(path: string, onLine: (line: string) => void): Promise<void>;
  close(): void;
}

function headersOf(target: Target): Record<string, string> {
  return { accept: 'application/json', ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) };
}

/** Lines of a streamed body, as they complete. */
function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  };
}

async function http2Client(target: Target): Promise<Client> {
  const session: ClientHttp2Session = connect(target.url, { ca: target.ca });
  await once(session, 'connect');
  const open = (path: string) => session.request({ ':method': 'GET', ':path': path, ...headersOf(target) });
  return {
    get: (path) =>
      new Promise((resolve, reject) => {
        const stream = open(path);
        let status = 0;
        stream.on('response', (h) => (status = Number(h[':status'])));
        stream.on('data', () => undefined);
        stream.on('end', () => resolve(status));
        stream.on('error', reject);
      }),
    watch: (path, onLine) =>
      new Promise((resolve, reject) => {
        const stream = open(path);
        stream.setEncoding('utf8');
        stream.on('response', () => resolve());
        stream.on('data', lineSplitter(onLine));
        stream.on('error', reject);
      }),
    close: () => session.destroy(),
  };
}

function http1Client(target: Target): Client {
  // The GETs keep IN_FLIGHT connections alive; each watch holds one more of its own.
  const agent = new Agent({ ca: target.ca, keepAlive: true, maxSockets: IN_FLIGHT + WATCHES });
  return {
    get: async (path) => (await send(agent, target, 'GET', path)).status,
    watch: (path, onLine) =>
      new Promise((resolve, reject) => {
        const req = request(new URL(path, target.url), { headers: headersOf(target), agent }, (res) => {
          res.setEncoding('utf8');
          res.on('data', lineSplitter(onLine));
          resolve();
        });
        req.on('error', reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

/** `GETS` GETs, `IN_FLIGHT` at a time: req/s and p99. */
async function getLoad(client: Client, path: string): Promise<{ perSecond: number; p99Ms: number }> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < GETS) {
        next++;
        const t0 = performance.now();
        const status = await client.get(path);
        latencies.push(performance.now() - t0);
        if (status !== 200) throw new Error(`GET ${path}: ${status}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: GETS / seconds, p99Ms: latencies[Math.floor(latencies.length * 0.99)]! };
}

/** The median round by req/s. */
async function medianLoad(client: Client, path: string): Promise<{ perSecond: number; p99Ms: number }> {
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await getLoad(client, path));
  return rounds.sort((a, b) => a.perSecond - b.perSecond)[Math.floor(ROUNDS / 2)]!;
}

interface Figures {
  watchesOpenMs: number;
  get: { perSecond: number; p99Ms: number };
  eventToAllMs: number;
}

async function measureKubeSpaces(target: Target, protocol: Protocol, round: number): Promise<Figures> {
  const client = protocol === 'h2' ? await http2Client(target) : http1Client(target);
  try {
    const probe = `${NS}/probe`;
    const marker = `event-${protocol === 'h2' ? 'h2' : 'h1'}-${round}`;
    let reached = 0;
    let allReached: () => void = () => undefined;
    const everyWatchSawIt = new Promise<void>((resolve) => (allReached = resolve));
    const onLine = (line: string): void => {
      if (line.includes(`"name":"${marker}"`) && ++reached === WATCHES) allReached();
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: WATCHES }, () => client.watch(`${NS}?watch=1&allowWatchBookmarks=true&resourceVersion=0`, onLine)));
    const watchesOpenMs = performance.now() - t0;
    const get = await medianLoad(client, probe);
    const t1 = performance.now();
    const writer = new Agent({ ca: target.ca });
    const created = await send(writer, target, 'POST', NS, configMap(marker));
    writer.destroy();
    if (created.status !== 201) throw new Error(`create ${marker}: ${created.status} ${created.body}`);
    await everyWatchSawIt;
    return { watchesOpenMs, get, eventToAllMs: performance.now() - t1 };
  } finally {
    client.close();
  }
}

/** A bare Fastify HTTPS route in its own process serving `body`, over HTTP/2 and HTTP/1.1 or HTTP/1.1 only. */
async function startBareFastify(dataDir: string, body: string, protocol: Protocol): Promise<{ url: string; stop(): Promise<void> }> {
  const args = [join(REPO_ROOT, 'dist/bench/bare-fastify.js'), join(dataDir, 'serving.key'), join(dataDir, 'serving.crt'), ...(protocol === 'h2' ? ['h2'] : [])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
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

async function measureBare(dataDir: string, ca: string, body: string, protocol: Protocol): Promise<{ perSecond: number; p99Ms: number }> {
  const bare = await startBareFastify(dataDir, body, protocol);
  const target = { url: bare.url, ca };
  const client = protocol === 'h2' ? await http2Client(target) : http1Client(target);
  try {
    return await medianLoad(client, '/cm');
  } finally {
    client.close();
    await bare.stop();
  }
}

interface KubectlFigures {
  watchesOpenMs: number;
  getsMs: number;
  eventToAllMs: number;
  /** What Go's http2 debug log says the client spoke. */
  spoke: string;
}

/** Stock kubectl 1.33 over h2 or, with Go's HTTP/2 client off, HTTP/1.1: every command must succeed. */
async function measureKubectl(adminKubeconfig: string, target: Target, protocol: Protocol): Promise<KubectlFigures> {
  const kubectl = await createKubectl({ kubeconfig: adminKubeconfig });
  // client-go configures HTTP/2 itself (Go's GODEBUG=http2client=0 does not reach it); its own
  // switch is DISABLE_HTTP2.
  const env: Record<string, string> = protocol === 'h2' ? {} : { DISABLE_HTTP2: '1' };
  const watchers: KubectlProcess[] = [];
  try {
    const probe = await kubectl.run(['get', '--raw', '/version'], { version: '1.33', env: { ...env, GODEBUG: 'http2debug=1' } });
    if (probe.code !== 0) throw new Error(`kubectl get --raw /version: ${probe.stderr}`);
    const spoke = /http2: Transport/.test(probe.stderr) ? 'h2' : 'http/1.1';
    if (spoke !== protocol) throw new Error(`kubectl spoke ${spoke}, not ${protocol}`);
    // Discovery is cached in kubectl's HOME after the first command, as for a user.
    const warm = await kubectl.run(['get', 'configmap', 'probe', '-o', 'name'], { version: '1.33', env });
    if (warm.code !== 0) throw new Error(`kubectl get configmap probe: ${warm.stderr}`);

    const t0 = performance.now();
    for (let i = 0; i < WATCHES; i++) watchers.push(kubectl.start(['get', 'configmaps', '--watch-only', '-o', 'name', '-v=6'], { version: '1.33', env, timeoutMs: 120_000 }));
    await Promise.all(watchers.map((w) => w.waitForLog(/watch=true.*200 OK/, 60_000)));
    const watchesOpenMs = performance.now() - t0;

    // client-go's rate limiter lets one kubectl send a burst of 10 requests, then 5 a second: so
    // 100 processes (10 at a time) each GET the probe 10 times, on the one connection it opens.
    const t1 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: KUBECTL_GETS_IN_FLIGHT }, async () => {
        while (next < GETS / KUBECTL_GETS_PER_PROCESS) {
          next++;
          const gets = await kubectl.run(['get', 'configmap', ...Array.from({ length: KUBECTL_GETS_PER_PROCESS }, () => 'probe'), '-o', 'name'], { version: '1.33', env });
          const printed = gets.stdout.split('\n').filter((l) => l === 'configmap/probe').length;
          if (gets.code !== 0 || printed !== KUBECTL_GETS_PER_PROCESS) throw new Error(`kubectl get: exit ${gets.code}, ${printed} printed; ${gets.stderr.slice(0, 300)}`);
        }
      }),
    );
    const getsMs = performance.now() - t1;

    const marker = `kubectl-${protocol === 'h2' ? 'h2' : 'h1'}`;
    const t2 = performance.now();
    const writer = new Agent({ ca: target.ca });
    const created = await send(writer, target, 'POST', NS, configMap(marker));
    writer.destroy();
    if (created.status !== 201) throw new Error(`create ${marker}: ${created.status} ${created.body}`);
    await Promise.all(watchers.map((w) => w.waitForOutput(new RegExp(`^configmap/${marker}$`, 'm'), 60_000)));
    return { watchesOpenMs, getsMs, eventToAllMs: performance.now() - t2, spoke };
  } finally {
    await Promise.all(watchers.map((w) => w.stop()));
    await kubectl.cleanup();
  }
}

async function main(): Promise<void> {
  const server = await startServer({ extraArgs: ['--controllers=false'] });
  try {
    const target: Target = { url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) };
    const agent = new Agent({ ca: target.ca });
    const created = await send(agent, target, 'POST', NS, configMap('probe'));
    if (created.status !== 201) throw new Error(`create probe: ${created.status} ${created.body}`);
    const sample = (await send(agent, target, 'GET', `${NS}/probe`)).body;
    agent.destroy();

    const rows: string[] = [];
    const measured: Partial<Record<Protocol, Figures>> = {};
    for (const protocol of ['h2', 'http/1.1'] as const) {
      const bare = await measureBare(server.dataDir, server.caCert, sample, protocol);
      const figures = await measureKubeSpaces(target, protocol, rows.length);
      measured[protocol] = figures;
      const connections = protocol === 'h2' ? '1' : `${WATCHES} + ${IN_FLIGHT}`;
      rows.push(
        `| ${protocol} | ${connections} | ${f(figures.watchesOpenMs)} ms | ${f(figures.get.perSecond)} | ${f(figures.get.p99Ms, 1)} ms | ${f(bare.perSecond)} | ${f(figures.get.perSecond / bare.perSecond, 2)}x | ${f(figures.eventToAllMs, 1)} ms |`,
      );
    }
    console.log(`\nHTTP/2 benchmark (${WATCHES} watches open, then ${f(GETS)} GETs of one ConfigMap at ${IN_FLIGHT} in flight, median of ${ROUNDS} rounds; then one create seen by every watch)\n`);
    console.log('| protocol | connections | open 50 watches | GET req/s | GET p99 | bare Fastify GET req/s (same protocol) | vs bare Fastify | create → all 50 watches |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log(`\nh2 vs HTTP/1.1 GET req/s: ${f(measured.h2!.get.perSecond / measured['http/1.1']!.get.perSecond, 2)}x`);

    if (findKubectl('1.33') === undefined) return console.log('\nkubectl 1.33 not installed: its rows are skipped');
    const kubectlRows: string[] = [];
    for (const protocol of ['h2', 'http/1.1'] as const) {
      const k = await measureKubectl(server.adminKubeconfig, target, protocol);
      kubectlRows.push(`| ${protocol} (${k.spoke} by Go's debug log) | ${f(k.watchesOpenMs)} ms | ${f(k.getsMs)} ms | ${f((GETS * 1000) / k.getsMs)} | ${f(k.eventToAllMs, 1)} ms |`);
    }
    console.log(`\nStock kubectl 1.33: ${WATCHES} \`kubectl get configmaps --watch-only\` processes, then ${f(GETS)} GETs as ${GETS / KUBECTL_GETS_PER_PROCESS} \`kubectl get configmap\` of ${KUBECTL_GETS_PER_PROCESS} names (${KUBECTL_GETS_IN_FLIGHT} at a time), then one create\n`);
    console.log(`| protocol | open ${WATCHES} watches (processes started → each logged its watch) | ${f(GETS)} GETs through kubectl | GETs/s | create → all ${WATCHES} kubectl watches printed it |`);
    console.log('|---|---|---|---|---|');
    for (const row of kubectlRows) console.log(row);
  } finally {
    await server.cleanup();
  }
}

await main();
