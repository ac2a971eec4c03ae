/**
 * Informers on the client, against the whole server in process (the same request path as HTTPS):
 * an every-space informer and a one-space informer of ConfigMaps, same-named objects of two spaces.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configMaps, tenants, type KubeClient } from '../../src/client/index.js';
import { startInProcessServer, testUser, type InProcessServer } from '../../src/testing/in-process-server.js';
import { clientSources } from './client-source.js';
import { InformerFactory } from './informer-factory.js';

describe('informers over the client', () => {
  let server: InProcessServer;
  let admin: KubeClient;
  let informers: InformerFactory;

  beforeAll(async () => {
    server = await startInProcessServer();
    admin = server.clientAs(testUser('system:controller:test', 'system', ['system:masters']));
    for (const name of ['t1', 't2']) await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
    await vi.waitFor(async () => {
      for (const name of ['t1', 't2']) expect((await admin.resource(tenants).get(name)).status?.phase).toBe('Active');
    }, { timeout: 20_000, interval: 50 });
    informers = new InformerFactory(clientSources(admin), (err) => console.error(err));
  });

  afterAll(async () => {
    informers?.stop();
    await server?.close();
  });

  it('caches every space, or one, keeping same-named objects apart', async () => {
    const everySpace = informers.informerFor(configMaps);
    const onlyT2 = informers.informerFor(configMaps, { kind: 'space', tenant: 't2' });
    informers.start();
    await Promise.all([everySpace.waitForSync(), onlyT2.waitForSync()]);

    for (const tenant of ['t1', 't2']) await admin.space(tenant).namespace('default').resource(configMaps).create({ metadata: { name: 'dup' }, data: { from: tenant } });
    const dup = (tenant: string) => ({ tenant, namespace: 'default', name: 'dup' });
    await vi.waitFor(() => {
      expect(everySpace.lister().get(dup('t1'))?.data).toEqual({ from: 't1' });
      expect(everySpace.lister().get(dup('t2'))?.data).toEqual({ from: 't2' });
      expect(onlyT2.lister().get(dup('t2'))?.data).toEqual({ from: 't2' });
    });
    expect(onlyT2.lister().list().every((cm) => cm.metadata.tenant === 't2')).toBe(true);

    await admin.space('t1').namespace('default').resource(configMaps).delete('dup');
    await vi.waitFor(() => expect(everySpace.lister().get(dup('t1'))).toBeUndefined());
    expect(everySpace.lister().get(dup('t2'))).toBeDefined();
  });
});
