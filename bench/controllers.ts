/**
 * Controller benchmark: the example controller of docs/controller-authors.md
 * (`e2e/examples/config-map-summary-controller.ts`) and an informer's cache, against baselines
 * measured in the same run.
 *   - convergence: N spaces × 10 ConfigMaps are written first; then the controller starts and the
 *     clock runs until every space's summary is right. Over HTTPS to the built server in its own
 *     process (the baseline) and over the in-process transport to a server in this process (the
 *     controller and the server then share one event loop);
 *   - memory: live heap per ConfigMap held by a shared informer over every space (what the
 *     controller manager caches), against the object's JSON size and against a plain Map of the
 *     same parsed objects (the least any cache of objects can cost);
 *   - memory per empty space: the whole controller manager (every controller and informer, run in
 *     this process against a server started with --controllers=false) before and after N new
 *     spaces have settled, against the JSON size of what an empty space holds (its namespaces,
 *     service accounts, root CA ConfigMaps, events …). No per-space structures means the cost per
 *     space is the cost of those objects: about the informer's ratio to JSON size.
 *
 *   npm run bench:controllers                    # 100 spaces
 *   BENCH_SPACES=1000 npm run bench:controllers  # the 1,000 spaces (minutes)
 *
 * Run with --expose-gc (the npm script does): memory is read after full collections.
 */
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { startControllerManager } from '../controllers/controller-manager.js';
import { Informer } from '../controllers/runtime/informer.js';
import { dataDigest, isSummary, runConfigMapSummary, SUMMARY_NAME, summaryData } from '../e2e/examples/config-map-summary-controller.js';
import { startServer } from '../e2e/harness/server.js';
import { configMaps, HttpsTransport, ImpersonatingTransport, KubeClient, loadKubeconfig, tenants, type ConfigMap } from '../src/client/index.js';
import { startInProcessServer, testUser } from '../src/testing/in-process-server.js';

const SPACES = Number(process.env.BENCH_SPACES ?? 100);
const CONFIG_MAPS_PER_SPACE = 10;
const IN_FLIGHT = 32;
const CONVERGENCE_LIMIT_MS = 5 * 60_000;

const f = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const spaceNames = Array.from({ length: SPACES }, (_, i) => `bench-${i}`);

/** Runs `work` over `items`, `IN_FLIGHT` at a time. */
async function inFlight<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** N Active (empty) spaces. */
async function createSpaces(admin: KubeClient): Promise<void> {
  await inFlight(spaceNames, (name) => admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name } }));
  for (;;) {
    const { items } = await admin.resource(tenants).listAll();
    if (items.filter((t) => spaceNames.includes(t.metadata.name!) && t.status?.phase === 'Active').length === SPACES) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** N Active spaces, each with 10 ConfigMaps in `default`. */
async function populate(admin: KubeClient): Promise<void> {
  await createSpaces(admin);
  const writes = spaceNames.flatMap((tenant) => Array.from({ length: CONFIG_MAPS_PER_SPACE }, (_, i) => ({ tenant, i })));
  await inFlight(writes, ({ tenant, i }) =>
    admin.space(tenant).namespace('default').resource(configMaps).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench' } }, data: { index: String(i), value: 'v'.repeat(200) } }),
  );
}

/**
 * Whether every bench space's summary is right for what the space holds now (the server's own
 * controllers may still be adding ConfigMaps, such as `kube-root-ca.crt`, while the clock runs).
 */
async function allRight(admin: KubeClient): Promise<boolean> {
  const across = admin.allSpaces().resource(configMaps);
  // Cheap first: every space has a summary at all.
  const { items: summaries } = await across.listAll({ fieldSelector: `metadata.name=${SUMMARY_NAME}` });
  if (summaries.filter((cm) => spaceNames.includes(cm.metadata.tenant!)).length < SPACES) return false;
  const digests = new Map<string, Map<string, string>>(spaceNames.map((tenant) => [tenant, new Map()]));
  const found = new Map<string, ConfigMap>();
  for (const cm of (await across.listAll()).items) {
    if (isSummary(cm)) found.set(cm.metadata.tenant!, cm);
    else digests.get(cm.metadata.tenant!)?.set(`${cm.metadata.namespace}/${cm.metadata.name}`, dataDigest(cm));
  }
  return [...digests].every(([tenant, byKey]) => isDeepStrictEqual(found.get(tenant)?.data, summaryData(byKey)));
}

/** Each bench space's summary data as it should be for what the spaces hold now. */
async function expectedSummaries(admin: KubeClient): Promise<Map<string, Record<string, string>>> {
  const digests = new Map<string, Map<string, string>>(spaceNames.map((tenant) => [tenant, new Map()]));
  for (const cm of (await admin.allSpaces().resource(configMaps).listAll()).items) {
    if (!isSummary(cm)) digests.get(cm.metadata.tenant!)?.set(`${cm.metadata.namespace}/${cm.metadata.name}`, dataDigest(cm));
  }
  return new Map([...digests].map(([tenant, byKey]) => [tenant, summaryData(byKey)]));
}

/**
 * Milliseconds from the controller's start until every space's summary is right. The summaries
 * are followed through a watch (polling full lists of every space would load the server the
 * controller is timed against, more so the more spaces); once they all match what the spaces held
 * at the start, one full check confirms it, polled again should the server have added ConfigMaps
 * meanwhile.
 */
async function convergence(admin: KubeClient, controllerClient: KubeClient): Promise<number> {
  // The server's own controllers may still be publishing root CA ConfigMaps: wait until what
  // the spaces hold has stopped changing.
  let expected = await expectedSummaries(admin);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = await expectedSummaries(admin);
    if (isDeepStrictEqual(again, expected)) break;
    expected = again;
  }
  const stop = new AbortController();
  const watching = new AbortController();
  const limit = setTimeout(() => watching.abort(), CONVERGENCE_LIMIT_MS);
  const t0 = performance.now();
  const running = runConfigMapSummary(controllerClient, stop.signal);
  try {
    const right = new Set<string>();
    const present = new Set<string>();
    let settling: NodeJS.Timeout | undefined;
    const see = (cm: ConfigMap): void => {
      const tenant = cm.metadata.tenant!;
      if (!expected.has(tenant)) return;
      present.add(tenant);
      if (isDeepStrictEqual(cm.data, expected.get(tenant))) right.add(tenant);
      else right.delete(tenant);
      // Every space has a summary but not all match: the server may have added ConfigMaps since
      // the expectation was taken (its root CA ConfigMaps); the full check below decides.
      if (present.size === SPACES && right.size < SPACES) settling ??= setTimeout(() => watching.abort(), 2_000);
    };
    try {
      const summaries = admin.allSpaces().resource(configMaps).watch({ fieldSelector: `metadata.name=${SUMMARY_NAME}`, signal: watching.signal });
      for await (const event of summaries) {
        if (event.type === 'RELISTED') event.objects.forEach(see);
        else if (event.type !== 'BOOKMARK' && event.type !== 'DELETED') see(event.object);
        if (right.size === SPACES) break;
      }
    } catch (err) {
      if (!watching.signal.aborted) throw err;
    } finally {
      clearTimeout(settling);
    }
    while (performance.now() - t0 < CONVERGENCE_LIMIT_MS) {
      if (await allRight(admin)) return performance.now() - t0;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('the controller did not converge');
  } finally {
    clearTimeout(limit);
    watching.abort();
    stop.abort();
    await running;
  }
}

function liveBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench:controllers)');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * The live bytes `hold` adds while what it answers is held. Measured once per holder, the
 * informer last: in trials, a measurement taken after the informer's was off by about the
 * informer's size (a stopped informer alone lets go of its cache at once; the cause in this
 * sequence is not known). Earlier work (the convergence runs) is given a second to let go first.
 */
async function heldBytes(hold: () => Promise<{ release(): void }>): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = liveBytes();
  const held = await hold();
  const bytes = liveBytes() - before;
  held.release();
  return bytes;
}

/** Live bytes per ConfigMap: held in a plain Map of parsed objects, and in a shared informer's cache; their JSON size. */
async function memoryPerObject(admin: KubeClient): Promise<{ objects: number; json: number; map: number; informer: number }> {
  const across = admin.allSpaces().resource(configMaps);
  const { items } = await across.listAll();
  const objects = items.length;
  const json = items.reduce((sum, cm) => sum + Buffer.byteLength(JSON.stringify(cm)), 0) / objects;
  const map = await heldBytes(async () => {
    let held: Map<string, ConfigMap> | undefined = new Map();
    for (const cm of (await across.listAll()).items) held.set(`${cm.metadata.tenant}/${cm.metadata.namespace}/${cm.metadata.name}`, cm);
    return { release: () => (held = undefined) };
  });
  const informer = await heldBytes(async () => {
    const cache = new Informer('configmaps.v1.core@all', (signal) => across.watch({ signal }));
    cache.start();
    await cache.waitForSync();
    return { release: () => cache.stop() };
  });
  return { objects, json, map: map / objects, informer: informer / objects };
}

/** What the bench spaces hold, over every resource the server serves: objects and their JSON bytes. */
async function benchSpaceContents(admin: KubeClient): Promise<{ objects: number; json: number }> {
  const across = admin.allSpaces();
  const bench = new Set(spaceNames);
  let objects = 0;
  let json = 0;
  for (const served of await across.preferredResources()) {
    if (!served.verbs.includes('list')) continue;
    for (const obj of (await across.resource(served).listAll()).items) {
      if (!bench.has(obj.metadata.tenant!)) continue;
      objects += 1;
      json += Buffer.byteLength(JSON.stringify(obj));
    }
  }
  return { objects, json };
}

/**
 * Live bytes the controller manager adds per empty space. The manager runs in this process over
 * HTTPS (the server's own controllers are off); the spaces count as settled once what they hold
 * has stopped changing for two seconds.
 */
async function memoryPerEmptySpace(): Promise<{ bytes: number; objects: number; json: number }> {
  const server = await startServer({ extraArgs: ['--controllers=false'] });
  const admin = await KubeClient.fromKubeconfig({ path: server.adminKubeconfig });
  const config = await loadKubeconfig({ path: server.adminKubeconfig });
  const transport = new HttpsTransport(config.transport);
  const quiet = { info: () => {}, error: () => {} };
  const manager = startControllerManager({
    informerClient: new KubeClient(transport),
    clientFor: (user) => new KubeClient(new ImpersonatingTransport(transport, user)),
    rootCaBundle: config.transport.ca,
    log: quiet,
  });
  const settle = async (): Promise<{ objects: number; json: number }> => {
    let last = await benchSpaceContents(admin);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const now = await benchSpaceContents(admin);
      if (now.objects === last.objects && now.json === last.json) return now;
      last = now;
    }
  };
  try {
    await manager.synced;
    await settle();
    const before = liveBytes();
    await createSpaces(admin);
    const contents = await settle();
    const bytes = liveBytes() - before;
    return { bytes: bytes / SPACES, objects: contents.objects / SPACES, json: contents.json / SPACES };
  } finally {
    await manager.stop();
    transport.close();
    admin.close();
    await server.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(`Controllers: the example controller over ${f(SPACES)} spaces × ${CONFIG_MAPS_PER_SPACE} ConfigMaps; node ${process.version}\n`);

  // Over HTTPS: the built server in its own process (embedded store).
  const server = await startServer();
  const admin = await KubeClient.fromKubeconfig({ path: server.adminKubeconfig });
  const controllerOverHttps = await KubeClient.fromKubeconfig({ path: server.adminKubeconfig });
  let httpsMs: number;
  let memory: Awaited<ReturnType<typeof memoryPerObject>>;
  try {
    await populate(admin);
    console.error(`HTTPS: ${SPACES} spaces populated`);
    httpsMs = await convergence(admin, controllerOverHttps);
    console.error(`HTTPS: converged in ${f(httpsMs)} ms`);
    memory = await memoryPerObject(admin);
  } finally {
    admin.close();
    controllerOverHttps.close();
    await server.cleanup();
  }

  // In process: the same server in this process, the in-process transport.
  const inProcess = await startInProcessServer();
  let inProcessMs: number;
  try {
    const root = inProcess.clientAs(testUser('bench-admin', 'system', ['system:masters']));
    await populate(root);
    console.error(`in process: ${SPACES} spaces populated`);
    inProcessMs = await convergence(root, inProcess.clientAs(testUser('config-map-summary', 'system', ['system:masters'])));
  } finally {
    await inProcess.close();
  }

  const emptySpace = await memoryPerEmptySpace();
  console.error(`manager memory: ${f(emptySpace.bytes)} bytes per empty space`);

  console.log('| convergence | time | per space | ratio to HTTPS |');
  console.log('|---|---|---|---|');
  console.log(`| HTTPS (baseline: server in its own process) | ${f(httpsMs)} ms | ${f(httpsMs / SPACES, 2)} ms | 1.00x |`);
  console.log(`| in-process transport (one event loop) | ${f(inProcessMs)} ms | ${f(inProcessMs / SPACES, 2)} ms | ${f(inProcessMs / httpsMs, 2)}x |`);
  console.log('');
  console.log(`| memory per cached ConfigMap (${f(memory.objects)} objects) | bytes | ratio to JSON size | ratio to a plain Map |`);
  console.log('|---|---|---|---|');
  console.log(`| JSON size (baseline) | ${f(memory.json)} | 1.00x | |`);
  console.log(`| plain Map of parsed objects (baseline) | ${f(memory.map)} | ${f(memory.map / memory.json, 2)}x | 1.00x |`);
  console.log(`| shared informer (indexer by tenant and namespace) | ${f(memory.informer)} | ${f(memory.informer / memory.json, 2)}x | ${f(memory.informer / memory.map, 2)}x |`);
  console.log('');
  console.log(`| controller manager per empty space (${f(SPACES)} spaces) | bytes | objects | ratio to their JSON size |`);
  console.log('|---|---|---|---|');
  console.log(`| JSON of what an empty space holds (baseline) | ${f(emptySpace.json)} | ${f(emptySpace.objects, 1)} | 1.00x |`);
  console.log(`| live heap the manager adds per space | ${f(emptySpace.bytes)} | | ${f(emptySpace.bytes / emptySpace.json, 2)}x |`);
}

await main();
