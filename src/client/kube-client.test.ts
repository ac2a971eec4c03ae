import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, configMaps, isGone, isNotFound, KubeClient, keyOf, keyString, loadKubeconfig, type KubeObject, type Transport, type TransportRequest, type WatchEvent } from './index.js';
import { splitServer } from './kubeconfig.js';

/** Answers requests from a script of (method path) → status and body; records what was sent. */
class ScriptedTransport implements Transport {
  readonly sent: TransportRequest[] = [];
  constructor(private readonly answer: (req: TransportRequest) => { status: number; body: string | string[] }) {}
  async send(req: TransportRequest) {
    this.sent.push(req);
    const { status, body } = this.answer(req);
    const stream = Readable.from((Array.isArray(body) ? body : [body]).map((chunk) => Buffer.from(chunk)));
    return { status, headers: {}, body: stream, close: () => stream.destroy() };
  }
  close(): void {}
}

const cm = (tenant: string, namespace: string, name: string, resourceVersion: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { tenant, namespace, name, resourceVersion },
  data,
});
const list = (resourceVersion: string, items: KubeObject[], next?: string) => JSON.stringify({ kind: 'ConfigMapList', metadata: { resourceVersion, ...(next ? { continue: next } : {}) }, items });
const line = (type: string, object: unknown) => `${JSON.stringify({ type, object })}\n`;

describe('the client keeps spaces apart', () => {
  it('keys two same-named objects of different spaces apart, each with its tenant', async () => {
    const transport = new ScriptedTransport(() => ({ status: 200, body: list('7', [cm('t1', 'default', 'dup', '5', { from: 't1' }), cm('t2', 'default', 'dup', '6', { from: 't2' })]) }));
    const client = new KubeClient(transport);
    const byKey = new Map<string, KubeObject>();
    for await (const obj of client.allSpaces().namespace('default').resource(configMaps).iterate()) byKey.set(keyString(keyOf(obj)), obj);
    expect([...byKey.keys()]).toEqual(['t1/default/dup', 't2/default/dup']);
    expect(byKey.get('t2/default/dup')?.data).toEqual({ from: 't2' });
    expect(transport.sent[0]!.path).toBe('/api/v1/tenants/all/namespaces/default/configmaps?limit=500');
  });

  it('writes an object read across every space back to its own space', async () => {
    const transport = new ScriptedTransport((req) => ({ status: 200, body: req.body!.toString() }));
    const all = new KubeClient(transport).allSpaces().resource(configMaps);
    await all.update(cm('t2', 'default', 'dup', '6'));
    await all.updateStatus(cm('t1', 'ns1', 'dup', '5'));
    expect(transport.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /api/v1/tenants/t2/namespaces/default/configmaps/dup', 'PUT /api/v1/tenants/t1/namespaces/ns1/configmaps/dup/status']);
    await expect(all.update({ metadata: { name: 'x' } })).rejects.toThrow(/metadata.tenant/);
  });

  it('addresses the own space by the short form, one space by the full form', async () => {
    const transport = new ScriptedTransport(() => ({ status: 200, body: '{"metadata":{}}' }));
    const client = new KubeClient(transport);
    await client.namespace('ns1').resource(configMaps).get('a');
    await client.space('t1').resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' }).get('r');
    await client.space('t1').namespace('ns1').resource(configMaps).patch('a', 'apply', { metadata: { name: 'a' } }, { fieldManager: 'me', force: true });
    expect(transport.sent.map((r) => `${r.method} ${r.path} ${r.headers['content-type'] ?? ''}`.trim())).toEqual([
      'GET /api/v1/namespaces/ns1/configmaps/a',
      'GET /apis/rbac.authorization.k8s.io/v1/tenants/t1/clusterroles/r',
      'PATCH /api/v1/tenants/t1/namespaces/ns1/configmaps/a?fieldManager=me&force=true application/apply-patch+yaml',
    ]);
    expect(() => client.space('all')).toThrow(/allSpaces/);
  });
});

describe('errors', () => {
  it('turns a Status into a typed ApiError', async () => {
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "a" not found', reason: 'NotFound', details: { name: 'a', kind: 'configmaps' }, code: 404 };
    const client = new KubeClient(new ScriptedTransport(() => ({ status: 404, body: JSON.stringify(status) })));
    const err = await client.namespace('ns').resource(configMaps).get('a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(isNotFound(err)).toBe(true);
    expect(err).toMatchObject({ code: 404, message: 'configmaps "a" not found', details: { name: 'a' } });
  });

  it('gives a reason to an answer without a Status', async () => {
    const client = new KubeClient(new ScriptedTransport(() => ({ status: 410, body: 'gone' })));
    expect(isGone(await client.resource(configMaps).list().catch((e: unknown) => e))).toBe(true);
  });
});

describe('paging', () => {
  const expired = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'The provided continue parameter is too old' });
  /** Page 1 of two at revision 10; the continue token then expires; the whole list is at revision 12. */
  const pagingTransport = () =>
    new ScriptedTransport((req) => {
      const query = new URL(req.path, 'https://x').searchParams;
      if (query.has('continue')) return { status: 410, body: expired };
      if (query.has('limit')) return { status: 200, body: list('10', [cm('t1', 'n', 'a', '9')], 'token-1') };
      return { status: 200, body: list('12', [cm('t1', 'n', 'a', '9'), cm('t1', 'n', 'b', '11'), cm('t1', 'n', 'c', '12')]) };
    });

  it('lists again whole, without a limit, when a later page\'s continue token has expired (client-go ListPager)', async () => {
    const transport = pagingTransport();
    const cms = new KubeClient(transport).space('t1').resource(configMaps);
    const { items, resourceVersion } = await cms.listAll({ pageSize: 1, labelSelector: 'app=x' });
    expect(items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(resourceVersion).toBe('12');
    expect(transport.sent.map((r) => r.path)).toEqual([
      '/api/v1/tenants/t1/configmaps?labelSelector=app%3Dx&limit=1',
      '/api/v1/tenants/t1/configmaps?labelSelector=app%3Dx&limit=1&continue=token-1',
      '/api/v1/tenants/t1/configmaps?labelSelector=app%3Dx',
    ]);
  });

  it('throws a 410 of the first page, and a 410 to pages() (pages handed out cannot be taken back)', async () => {
    const first = new KubeClient(new ScriptedTransport(() => ({ status: 410, body: expired }))).resource(configMaps);
    expect(isGone(await first.listAll().catch((e: unknown) => e))).toBe(true);
    const names: string[] = [];
    const paged = new KubeClient(pagingTransport()).resource(configMaps);
    const err = await (async () => {
      for await (const obj of paged.iterate({ pageSize: 1 })) names.push(obj.metadata.name!);
    })().catch((e: unknown) => e);
    expect(isGone(err)).toBe(true);
    expect(names).toEqual(['a']);
  });
});

describe('watch', () => {
  it('lists first, resumes from the last resourceVersion, relists on 410', async () => {
    let watches = 0;
    const transport = new ScriptedTransport((req) => {
      if (!req.path.includes('watch=true')) return { status: 200, body: watches === 0 ? list('10', [cm('t1', 'n', 'a', '9')]) : list('30', [cm('t1', 'n', 'b', '29')]) };
      watches += 1;
      if (watches === 1) return { status: 200, body: [line('ADDED', cm('t1', 'n', 'c', '11')), line('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '15' } })] };
      if (watches === 2) return { status: 200, body: [line('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 15 (20)' })] };
      return { status: 200, body: [line('DELETED', cm('t1', 'n', 'b', '31'))] };
    });
    const events: WatchEvent<KubeObject>[] = [];
    for await (const event of new KubeClient(transport).allSpaces().resource(configMaps).watch()) {
      events.push(event);
      if (event.type === 'DELETED') break;
    }
    expect(events.map((e) => (e.type === 'RELISTED' ? `RELISTED@${e.resourceVersion}` : e.type === 'BOOKMARK' ? `BOOKMARK@${e.resourceVersion}` : `${e.type} ${e.object.metadata.name}`))).toEqual([
      'RELISTED@10',
      'ADDED c',
      'BOOKMARK@15',
      'RELISTED@30',
      'DELETED b',
    ]);
    const watchPaths = transport.sent.filter((r) => r.path.includes('watch=true')).map((r) => new URL(r.path, 'https://x').searchParams.get('resourceVersion'));
    expect(watchPaths).toEqual(['10', '15', '30']);
  });
});

describe('watch across connection failures', () => {
  it('retries a refused connection, and a stream that ended empty, from the same resourceVersion', async () => {
    let watches = 0;
    const transport = new ScriptedTransport((req) => {
      if (!req.path.includes('watch=true')) return { status: 200, body: list('5', []) };
      watches += 1;
      if (watches === 1) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
      if (watches === 2) return { status: 200, body: [] };
      return { status: 200, body: [line('ADDED', cm('t1', 'n', 'x', '6'))] };
    });
    const seen: string[] = [];
    for await (const event of new KubeClient(transport).resource(configMaps).watch()) {
      seen.push(event.type);
      if (event.type === 'ADDED') break;
    }
    expect(seen).toEqual(['RELISTED', 'ADDED']);
    expect(transport.sent.filter((r) => r.path.includes('watch=true')).map((r) => new URL(r.path, 'https://x').searchParams.get('resourceVersion'))).toEqual(['5', '5', '5']);
  });

  it('ends quietly when its signal aborts', async () => {
    const stop = new AbortController();
    const transport = new ScriptedTransport((req) => {
      if (!req.path.includes('watch=true')) return { status: 200, body: list('5', []) };
      stop.abort();
      throw Object.assign(new Error('aborted'), { code: 'ABORT_ERR' });
    });
    const seen: string[] = [];
    for await (const event of new KubeClient(transport).resource(configMaps).watch({ signal: stop.signal })) seen.push(event.type);
    expect(seen).toEqual(['RELISTED']);
  });
});

describe('kubeconfig', () => {
  const dir = mkdtemp(join(tmpdir(), 'kubeconfig-'));
  afterAll(async () => rm(await dir, { recursive: true }));

  it('reads the space from the server URL', () => {
    expect(splitServer('https://h:6443')).toEqual({ base: 'https://h:6443', space: { kind: 'own' } });
    expect(splitServer('https://h:6443/tenants/t1')).toEqual({ base: 'https://h:6443', space: { kind: 'space', tenant: 't1' } });
    expect(splitServer('https://h:6443/proxy/tenants/all/')).toEqual({ base: 'https://h:6443/proxy', space: { kind: 'all' } });
  });

  it('reads a named context, CA and client certificate files relative to the kubeconfig, token files', async () => {
    const d = await dir;
    await writeFile(join(d, 'ca.crt'), 'CA');
    await writeFile(join(d, 'token'), 'secret\n');
    const text = [
      'apiVersion: v1',
      'kind: Config',
      'current-context: a',
      'clusters:',
      '- {name: one, cluster: {server: "https://h:1/tenants/t9", certificate-authority: ca.crt}}',
      '- {name: two, cluster: {server: "https://h:2", insecure-skip-tls-verify: true}}',
      'users:',
      `- {name: cert, user: {client-certificate-data: ${Buffer.from('CERT').toString('base64')}, client-key-data: ${Buffer.from('KEY').toString('base64')}}}`,
      '- {name: tok, user: {tokenFile: token}}',
      'contexts:',
      '- {name: a, context: {cluster: one, user: cert}}',
      '- {name: b, context: {cluster: two, user: tok}}',
    ].join('\n');
    await writeFile(join(d, 'config'), text);
    expect(await loadKubeconfig({ path: join(d, 'config') })).toEqual({
      transport: { server: 'https://h:1', ca: 'CA', clientCertificate: { cert: 'CERT', key: 'KEY' } },
      space: { kind: 'space', tenant: 't9' },
    });
    expect(await loadKubeconfig({ path: join(d, 'config'), context: 'b' })).toEqual({
      transport: { server: 'https://h:2', insecureSkipTlsVerify: true, token: 'secret' },
      space: { kind: 'own' },
    });
    await expect(loadKubeconfig({ path: join(d, 'config'), context: 'c' })).rejects.toThrow(/no context named "c"/);
  });
});
