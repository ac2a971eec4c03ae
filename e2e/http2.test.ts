/**
 * HTTP/2 on the TLS listener: ALPN picks h2 for clients that offer it (stock kubectl 1.33 among
 * them), one connection carries many requests and watches at once, HTTP/1.1 clients keep working
 * with their limits, `--disable-http2-serving` leaves HTTP/1.1 alone. Over h2: a watch-list
 * (sendInitialEvents) ends its initial state with the `k8s.io/initial-events-end` bookmark, and
 * watch options are refused in kube-apiserver's words.
 */
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigToken } from './harness/api-client.js';
import { startCluster, type TestCluster } from './harness/cluster.js';
import { connectHttp2, type Http2Client } from './harness/http2-client.js';
import { createKubectl, kubectlForTests } from './harness/kubectl.js';
import { startServer, type ServerProcess } from './harness/server.js';
import { configMaps, HttpsTransport, KubeClient, namespaces } from '../src/client/index.js';

const kubectlPath = kubectlForTests(['1.33']);

/** The protocol ALPN settles on when a client offers both. */
function negotiatedProtocol(server: Pick<ServerProcess, 'port' | 'caCert'>): Promise<string | false | null> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: server.port, ca: server.caCert, servername: 'localhost', ALPNProtocols: ['h2', 'http/1.1'] }, () => {
      resolve(socket.alpnProtocol);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

/** One HTTP/1.1 GET on a connection of its own, with extra headers. */
function http1Get(server: Pick<ServerProcess, 'url' | 'caCert'>, path: string, headers: Record<string, string>): Promise<{ status: number; version: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, server.url), { ca: server.caCert, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.httpVersion, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTP/2 serving', () => {
  let cluster: TestCluster;
  let token: string;
  let h2: Http2Client;
  let ns: string;

  beforeAll(async () => {
    cluster = await startCluster('sqlite');
    token = await kubeconfigToken(cluster.server.adminKubeconfig);
    ns = await cluster.newNamespace('h2');
    h2 = await connectHttp2(cluster.server.url, cluster.server.caCert, token);
  });

  afterAll(async () => {
    h2?.close();
    await cluster?.cleanup();
  });

  it('offers h2 by ALPN', async () => {
    expect(await negotiatedProtocol(cluster.server)).toBe('h2');
    expect(h2.alpnProtocol).toBe('h2');
  });

  it.skipIf(kubectlPath === undefined)('serves stock kubectl 1.33 over h2', async () => {
    const kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
    try {
      // Go's http2 debug log names each header the client encodes on an h2 connection.
      const result = await kubectl.run(['get', '--raw', '/version'], { version: '1.33', env: { GODEBUG: 'http2debug=1' } });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ major: '1', minor: '33' });
      expect(result.stderr).toMatch(/http2: Transport encoding header ":path" = "\/version"/);
    } finally {
      await kubectl.cleanup();
    }
  });

  it('multiplexes many GETs and a few watches over one connection', async () => {
    for (let i = 0; i < 5; i++) await cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `seed-${i}`, namespace: ns } });
    const watches = [0, 1, 2].map(() => h2.watch(`/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=0`));
    const gets = await Promise.all(Array.from({ length: 200 }, (_, i) => h2.get(i % 2 === 0 ? `/api/v1/namespaces/${ns}/configmaps` : `/api/v1/namespaces/${ns}/configmaps/seed-${i % 5}`)));
    expect(gets.map((r) => r.status)).toEqual(gets.map(() => 200));
    expect(await Promise.all(watches.map((w) => w.status))).toEqual([200, 200, 200]);
    const created = await h2.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } });
    expect(created.status, created.body).toBe(201);
    for (const w of watches) await w.until((events) => events.some((e) => e.type === 'ADDED' && e.object.metadata?.name === 'late'));
    for (const w of watches) w.close();
    // Every stream of this test ran on the one session the client opened.
    expect(h2.session.closed).toBe(false);
  });

  it('cuts a watcher that stops reading once 16 MiB wait for it, while the other streams go on', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps?watch=1&labelSelector=bulk%3Dyes`;
    const slow = h2.watch(path);
    const fast = h2.watch(path);
    expect(await Promise.all([slow.status, fast.status])).toEqual([200, 200]);
    slow.pause();
    // 20 ConfigMaps of 900 KiB: more than the 16 MiB a watcher may leave unread.
    const bulk = 20;
    for (let i = 0; i < bulk; i++) {
      await cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bulk-${i}`, namespace: ns, labels: { bulk: 'yes' } }, data: { v: 'x'.repeat(900 * 1024) } });
    }
    await fast.until((events) => events.filter((e) => e.type === 'ADDED').length === bulk, 90_000);
    // The server reset the slow stream: once the client reads what it had buffered, the stream
    // closes, short of the events the fast one got (a watch left alone never ends by itself).
    slow.resume();
    await slow.closed;
    expect(slow.events.filter((e) => e.type === 'ADDED').length).toBeLessThan(bulk);
    expect((await h2.get('/version')).status).toBe(200);
    fast.close();
    // 18 MiB written, then decoded and encoded for two watchers, on a shared machine.
  }, 180_000);

  it('sends no HTTP/1-only headers over h2', async () => {
    const res = await h2.get('/version');
    expect(res.status).toBe(200);
    expect(res.headers['connection']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });

  it('streams a watch-list: the current state as ADDED, then the initial-events-end bookmark', async () => {
    const list = await h2.get(`/api/v1/namespaces/${ns}/configmaps`);
    const names = (JSON.parse(list.body) as { items: Array<{ metadata: { name: string } }> }).items.map((i) => i.metadata.name).sort();
    const watch = h2.watch(`/api/v1/namespaces/${ns}/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect(await watch.status).toBe(200);
    await watch.until((events) => events.some((e) => e.type === 'BOOKMARK'));
    const bookmarkAt = watch.events.findIndex((e) => e.type === 'BOOKMARK');
    const initial = watch.events.slice(0, bookmarkAt);
    expect(initial.every((e) => e.type === 'ADDED')).toBe(true);
    expect(initial.map((e) => e.object.metadata?.name).sort()).toEqual(names);
    expect(watch.events[bookmarkAt]!.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    watch.close();
  });

  it.each([
    ['sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
    ['sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=abc', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
  ])('refuses a watch with %s as kube-apiserver does (422)', async (query, message) => {
    const res = await h2.get(`/api/v1/namespaces/${ns}/configmaps?watch=1&${query}`);
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'Invalid', message: `ListOptions.meta.k8s.io "" is invalid: ${message}`, details: { group: 'meta.k8s.io', kind: 'ListOptions' } });
  });

  it('refuses Exact at resourceVersion 0 on a list (422)', async () => {
    const res = await h2.get(`/api/v1/namespaces/${ns}/configmaps?resourceVersion=0&resourceVersionMatch=Exact`);
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({ message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"' });
  });

  it("carries the tenant-aware client's requests and watches as streams of one h2 connection", async () => {
    const transport = new HttpsTransport({ server: cluster.server.url, ca: cluster.server.caCert, token });
    const client = new KubeClient(transport, { kind: 'space', tenant: 'system' });
    const cms = client.namespace(ns).resource(configMaps);
    const watch = cms.watch({ labelSelector: 'via=client' });
    try {
      expect((await watch.next()).value).toMatchObject({ type: 'RELISTED', objects: [] });
      expect(await transport.protocol).toBe('h2');
      await Promise.all(Array.from({ length: 20 }, (_, i) => cms.create({ metadata: { name: `client-${i}`, labels: { via: 'client' } } })));
      const added = new Set<string>();
      while (added.size < 20) {
        const { value } = await watch.next();
        if (value?.type === 'ADDED') added.add(value.object.metadata.name!);
      }
      expect((await cms.list({ labelSelector: 'via=client' })).items).toHaveLength(20);
    } finally {
      await watch.return(undefined);
      client.close();
    }
  });

  it('still serves HTTP/1.1 clients, with their header limit', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const plain = await http1Get(cluster.server, '/version', auth);
    expect(plain).toMatchObject({ status: 200, version: '1.1' });
    // Above Node's 16 KiB default and within kube-apiserver's 1 MiB: the HTTP/1.1 limit is ours.
    expect((await http1Get(cluster.server, '/version', { ...auth, 'x-padding': 'a'.repeat(100_000) })).status).toBe(200);
    expect((await http1Get(cluster.server, '/version', { ...auth, 'x-padding': 'a'.repeat(1_100_000) })).status).toBe(431);
  });
});

describe('--disable-http2-serving', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ extraArgs: ['--disable-http2-serving', '--controllers=false'] });
  });

  afterAll(async () => {
    await server?.cleanup();
  });

  it('leaves HTTP/1.1 alone', async () => {
    expect(await negotiatedProtocol(server)).toBe('http/1.1');
    const token = await kubeconfigToken(server.adminKubeconfig);
    expect(await http1Get(server, '/version', { authorization: `Bearer ${token}` })).toMatchObject({ status: 200, version: '1.1' });
  });

  it('lets the tenant-aware client fall back to HTTP/1.1', async () => {
    const transport = new HttpsTransport({ server: server.url, ca: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) });
    const client = new KubeClient(transport, { kind: 'space', tenant: 'system' });
    try {
      expect((await client.resource(namespaces).get('default')).metadata.name).toBe('default');
      expect(await transport.protocol).toBe('http/1.1');
    } finally {
      client.close();
    }
  });
});
