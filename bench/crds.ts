/**
 * CRD benchmark: what custom resources cost against built-in ConfigMaps, measured in the same run
 * through the built server (`dist/`), on the embedded store and, when an etcd binary is present,
 * on etcd:
 *   - the time from a CRD's create to its first custom resource accepted, against the time from a
 *     namespace's create to its first ConfigMap accepted (both: a definition, then an instance);
 *   - custom resource creates/s against ConfigMap creates/s (goal >= 0.8);
 *   - LIST of 10,000 custom resources against 10,000 ConfigMaps, as JSON;
 *   - memory per CRD: 1,000 spaces each install the same 5 CRDs; the server's live memory (heap
 *     and external, after a full collection: `heap-probe.ts`) growth over that, divided by the
 *     CRDs, against the growth from 5 same-sized ConfigMaps per space (what
 *     storing and caching an object that large costs). Identical CRDs share their compiled kind,
 *     so the cost per CRD is its stored object, not a schema per space; the same five CRDs under
 *     a group of each space's own (every one compiled apart) show what sharing saves.
 *
 *   npm run bench:crds              # full run
 *   BENCH_CRDS_SMALL=1 npm run bench:crds   # a tenth of every size, for development
 *
 * Every loop is bounded; servers and etcd are stopped at the end.
 */
import { Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import { kubeconfigToken } from '../e2e/harness/api-client.js';
import { findEtcdBinary, startEtcd, type EtcdProcess } from '../e2e/harness/etcd.js';
import { startServer, type ServerProcess } from '../e2e/harness/server.js';
import { heapProbe, type HeapProbe } from './heap-probe.js';
import { load, send, type Target } from './http-load.js';

const SCALE = process.env.BENCH_CRDS_SMALL ? 10 : 1;
const CREATES = 5_000 / SCALE;
const LIST_OBJECTS = 10_000 / SCALE;
const IN_FLIGHT = 64;
const LIST_RUNS = 3;
const FIRST_ACCEPTED_RUNS = 5;
const SPACES = 1_000 / SCALE;
const CRDS_PER_SPACE = 5;
const POLL_MS = 2;
const DEADLINE_MS = 10 * 60_000;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'bench.example.com';

/** The CronTab CRD of the Kubernetes documentation, with a printer column and a status subresource, under its own plural. */
function crd(plural: string, kind: string, shortNames: string[] = [], group = GROUP): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }, { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10 },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** The five CRDs each space installs in the memory measure: the same everywhere, or with a group of the space's own. */
const spaceCrds = (group: string) => ['crontabs', 'backups', 'databases', 'queues', 'gateways'].map((plural) => crd(plural, plural[0]!.toUpperCase() + plural.slice(1, -1), [plural.slice(0, 3)], group));
const SPACE_CRDS = spaceCrds(GROUP);

/** A custom resource and a ConfigMap of about the same size (~600 bytes of JSON). */
const customResource = (kind: string, name: string) =>
  JSON.stringify({ apiVersion: `${GROUP}/v1`, kind, metadata: { name, labels: { app: 'bench' } }, spec: { cronSpec: '* * * * */5', image: 'i'.repeat(480), replicas: 3 } });
const configMap = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { cronSpec: '* * * * */5', image: 'i'.repeat(480), replicas: '3' } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

class Client {
  private readonly agent: Agent;
  constructor(private readonly target: Target) {
    this.agent = new Agent({ ca: target.ca, keepAlive: true, maxSockets: IN_FLIGHT });
  }
  send(method: string, path: string, body?: unknown) {
    return send(this.agent, this.target, method, path, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  }
  async expect(method: string, path: string, status: number, body?: unknown): Promise<string> {
    const answer = await this.send(method, path, body);
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return answer.body;
  }
  close(): void {
    this.agent.destroy();
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
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

/** Milliseconds from POST of `definition` until POST of `instance` at `instancePath` answers 201. */
async function firstAccepted(client: Client, definitionPath: string, definition: unknown, instancePath: string, instance: string): Promise<number> {
  const start = performance.now();
  await client.expect('POST', definitionPath, 201, definition);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await client.send('POST', instancePath, instance);
    if (answer.status === 201) return performance.now() - start;
    if (Date.now() > deadline) throw new Error(`POST ${instancePath}: still ${answer.status} ${answer.body.slice(0, 200)}`);
    await sleep(POLL_MS);
  }
}

interface Figures {
  crdFirstMs: number;
  namespaceFirstMs: number;
  crCreates: number;
  cmCreates: number;
  crListMs: number;
  cmListMs: number;
  kibPerCrd: number;
  kibPerDistinctCrd: number;
  kibPerConfigMap: number;
}

async function measure(server: ServerProcess, probe: HeapProbe): Promise<Figures> {
  const target: Target = { url: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) };
  const client = new Client(target);
  try {
    const crdTimes: number[] = [];
    const nsTimes: number[] = [];
    for (let i = 0; i < FIRST_ACCEPTED_RUNS; i += 1) {
      const plural = `probes${i}`;
      crdTimes.push(await firstAccepted(client, CRDS, crd(plural, `Probe${i}`), `/apis/${GROUP}/v1/namespaces/default/${plural}`, customResource(`Probe${i}`, 'first')));
      const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `first-${i}` } };
      nsTimes.push(await firstAccepted(client, '/api/v1/namespaces', ns, `/api/v1/namespaces/first-${i}/configmaps`, configMap('first')));
    }

    // Creates: custom resources and ConfigMaps alternate in two halves, so neither gets a warmer server.
    await client.expect('POST', CRDS, 201, crd('crontabs', 'Crontab'));
    const crPath = `/apis/${GROUP}/v1/namespaces/default/crontabs`;
    const cmPath = '/api/v1/namespaces/default/configmaps';
    await until('crontabs served', async () => (await client.send('GET', crPath)).status === 200);
    const half = CREATES / 2;
    const rate = async (path: string, body: (name: string) => string, offset: number) => (await load(target, IN_FLIGHT, half, 201, (i) => ({ method: 'POST', path, body: body(`o-${offset + i}`) }))).perSecond;
    const cm1 = await rate(cmPath, configMap, 0);
    const cr1 = await rate(crPath, (n) => customResource('Crontab', n), 0);
    const cr2 = await rate(crPath, (n) => customResource('Crontab', n), half);
    const cm2 = await rate(cmPath, configMap, half);
    await load(target, IN_FLIGHT, LIST_OBJECTS - CREATES, 201, (i) => ({ method: 'POST', path: crPath, body: customResource('Crontab', `more-${i}`) }));
    await load(target, IN_FLIGHT, LIST_OBJECTS - CREATES, 201, (i) => ({ method: 'POST', path: cmPath, body: configMap(`more-${i}`) }));

    const timeList = async (path: string, expected: number): Promise<number> => {
      const runs: number[] = [];
      for (let i = 0; i < LIST_RUNS; i += 1) {
        const t0 = performance.now();
        const body = await client.expect('GET', path, 200);
        runs.push(performance.now() - t0);
        const items = (JSON.parse(body) as { items: unknown[] }).items.length;
        if (items < expected) throw new Error(`LIST ${path}: ${items} items`);
      }
      return median(runs);
    };
    const cmListMs = await timeList(cmPath, LIST_OBJECTS);
    const crListMs = await timeList(crPath, LIST_OBJECTS);

    // Memory: spaces first (each asked once for discovery, so its registry view exists), then 5
    // same-sized ConfigMaps per space as the baseline, then the 5 CRDs per space.
    const spaces = Array.from({ length: SPACES }, (_, i) => `crd-space-${i}`);
    await pooled(SPACES, (i) => client.expect('POST', '/api/v1/tenants', 201, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: spaces[i] } }).then(() => undefined));
    await until('every space Active', async () => {
      const list = JSON.parse(await client.expect('GET', '/api/v1/tenants?fieldSelector=status.phase%3DActive', 200)) as { items: Array<{ metadata: { name: string } }> };
      return list.items.filter((t) => t.metadata.name.startsWith('crd-space-')).length === SPACES;
    });
    await pooled(SPACES, (i) => client.expect('GET', `/tenants/${spaces[i]}/apis`, 200).then(() => undefined));
    const settle = async () => {
      await sleep(1000);
      return (await probe.liveBytes(server.pid)) / 1024;
    };
    const liveSpaces = await settle();
    const crdSize = JSON.stringify(SPACE_CRDS[0]).length;
    const sameSized = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { crd: 'x'.repeat(crdSize) } });
    await pooled(SPACES * CRDS_PER_SPACE, (i) => client.expect('POST', `/tenants/${spaces[i % SPACES]}/api/v1/namespaces/default/configmaps`, 201, sameSized(`crd-sized-${Math.floor(i / SPACES)}`)).then(() => undefined));
    const liveConfigMaps = await settle();
    const installAndWait = async (crdsOf: (space: number) => unknown[], group: (space: number) => string): Promise<number> => {
      await pooled(SPACES * CRDS_PER_SPACE, (i) => client.expect('POST', `/tenants/${spaces[i % SPACES]}${CRDS}`, 201, crdsOf(i % SPACES)[Math.floor(i / SPACES)]).then(() => undefined));
      // Served everywhere: each space's discovery lists the five kinds.
      let pending = spaces.map((_, i) => i);
      await until('every space serving its CRDs', async () => {
        const still: number[] = [];
        await pooled(pending.length, async (i) => {
          const space = pending[i]!;
          const answer = await client.send('GET', `/tenants/${spaces[space]}/apis/${group(space)}/v1`);
          if (answer.status !== 200 || (JSON.parse(answer.body) as { resources: unknown[] }).resources.length < CRDS_PER_SPACE) still.push(space);
        });
        pending = still;
        return pending.length === 0;
      });
      return settle();
    };
    const liveCrds = await installAndWait(() => SPACE_CRDS, () => GROUP);
    // The same five CRDs again, under a group of each space's own: every one compiled apart.
    const distinctGroups = spaces.map((_, i) => `s${i}.example.com`);
    const distinct = distinctGroups.map(spaceCrds);
    const liveDistinct = await installAndWait((space) => distinct[space]!, (space) => distinctGroups[space]!);
    const objects = SPACES * CRDS_PER_SPACE;
    return {
      crdFirstMs: median(crdTimes),
      namespaceFirstMs: median(nsTimes),
      crCreates: (cr1 + cr2) / 2,
      cmCreates: (cm1 + cm2) / 2,
      crListMs,
      cmListMs,
      kibPerCrd: (liveCrds - liveConfigMaps) / objects,
      kibPerDistinctCrd: (liveDistinct - liveCrds) / objects,
      kibPerConfigMap: (liveConfigMaps - liveSpaces) / objects,
    };
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const rows: Array<[string, Figures]> = [];
  for (const backend of findEtcdBinary() ? (['sqlite', 'etcd'] as const) : (['sqlite'] as const)) {
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
  const f = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(
    `\nCRD benchmark (creates: ${f(CREATES)} of each at ${IN_FLIGHT} in flight; LIST of ${f(LIST_OBJECTS)} of each, median of ${LIST_RUNS}; memory: ${f(SPACES)} spaces x the same ${CRDS_PER_SPACE} CRDs)\n`,
  );
  console.log('| backend | CRD create -> first CR accepted | namespace create -> first ConfigMap | CR creates/s | ConfigMap creates/s | ratio | LIST CRs | LIST ConfigMaps | ratio | live KiB per CRD | live KiB per same-sized ConfigMap | ratio | live KiB per distinct CRD |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [backend, r] of rows) {
    console.log(
      `| ${backend} | ${f(r.crdFirstMs, 1)} ms | ${f(r.namespaceFirstMs, 1)} ms | ${f(r.crCreates)} | ${f(r.cmCreates)} | ${f(r.crCreates / r.cmCreates, 2)}x | ${f(r.crListMs)} ms | ${f(r.cmListMs)} ms | ${f(r.crListMs / r.cmListMs, 2)}x | ${f(r.kibPerCrd, 1)} | ${f(r.kibPerConfigMap, 1)} | ${f(r.kibPerCrd / r.kibPerConfigMap, 2)}x | ${f(r.kibPerDistinctCrd, 1)} |`,
    );
  }
  console.log('\ngoals: CR creates >= 0.8x ConfigMap creates; memory per CRD grows with distinct schemas, not spaces (identical CRDs share one compiled kind)');
}

await main();
