/**
 * Metrics benchmark: `/metrics` must not grow with spaces. Against the built server on the
 * embedded store, the same request mix (creates, GETs, 404s, LISTs, short watches, a CRD with its
 * own group and custom resources) runs in 10 spaces and then in 1,000; after each, one scrape
 * counts the series (sample lines) and times the scrape. kcp's metrics pass 160k series at 3k
 * workspaces; here the count at 1,000 spaces must stay within the printed bound of the count at 10.
 *
 *   npm run bench:metrics
 *
 * Every loop is bounded; the server is stopped at the end.
 */
import { performance } from 'node:perf_hooks';
import { apiClientFor, type ApiClient } from '../e2e/harness/api-client.js';
import { startServer, type ServerProcess } from '../e2e/harness/server.js';

const FEW_SPACES = 10;
const MANY_SPACES = 1000;
const IN_FLIGHT = 32;
const POLL_MS = 50;
const DEADLINE_MS = 5 * 60_000;
/** The bound the series count at 1,000 spaces is held to: this many times the count at 10, at most. */
const SERIES_BOUND = 1.25;

async function pooled(from: number, to: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < to) await task(next++);
    }),
  );
}

async function expectStatus(api: ApiClient, method: 'GET' | 'POST', path: string, status: number, json?: unknown): Promise<void> {
  const res = await api.request(method, path, json === undefined ? {} : { json });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} (expected ${status}) ${res.body.slice(0, 300)}`);
}

async function createSpaces(api: ApiClient, from: number, to: number): Promise<void> {
  await pooled(from, to, (i) => expectStatus(api, 'POST', '/api/v1/tenants', 201, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: `m-${i}` } }));
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const res = await api.request('GET', '/api/v1/tenants?fieldSelector=status.phase%3DActive');
    const active = res.json<{ items: Array<{ metadata: { name: string } }> }>().items.filter((t) => /^m-\d+$/.test(t.metadata.name)).length;
    if (active >= to) return;
    if (Date.now() > deadline) throw new Error(`only ${active} of ${to} spaces Active`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** A CRD of a group of the space's own: the kind of label value that would blow cardinality up if it reached a series. */
const crd = (i: number) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.space${i}.example.com` },
  spec: {
    group: `space${i}.example.com`,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

/** The request mix of one space. Every tenth space also installs a CRD and writes a custom resource. */
async function exercise(api: ApiClient, i: number): Promise<void> {
  const space = `/api/v1/tenants/m-${i}`;
  const cms = `${space}/namespaces/default/configmaps`;
  for (let j = 0; j < 3; j += 1) await expectStatus(api, 'POST', cms, 201, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${j}` }, data: { a: 'b' } });
  await expectStatus(api, 'GET', `${cms}/cm-0`, 200);
  await expectStatus(api, 'GET', `${cms}/missing`, 404);
  await expectStatus(api, 'GET', cms, 200);
  await expectStatus(api, 'GET', `${cms}?watch=true&timeoutSeconds=1&resourceVersion=0`, 200);
  if (i % 10 !== 0) return;
  await expectStatus(api, 'POST', `/apis/apiextensions.k8s.io/v1/tenants/m-${i}/customresourcedefinitions`, 201, crd(i));
  const widgets = `/apis/space${i}.example.com/v1/tenants/m-${i}/namespaces/default/widgets`;
  const deadline = Date.now() + 30_000;
  while ((await api.request('GET', widgets)).status !== 200) {
    if (Date.now() > deadline) throw new Error(`the CRD of space m-${i} was never served`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  await expectStatus(api, 'POST', widgets, 201, { apiVersion: `space${i}.example.com/v1`, kind: 'Widget', metadata: { name: 'w' } });
}

interface Scrape {
  series: number;
  kib: number;
  ms: number;
}

async function scrape(api: ApiClient): Promise<Scrape> {
  const start = performance.now();
  const res = await api.request('GET', '/metrics');
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
  const series = res.body.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
  return { series, kib: Buffer.byteLength(res.body) / 1024, ms };
}

async function measure(server: ServerProcess): Promise<{ few: Scrape; many: Scrape }> {
  const api = await apiClientFor(server);
  try {
    await createSpaces(api, 0, FEW_SPACES);
    await pooled(0, FEW_SPACES, (i) => exercise(api, i));
    const few = await scrape(api);
    await createSpaces(api, FEW_SPACES, MANY_SPACES);
    await pooled(FEW_SPACES, MANY_SPACES, (i) => exercise(api, i));
    const many = await scrape(api);
    return { few, many };
  } finally {
    api.close();
  }
}

async function main(): Promise<void> {
  let server: ServerProcess | undefined;
  let figures: { few: Scrape; many: Scrape };
  try {
    server = await startServer({});
    figures = await measure(server);
  } finally {
    await server?.cleanup();
  }
  const { few, many } = figures;
  const f = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const ratio = many.series / few.series;
  console.log(`\nmetrics benchmark (embedded store; per space: 3 creates, a GET, a 404, a LIST, a 1 s watch; every tenth space a CRD of its own group and a custom resource)\n`);
  console.log('| spaces | series | /metrics size | scrape time |');
  console.log('|---|---|---|---|');
  console.log(`| ${f(FEW_SPACES)} | ${f(few.series)} | ${f(few.kib)} KiB | ${f(few.ms)} ms |`);
  console.log(`| ${f(MANY_SPACES)} | ${f(many.series)} | ${f(many.kib)} KiB | ${f(many.ms)} ms |`);
  console.log(`\nseries at ${f(MANY_SPACES)} spaces: ${f(ratio, 2)}x the count at ${f(FEW_SPACES)} (bound: <= ${SERIES_BOUND}x; kcp: 160k series at 3k workspaces) — ${ratio <= SERIES_BOUND ? 'within' : 'OVER'} the bound`);
  if (ratio > SERIES_BOUND) process.exitCode = 1;
}

await main();
