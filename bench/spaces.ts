/**
 * Spaces benchmark: what a space costs. Against the built server (`dist/`), on the embedded store
 * and, when an etcd binary is present, on etcd, in one run:
 *   - tenant creates/s until Active (the tenant controller has laid the space out), next to plain
 *     ConfigMap creates/s through the same server as the baseline ratio;
 *   - memory per empty space over 1,000 spaces: the server's RSS growth, and its live heap growth
 *     (heap used + external after full collections, `heap-probe.ts`; RSS also counts garbage not
 *     yet collected and heap the allocator keeps), each divided;
 *   - live heap per cached object against its JSON size: the growth over the 10,000 ConfigMaps
 *     of the big space (every cache and informer holding them counts) over their bytes as served;
 *   - the time to delete a space holding 10,000 objects (DELETE until the Tenant is gone).
 *
 *   npm run bench:spaces
 *
 * Goals (issue 15): spaces >= 0.5x ConfigMap creates, <= 32 KiB per empty space, heap per cached
 * object <= 2x its JSON, delete <= 1 s (SQLite) / 2 s (etcd). Every loop is bounded; servers and
 * etcd are stopped at the end.
 */
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { apiClientFor, type ApiClient } from '../e2e/harness/api-client.js';
import { findEtcdBinary, startEtcd, type EtcdProcess } from '../e2e/harness/etcd.js';
import { startServer, type ServerProcess } from '../e2e/harness/server.js';
import { heapProbe, type HeapProbe } from './heap-probe.js';

const SPACES = 1000;
const BASELINE_OBJECTS = 1000;
const BIG_SPACE_OBJECTS = 10_000;
const IN_FLIGHT = 32;
const POLL_MS = 20;
const DEADLINE_MS = 10 * 60_000;

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS');
  return Number(match[1]);
}

/** Runs `count` tasks with at most IN_FLIGHT at once. */
async function pooled(count: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function post(api: ApiClient, path: string, body: unknown): Promise<void> {
  const res = await api.request('POST', path, { json: body });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 300)}`);
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function activeTenants(api: ApiClient, prefix: string): Promise<number> {
  const res = await api.request('GET', '/api/v1/tenants?fieldSelector=status.phase%3DActive');
  return res.json<{ items: Array<{ metadata: { name: string } }> }>().items.filter((t) => t.metadata.name.startsWith(prefix)).length;
}

interface Figures {
  configMapsPerSecond: number;
  spacesPerSecond: number;
  rssKibPerSpace: number;
  heapKibPerSpace: number;
  heapPerObjectOverJson: number;
  bigSpaceDeleteSeconds: number;
}

async function measure(server: ServerProcess, probe: HeapProbe): Promise<Figures> {
  const api = await apiClientFor(server);
  try {
    // Baseline: plain object creates through the same server.
    let start = performance.now();
    await pooled(BASELINE_OBJECTS, (i) => post(api, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `base-${i}` }, data: { a: 'b' } }));
    const configMapsPerSecond = BASELINE_OBJECTS / ((performance.now() - start) / 1000);

    // Let start-up garbage settle before the memory baseline.
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = await rssKiB(server.pid);
    const heapBefore = await probe.liveBytes(server.pid);
    start = performance.now();
    await pooled(SPACES, (i) => post(api, '/api/v1/tenants', { apiVersion: 'v1', kind: 'Tenant', metadata: { name: `space-${i}` } }));
    await until('every space Active', async () => (await activeTenants(api, 'space-')) === SPACES);
    const spacesPerSecond = SPACES / ((performance.now() - start) / 1000);
    await new Promise((r) => setTimeout(r, 2000));
    const rssKibPerSpace = ((await rssKiB(server.pid)) - rssBefore) / SPACES;
    const heapKibPerSpace = ((await probe.liveBytes(server.pid)) - heapBefore) / 1024 / SPACES;

    await post(api, '/api/v1/tenants', { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 'big' } });
    await until('space big Active', async () => (await api.request('GET', '/api/v1/tenants/big')).json<{ status?: { phase?: string } }>().status?.phase === 'Active');
    const heapBeforeObjects = await probe.liveBytes(server.pid);
    await pooled(BIG_SPACE_OBJECTS, (i) =>
      post(api, '/api/v1/tenants/big/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { a: 'b' } }),
    );
    // Let every informer catch up before reading the heap.
    await new Promise((r) => setTimeout(r, 2000));
    const heapPerObject = ((await probe.liveBytes(server.pid)) - heapBeforeObjects) / BIG_SPACE_OBJECTS;
    const jsonBytes = Buffer.byteLength((await api.request('GET', '/api/v1/tenants/big/namespaces/default/configmaps/cm-0')).body);
    start = performance.now();
    const del = await api.request('DELETE', '/api/v1/tenants/big');
    if (del.status !== 200) throw new Error(`DELETE tenant: ${del.status} ${del.body}`);
    await until('space big gone', async () => (await api.request('GET', '/api/v1/tenants/big')).status === 404);
    const bigSpaceDeleteSeconds = (performance.now() - start) / 1000;
    return { configMapsPerSecond, spacesPerSecond, rssKibPerSpace, heapKibPerSpace, heapPerObjectOverJson: heapPerObject / jsonBytes, bigSpaceDeleteSeconds };
  } finally {
    api.close();
  }
}

async function main(): Promise<void> {
  const rows: Array<[string, Figures]> = [];
  const backends: Array<'sqlite' | 'etcd'> = findEtcdBinary() ? ['sqlite', 'etcd'] : ['sqlite'];
  for (const backend of backends) {
    let etcd: EtcdProcess | undefined;
    let server: ServerProcess | undefined;
    const probe = await heapProbe();
    try {
      if (backend === 'etcd') etcd = await startEtcd();
      server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [], env: probe.env });
      rows.push([backend, await measure(server, probe)]);
    } finally {
      await server?.cleanup();
      await etcd?.cleanup();
      await probe.cleanup();
    }
  }
  const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  console.log(`\nspaces benchmark (${SPACES} spaces, ${BIG_SPACE_OBJECTS} objects in the deleted space, ${IN_FLIGHT} requests in flight)\n`);
  console.log('| backend | configmap creates/s (baseline) | spaces/s until Active | ratio | KiB per empty space (RSS) | KiB per empty space (live heap) | heap per cached object / its JSON | delete 10k-object space |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [backend, r] of rows) {
    console.log(
      `| ${backend} | ${f(r.configMapsPerSecond)} | ${f(r.spacesPerSecond)} | ${f(r.spacesPerSecond / r.configMapsPerSecond, 2)}x | ${f(r.rssKibPerSpace, 1)} | ${f(r.heapKibPerSpace, 1)} | ${f(r.heapPerObjectOverJson, 1)}x | ${f(r.bigSpaceDeleteSeconds, 1)} s |`,
    );
  }
  console.log('\ngoals: >= 0.5x, <= 32 KiB per empty space, <= 2x heap per cached object, delete <= 1 s (sqlite) / 2 s (etcd)');
}

await main();
