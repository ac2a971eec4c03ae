/**
 * Hostile and odd traffic over raw TLS sockets, where an HTTP client would have cleaned it up:
 * paths with `..`, encoded slashes and odd bytes, broken framing, oversized headers, HEAD
 * errors, slow clients. Every answer is a Status (none with a body on HEAD), every bad path is
 * refused before storage, slow clients are dropped, and normal large uploads and long watches
 * keep working. One server per backend; the slow cases run concurrently so the file waits the
 * server's timeouts once.
 */
import { connect, type TLSSocket } from 'node:tls';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_IDLE_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_HEADER_BYTES } from '../src/server/connections.js';
import { kubeconfigToken } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';

/** Far above every server timeout: a connection still open then was not dropped. */
const DROP_BOUND_MS = 30_000;

interface RawAnswer {
  /** Everything the server sent before it closed the connection (or before the bound). */
  text: string;
  /** Whether the server closed the connection before DROP_BOUND_MS. */
  closed: boolean;
}

interface ParsedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes on a fresh TLS connection and collects what comes back until the server closes it. */
function rawExchange(cluster: TestCluster, bytes: string | Buffer, onConnect?: (socket: TLSSocket) => void): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: cluster.server.port, ca: cluster.server.caCert }, () => {
      if (bytes.length > 0) socket.write(bytes);
      onConnect?.(socket);
    });
    const chunks: Buffer[] = [];
    const bound = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed: false });
    }, DROP_BOUND_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that destroys the connection may reset it; that is a close too.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(bound);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closed: true });
    });
    socket.on('timeout', () => reject(new Error('unexpected socket timeout')));
  });
}

function parse(text: string): ParsedAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** One request as raw bytes, its path exactly as given (no client resolves `..` or `%2e`). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body = ''): string {
  const all = { host: '127.0.0.1', connection: 'close', ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${body}`;
}

interface PathRow {
  method: string;
  path: string;
  status: number;
  message: string;
}

const cm = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

const pathRows = (ns: string): PathRow[] => [
  { method: 'GET', path: '/api/v1/namespaces/%2e%2e/configmaps', status: 404, message: 'namespaces ".." not found' },
  { method: 'GET', path: '/api/v1/namespaces/../configmaps', status: 404, message: 'namespaces ".." not found' },
  { method: 'POST', path: '/api/v1/namespaces/%2E%2E/configmaps', status: 404, message: 'namespaces ".." not found' },
  { method: 'GET', path: '/api/v1/namespaces//configmaps', status: 404, message: 'namespaces "" not found' },
  { method: 'GET', path: '/api/v1/watch/namespaces/a%2Fb/configmaps', status: 404, message: 'namespaces "a/b" not found' },
  { method: 'GET', path: '/api/v1/tenants/t1%2F..%2Ft2/namespaces/default/configmaps', status: 404, message: 'tenants "t1/../t2" not found' },
  { method: 'GET', path: '/api/v1/tenants/../pods', status: 404, message: 'tenants ".." not found' },
  { method: 'GET', path: '/tenants/%2e%2e/api/v1/namespaces', status: 404, message: 'tenants ".." not found' },
  { method: 'GET', path: '/tenants/./api/v1/namespaces/default/configmaps', status: 404, message: 'tenants "." not found' },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/..`, status: 400, message: `Name parameter invalid: "..": may not be '..'` },
  { method: 'PUT', path: `/api/v1/namespaces/${ns}/configmaps/%2e`, status: 400, message: `Name parameter invalid: ".": may not be '.'` },
  { method: 'DELETE', path: `/api/v1/namespaces/${ns}/configmaps/a%2Fb`, status: 400, message: `Name parameter invalid: "a/b": may not contain '/'` },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/a%25b`, status: 400, message: `Name parameter invalid: "a%b": may not contain '%'` },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/pods/%00/log`, status: 400, message: 'Name parameter invalid: "\\u0000": may not contain control characters' },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/caf%C3%A9`, status: 400, message: 'Name parameter invalid: "café": may not contain non-ASCII characters' },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/${'a'.repeat(300)}`, status: 400, message: 'must be no more than 253 characters' },
  { method: 'GET', path: `/api/v1/namespaces/${ns}/pods//log`, status: 400, message: 'Name parameter required.' },
  { method: 'GET', path: '/api/v1/namespaces/..', status: 400, message: `Name parameter invalid: "..": may not be '..'` },
  { method: 'PUT', path: '/api/v1/namespaces/%2e%2e/finalize', status: 400, message: `Name parameter invalid: "..": may not be '..'` },
  { method: 'GET', path: '/api/v1/tenants/..', status: 400, message: `Name parameter invalid: "..": may not be '..'` },
];

describe.each(backendCases())('hostile protocol on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let token: string;
    let ns: string;
    const auth = (): Record<string, string> => ({ authorization: `Bearer ${token}` });

    beforeAll(async () => {
      cluster = await startCluster(backend);
      token = await kubeconfigToken(cluster.server.adminKubeconfig);
      ns = await cluster.newNamespace('hostile');
    }, 120_000);
    afterAll(() => cluster?.cleanup());

    it('refuses every path segment that could name nothing stored with the Status kube-apiserver gives, before storage', async () => {
      for (const row of pathRows(ns)) {
        const body = row.method === 'POST' || row.method === 'PUT' ? cm('x') : '';
        const answer = parse((await rawExchange(cluster, rawRequest(row.method, row.path, { ...auth(), 'content-type': 'application/json' }, body))).text);
        expect({ row: `${row.method} ${row.path}`, status: answer.status }).toEqual({ row: `${row.method} ${row.path}`, status: row.status });
        const status = JSON.parse(answer.body) as Record<string, unknown>;
        expect(status).toMatchObject({ kind: 'Status', code: row.status, reason: row.status === 404 ? 'NotFound' : 'BadRequest' });
        expect(status.message).toContain(row.message);
      }
      // The storage-key guard is the last line and never answered any of them.
      expect(cluster.server.output()).not.toContain('in a storage key');
    });

    it('answers bad credentials on the open paths 401, no credentials 200', async () => {
      for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
        const bad = parse((await rawExchange(cluster, rawRequest('GET', path, { authorization: 'Bearer not-a-token' }))).text);
        expect({ path, status: bad.status }).toEqual({ path, status: 401 });
        expect(JSON.parse(bad.body)).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
        const none = parse((await rawExchange(cluster, rawRequest('GET', path, {}))).text);
        expect({ path, status: none.status }).toEqual({ path, status: 200 });
      }
    });

    it.each([
      ['a request line that is no HTTP', 'GARBAGE\r\n\r\n', 400],
      ['raw non-ASCII bytes in the URL', Buffer.concat([Buffer.from('GET /api/v1/namespaces/caf'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]), 400],
      ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nbroken\r\n\r\n', 400],
      ['headers over 1 MiB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}\r\n\r\n`, 431],
    ])('answers %s with a JSON Status and closes', async (_what, bytes, code) => {
      const raw = await rawExchange(cluster, bytes);
      expect(raw.closed).toBe(true);
      const answer = parse(raw.text);
      expect(answer.status).toBe(code);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
    });

    it('answers HEAD errors without a body, the protocol ones too', async () => {
      const tooLarge = await rawExchange(cluster, `HEAD /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}\r\n\r\n`);
      expect(parse(tooLarge.text)).toMatchObject({ status: 431, body: '' });
      const nonAscii = await rawExchange(cluster, Buffer.concat([Buffer.from('HEAD /caf'), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
      expect(parse(nonAscii.text)).toMatchObject({ status: 400, body: '' });
      const unauthorized = parse((await rawExchange(cluster, rawRequest('HEAD', `/api/v1/namespaces/${ns}/configmaps`, {}))).text);
      expect(unauthorized).toMatchObject({ status: 401, body: '' });
      const notFound = parse((await rawExchange(cluster, rawRequest('HEAD', `/api/v1/namespaces/${ns}/configmaps/ghost`, auth()))).text);
      expect(notFound).toMatchObject({ status: 404, body: '' });
      const badName = parse((await rawExchange(cluster, rawRequest('HEAD', `/api/v1/namespaces/${ns}/configmaps/..`, auth()))).text);
      expect(badName).toMatchObject({ status: 400, body: '' });
    });

    it('serves watches to GET only: other methods on /watch/ and a HEAD watch are 405, answered at once', async () => {
      for (const [method, path] of [
        ['PUT', `/api/v1/watch/namespaces/${ns}/configmaps`],
        ['POST', `/api/v1/watch/namespaces/${ns}/configmaps`],
        ['DELETE', `/api/v1/watch/namespaces/${ns}/configmaps/x`],
        ['HEAD', `/api/v1/namespaces/${ns}/configmaps?watch=true`],
      ] as const) {
        const raw = await rawExchange(cluster, rawRequest(method, path, { ...auth(), 'content-type': 'application/json' }, method === 'HEAD' || method === 'DELETE' ? '' : '{}'));
        expect(raw.closed).toBe(true);
        const answer = parse(raw.text);
        expect({ method, status: answer.status }).toEqual({ method, status: 405 });
        if (method === 'HEAD') expect(answer.body).toBe('');
        else expect(JSON.parse(answer.body)).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
      }
    });

    it('serves headers up to 1 MiB, such as long selectors (Node alone refuses 16 KiB)', async () => {
      const selector = Array.from({ length: 4000 }, (_, i) => `key-${i}=value-${i}`).join(',');
      expect(selector.length).toBeGreaterThan(64 * 1024);
      const answer = parse((await rawExchange(cluster, rawRequest('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(selector)}`, auth()))).text);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ kind: 'ConfigMapList', items: [] });
    });

    describe.concurrent('slow clients', () => {
      it('drops a connection that never finishes its headers (slowloris)', async () => {
        const raw = await rawExchange(cluster, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
        expect(raw.closed).toBe(true);
        expect(parse(raw.text).status).toBe(408);
        expect(JSON.parse(parse(raw.text).body)).toMatchObject({ kind: 'Status', code: 408 });
      });

      it('drops a connection that sends headers a byte at a time, never ending them', async () => {
        let timer: NodeJS.Timeout | undefined;
        const raw = await rawExchange(cluster, 'GET /healthz HTTP/1.1\r\n', (socket) => {
          // A byte every second: never idle, never done.
          timer = setInterval(() => socket.writable && socket.write('X'), 1_000);
        });
        clearInterval(timer);
        expect(raw.closed).toBe(true);
      });

      it('drops a connection that sends nothing at all', async () => {
        expect((await rawExchange(cluster, '')).closed).toBe(true);
      });

      it('drops a request that announces more Content-Length than it sends', async () => {
        const head = `POST /api/v1/namespaces/${ns}/configmaps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
        const raw = await rawExchange(cluster, `${head}{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"never-sent"}`);
        expect(raw.closed).toBe(true);
        expect(await cluster.read(`/api/v1/namespaces/${ns}/configmaps/never-sent`)).toBeNull();
      });

      it('closes a connection answered before its body arrived (refused by authentication)', async () => {
        const head = `POST /api/v1/namespaces/${ns}/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
        const raw = await rawExchange(cluster, `${head}{"apiVersion":"v1",`);
        expect(raw.closed).toBe(true);
        expect(parse(raw.text).status).toBe(401);
      });

      it('keeps streaming a watch held open longer than the header and body timeouts', async () => {
        const watchNs = await cluster.newNamespace('held-watch');
        const heldMs = Math.max(HEADERS_TIMEOUT_MS, BODY_IDLE_TIMEOUT_MS) + 3_000;
        const events: string[] = [];
        const url = new URL(`/api/v1/namespaces/${watchNs}/configmaps?watch=true`, cluster.server.url);
        const req = httpsRequest(url, { ca: cluster.server.caCert, headers: auth() }, (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => events.push(chunk));
        });
        req.end();
        await new Promise((resolve) => setTimeout(resolve, heldMs));
        await cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-the-wait', namespace: watchNs } });
        for (let i = 0; i < 100 && !events.join('').includes('after-the-wait'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
        req.destroy();
        expect(events.join('')).toContain('"type":"ADDED"');
        expect(events.join('')).toContain('after-the-wait');
      });

      it('accepts a 2.5 MiB upload over a normal connection', async () => {
        // A Deployment: no per-kind size limit (a ConfigMap's 1 MiB would refuse it), so it is stored.
        const args = Array.from({ length: 2.5 * 1024 }, () => 'x'.repeat(1023));
        const deployment = {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'big' },
          spec: { selector: { matchLabels: { app: 'big' } }, template: { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'c', image: 'busybox', args }] } } },
        };
        expect(JSON.stringify(deployment).length).toBeGreaterThan(2.5 * 1024 * 1024);
        const res = await cluster.api.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, { json: deployment });
        expect(res.status).toBe(201);
      });
    });
  });
});
