/**
 * Workloads benchmark: what running pods through the controllers costs, and how it grows with the
 * number of spaces. The built server (`dist/`, embedded store) with `--simulate-nodes`, in one run:
 *   - baseline: ConfigMap creates/s through the same server (as many as the largest round's pods);
 *   - per round (S spaces, each with one Deployment of R replicas in its `default` namespace):
 *     pods/s from the first Deployment create to every pod Running and Ready (deployment →
 *     replicaset → pods → scheduler → simulated node), scheduler binds/s (pods bound over the
 *     time from the first pod's creation to the last bind), the median pod's time from its creation
 *     to Running and Ready, the server process's CPU (API,
 *     controllers, scheduler and simulator: all run in it) and RSS growth per pod;
 *   - rounds of 10 and 100 spaces, the same replicas each, and their ratio (goal: linear in pods,
 *     flat in spaces).
 * Times come from one watch of pods over every space (ADDED, bound, Running and Ready).
 *
 *   npm run bench:workloads
 *   BENCH_NODES=20 BENCH_REPLICAS=5 BENCH_SPACES=10,100 npm run bench:workloads
 *   BENCH_NODES=100 BENCH_REPLICAS=10 BENCH_SPACES=100,1000 BENCH_ROUND_SECONDS=900 npm run bench:workloads   # the scale
 *
 * Bounded: each round gives up after ROUND_DEADLINE_MS, the whole run after RUN_DEADLINE_MS; the
 * server is stopped at the end either way.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { startServer, type ServerProcess } from '../e2e/harness/server.js';
import { deployments, KubeClient, nodes, pods, tenants, type Deployment, type Pod } from '../src/client/index.js';
import { load } from './http-load.js';

const NODES = Number(process.env.BENCH_NODES ?? 20);
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 5);
const ROUNDS = (process.env.BENCH_SPACES ?? '10,100').split(',').map(Number);
const IN_FLIGHT = 32;
const POLL_MS = 100;
/** Seconds a round may take before the bench gives up (the scale, 10,000 pods, needs several minutes). */
const ROUND_DEADLINE_MS = Number(process.env.BENCH_ROUND_SECONDS ?? 60) * 1000;
const RUN_DEADLINE_MS = ROUNDS.length * ROUND_DEADLINE_MS + 60_000;
/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

interface ProcessUsage {
  cpuMs: number;
  rssKiB: number;
}

async function usageOf(pid: number): Promise<ProcessUsage> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command (which may hold spaces) start at its closing parenthesis: utime is
  // the 14th field, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!rss) throw new Error('no VmRSS');
  return { cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND, rssKiB: Number(rss[1]) };
}

async function until(what: string, deadline: number, check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Runs `count` tasks with at most IN_FLIGHT at once. */
async function pooled(count: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(IN_FLIGHT, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const isReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** When each pod of a round was created, bound and Running and Ready, from one watch over every space. */
class PodTimeline {
  readonly added = new Map<string, number>();
  readonly bound = new Map<string, number>();
  readonly ready = new Map<string, number>();
  private readonly abort = new AbortController();
  private readonly done: Promise<void>;

  constructor(client: KubeClient, label: string) {
    const watch = client.allSpaces().resource(pods).watch({ labelSelector: label, signal: this.abort.signal });
    this.done = (async () => {
      try {
        for await (const event of watch) {
          if (event.type === 'RELISTED') event.objects.forEach((p) => this.see(p));
          else if (event.type === 'ADDED' || event.type === 'MODIFIED') this.see(event.object);
        }
      } catch (err) {
        if (!this.abort.signal.aborted) throw err;
      }
    })();
  }

  private see(pod: Pod): void {
    const key = `${pod.metadata.tenant}/${pod.metadata.namespace}/${pod.metadata.name}`;
    const now = performance.now();
    if (!this.added.has(key)) this.added.set(key, now);
    if (pod.spec?.nodeName && !this.bound.has(key)) this.bound.set(key, now);
    if (isReady(pod) && !this.ready.has(key)) this.ready.set(key, now);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}

interface Round {
  spaces: number;
  pods: number;
  seconds: number;
  podsPerSecond: number;
  bindsPerSecond: number;
  /** The median pod's time from its creation to Running and Ready. */
  podMedianMs: number;
  cpuMsPerPod: number;
  rssKiBPerPod: number;
}

function deployment(label: string): Deployment {
  const labels = { app: 'web', 'bench-run': label };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels },
    spec: { replicas: REPLICAS, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  };
}

async function createSpaces(admin: KubeClient, names: string[], deadline: number): Promise<void> {
  await pooled(names.length, (i) => admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: names[i]! } }));
  await until(`${names.length} spaces Active`, deadline, async () => {
    const active = (await admin.resource(tenants).list({ fieldSelector: 'status.phase=Active' })).items.map((t) => t.metadata.name);
    return names.every((n) => active.includes(n));
  });
}

async function runRound(server: ServerProcess, admin: KubeClient, spaces: number, runDeadline: number): Promise<Round> {
  const label = `s${spaces}`;
  const names = Array.from({ length: spaces }, (_, i) => `bench-${label}-${i}`);
  const deadline = Math.min(Date.now() + ROUND_DEADLINE_MS, runDeadline);
  await createSpaces(admin, names, deadline);
  const total = spaces * REPLICAS;
  // Let the spaces' own start-up work (service accounts, root CA, the kubernetes Service) settle.
  await new Promise((r) => setTimeout(r, 2_000));
  const timeline = new PodTimeline(admin, `bench-run=${label}`);
  const before = await usageOf(server.pid);
  const start = performance.now();
  await pooled(spaces, (i) => admin.space(names[i]!).namespace('default').resource(deployments).create(deployment(label)));
  await until(`${total} pods Running and Ready`, deadline, () => timeline.ready.size >= total);
  const end = performance.now();
  const after = await usageOf(server.pid);
  await timeline.stop();
  const firstAdded = Math.min(...timeline.added.values());
  const lastBound = Math.max(...timeline.bound.values());
  const podTimes = [...timeline.ready].map(([key, at]) => at - timeline.added.get(key)!).sort((a, b) => a - b);
  return {
    spaces,
    pods: total,
    seconds: (end - start) / 1000,
    podsPerSecond: total / ((end - start) / 1000),
    bindsPerSecond: timeline.bound.size / ((lastBound - firstAdded) / 1000),
    podMedianMs: podTimes[Math.floor(podTimes.length / 2)]!,
    cpuMsPerPod: (after.cpuMs - before.cpuMs) / total,
    rssKiBPerPod: (after.rssKiB - before.rssKiB) / total,
  };
}

const fixed = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ratio = (a: number, b: number) => `${fixed(a / b, 2)}x`;

async function main(): Promise<void> {
  const runDeadline = Date.now() + RUN_DEADLINE_MS;
  const server = await startServer({ extraArgs: [`--simulate-nodes=${NODES}`] });
  try {
    const admin = await KubeClient.fromKubeconfig({ path: server.adminKubeconfig });
    await until(`${NODES} simulated nodes`, runDeadline, async () => (await admin.resource(nodes).list()).items.length >= NODES);

    // Baseline: plain creates through the same server, as many as the largest round's pods.
    const baselineCount = Math.max(...ROUNDS) * REPLICAS;
    const target = { url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) };
    const configMapBody = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `base-${i}` }, data: { a: 'b' } });
    const baseline = await load(target, IN_FLIGHT, baselineCount, 201, (i) => ({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: configMapBody(i) }));

    const rounds: Round[] = [];
    for (const spaces of ROUNDS) rounds.push(await runRound(server, admin, spaces, runDeadline));

    console.log(`\n${NODES} simulated nodes, ${REPLICAS} replicas per Deployment, one Deployment per space; baseline ${baselineCount} ConfigMap creates at ${IN_FLIGHT} in flight: ${fixed(baseline.perSecond, 0)}/s\n`);
    console.log('| spaces | pods | create → all Running and Ready | pods/s | vs ConfigMap creates/s | scheduler binds/s | pod created → Ready (median) | server CPU per pod | server RSS per pod |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rounds) {
      console.log(`| ${r.spaces} | ${r.pods} | ${fixed(r.seconds, 2)} s | ${fixed(r.podsPerSecond)} | ${ratio(r.podsPerSecond, baseline.perSecond)} | ${fixed(r.bindsPerSecond)} | ${fixed(r.podMedianMs, 0)} ms | ${fixed(r.cpuMsPerPod, 2)} ms | ${fixed(r.rssKiBPerPod)} KiB |`);
    }
    if (rounds.length >= 2) {
      const [first, last] = [rounds[0]!, rounds[rounds.length - 1]!];
      console.log(
        `| ${last.spaces} vs ${first.spaces} | ${ratio(last.pods, first.pods)} | ${ratio(last.seconds, first.seconds)} | ${ratio(last.podsPerSecond, first.podsPerSecond)} | | ${ratio(last.bindsPerSecond, first.bindsPerSecond)} | ${ratio(last.podMedianMs, first.podMedianMs)} | ${ratio(last.cpuMsPerPod, first.cpuMsPerPod)} | |`,
      );
    }
  } finally {
    await server.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
