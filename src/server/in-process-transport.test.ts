import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../api/access.js';
import { configMaps, deployments, isForbidden, isNotFound, KubeClient, tenants, type Transport, type WatchEvent, type ConfigMap } from '../client/index.js';
import { startInProcessServer, testUser as user, type InProcessServer } from '../testing/in-process-server.js';
import { InProcessTransport } from './in-process-transport.js';

describe('the client over the in-process transport', () => {
  let server: InProcessServer;
  const clientAs = (identity: UserInfo) => server.clientAs(identity);
  let admin: KubeClient;
  /** The scopes (`tenant/namespace`) of the server's watches that ended. */
  const stoppedWatches: string[] = [];

  beforeAll(async () => {
    server = await startInProcessServer({
      beforeApp(plane) {
        // Counts the server's watches that end, to see a client leaving end the server's watch.
        const startWatch = plane.watchCaches.startWatch.bind(plane.watchCaches);
        vi.spyOn(plane.watchCaches, 'startWatch').mockImplementation(async (...args) => {
          const active = await startWatch(...args);
          const scope = `${args[1].tenant}/${args[1].namespace ?? ''}`;
          return { stop: () => (stoppedWatches.push(scope), active.stop()) };
        });
      },
    });
    admin = clientAs(user('system:controller:test', 'system', ['system:masters']));
    for (const name of ['t1', 't2']) await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
    await vi.waitFor(async () => {
      for (const name of ['t1', 't2']) expect((await admin.resource(tenants).get(name)).status?.phase).toBe('Active');
    }, { timeout: 20_000, interval: 50 });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('reads and writes through the request path, each object with its tenant', async () => {
    for (const tenant of ['t1', 't2']) await admin.space(tenant).namespace('default').resource(configMaps).create({ metadata: { name: 'dup' }, data: { from: tenant } });
    const { items } = await admin.allSpaces().namespace('default').resource(configMaps).listAll({ fieldSelector: 'metadata.name=dup' });
    expect(items.map((cm) => [cm.metadata.tenant, cm.data?.from]).sort()).toEqual([
      ['t1', 't1'],
      ['t2', 't2'],
    ]);
  });

  it('answers a write with a body as complete, not as a body left unread (connection: close)', async () => {
    const token = server.tokenFor(user('system:controller:test', 'system', ['system:masters']));
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/v1/namespaces/default/configmaps',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ metadata: { name: 'read-body' } }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers.connection).toBe('keep-alive');
  });

  it('authorizes the identity named: no back door around RBAC or the tenant gate', async () => {
    const nobody = clientAs(user('system:controller:nobody', 'system'));
    expect(isForbidden(await nobody.allSpaces().resource(configMaps).list().catch((err: unknown) => err))).toBe(true);
    const tenantUser = clientAs(user('alice', 't1', ['system:masters']));
    expect(isForbidden(await tenantUser.allSpaces().resource(configMaps).list().catch((err: unknown) => err))).toBe(true);
    expect((await tenantUser.namespace('default').resource(configMaps).get('dup')).metadata.tenant).toBe('t1');
  });

  it('streams a watch, and ends the server’s watch when the client leaves it', async () => {
    const cms = admin.space('t2').namespace('default').resource(configMaps);
    const watch = cms.watch({ labelSelector: 'watched=yes' });
    const next = async (): Promise<WatchEvent<ConfigMap>> => {
      for (;;) {
        const { value } = await watch.next();
        if (value && value.type !== 'BOOKMARK') return value;
      }
    };
    expect(await next()).toMatchObject({ type: 'RELISTED', objects: [] });
    await cms.create({ metadata: { name: 'w1', labels: { watched: 'yes' } } });
    expect(await next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w1', tenant: 't2' } } });
    await watch.return(undefined);
    await vi.waitFor(() => expect(stoppedWatches).toContain('t2/default'));
  });

  it('speaks protobuf when asked: built-in kinds both ways, watches in frames, errors as Status; patches stay JSON', async () => {
    const seen: Array<{ path: string; sent?: string; answered?: string }> = [];
    const inner = server.transportAs(user('system:controller:test', 'system', ['system:masters']));
    const recording: Transport = {
      async send(request) {
        const response = await inner.send(request);
        seen.push({ path: request.path, sent: request.headers['content-type'], answered: String(response.headers['content-type'] ?? '') });
        return response;
      },
      close: () => inner.close(),
    };
    const client = new KubeClient(recording, { kind: 'space', tenant: 't1' }, 'protobuf');
    const cms = client.namespace('default').resource(configMaps);
    const watch = cms.watch({ labelSelector: 'wire=protobuf' });
    const next = async (): Promise<WatchEvent<ConfigMap>> => {
      for (;;) {
        const { value } = await watch.next();
        if (value && value.type !== 'BOOKMARK') return value;
      }
    };
    expect(await next()).toMatchObject({ type: 'RELISTED', objects: [] });
    const created = await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb', labels: { wire: 'protobuf' } }, data: { a: '1' } });
    expect(created).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'pb', tenant: 't1' }, data: { a: '1' } });
    expect(await next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'pb', tenant: 't1' }, data: { a: '1' } } });
    await watch.return(undefined);
    const create = seen.find((r) => r.sent !== undefined)!;
    expect(create).toMatchObject({ sent: 'application/vnd.kubernetes.protobuf', answered: 'application/vnd.kubernetes.protobuf' });
    expect(seen.some((r) => r.path.includes('watch=') && r.answered?.startsWith('application/vnd.kubernetes.protobuf'))).toBe(true);
    const missing = await cms.get('nope').catch((err: unknown) => err);
    expect(isNotFound(missing)).toBe(true);
    expect(missing).toMatchObject({ code: 404, message: 'configmaps "nope" not found' });
    expect(seen.at(-1)!.answered).toMatch(/^application\/vnd\.kubernetes\.protobuf/);
    // A patch is JSON; the answer protobuf.
    const patched = await cms.patch('pb', 'merge', { data: { b: '2' } });
    expect(patched.data).toEqual({ a: '1', b: '2' });
    expect(seen.at(-1)).toMatchObject({ sent: 'application/merge-patch+json', answered: 'application/vnd.kubernetes.protobuf' });
    const { items } = await client.namespace('default').resource(deployments).listAll();
    expect(items).toEqual([]);
    client.close();
  });
});

describe('the in-process transport', () => {
  it('keeps nothing of a long answer on its stand-in socket, however fast the server writes', async () => {
    const app = Fastify();
    let burst!: () => void;
    let socket!: { writableLength: number };
    app.get('/stream', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      socket = reply.raw.socket!;
      burst = () => {
        for (let i = 0; i < 100; i += 1) reply.raw.write(`line ${i}\n`);
      };
    });
    await app.ready();
    const response = await new InProcessTransport(app, 'no-token').send({ method: 'GET', path: '/stream', headers: {} });
    // A burst written in one turn, as a watch fans events out; Node's response holds its socket's writes until the next tick.
    burst();
    await new Promise((ticked) => process.nextTick(ticked));
    expect(socket.writableLength).toBe(0);
    response.close();
    await app.close();
  });
});
