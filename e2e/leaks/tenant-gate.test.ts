/**
 * Cross-space leak suite, part 1: the tenant gate. A tenant user reaches nothing outside their
 * own space, by any URL form, selector or watch, and learns nothing from the refusals (a space
 * that exists and one that does not are refused alike). Later features add their own files here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { configMap, namespace } from '../harness/manifests.js';
import { createTenants, grantAndWait, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

describe.each(backendCases())('tenant gate on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('a t1 user', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      // Each user may do anything in their own space: whatever alice is refused below, the tenant
      // gate refuses, not a missing grant.
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      for (const u of [alice, bob]) {
        expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('ns1') })).status).toBe(201);
      }
      const secret = configMap('ns1', 'only-in-t2', { secret: 'of-t2' }, { team: 'blue' });
      expect((await bob.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: secret })).status).toBe(201);
      expect((await alice.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'mine', {}, { team: 'red' }) })).status).toBe(201);
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
    });

    it.each([
      ['GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps'],
      ['GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps/only-in-t2'],
      ['GET', '/tenants/t2/api/v1/namespaces/ns1/configmaps'],
      ['GET', '/tenants/t2/api/v1/namespaces/ns1/configmaps/only-in-t2'],
      ['GET', '/api/v1/tenants/all/configmaps'],
      ['GET', '/api/v1/tenants/all/namespaces/ns1/configmaps'],
      ['GET', '/tenants/all/api/v1/configmaps'],
      ['GET', '/api/v1/tenants/all/configmaps?watch=true'],
      ['GET', '/api/v1/watch/tenants/t2/namespaces/ns1/configmaps'],
      ['GET', '/tenants/t2/api/v1/namespaces/ns1/configmaps?watch=1'],
      ['GET', '/api/v1/tenants/t2'],
      ['GET', '/api/v1/tenants'],
      ['GET', '/api/v1/tenants?watch=true'],
      ['DELETE', '/api/v1/tenants/t2'],
      ['GET', '/tenants/t2/api'],
      ['GET', '/tenants/t2/apis'],
      ['GET', '/tenants/t2/api/v1'],
      ['GET', '/tenants/t2/openapi/v3'],
      ['GET', '/apis/rbac.authorization.k8s.io/v1/tenants/t2/clusterroles'],
      ['DELETE', '/api/v1/tenants/t2/namespaces/ns1/configmaps/only-in-t2'],
      ['DELETE', '/api/v1/tenants/t2/namespaces/ns1/configmaps'],
    ])('%s %s is 403 Forbidden', async (method, path) => {
      const res = await alice.api.request(method, path);
      expect(res.status, res.body).toBe(403);
      expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
      expect(res.body).not.toContain('of-t2');
    });

    it('cannot write into another space by URL or by body', async () => {
      const byUrl = await alice.api.request('POST', '/api/v1/tenants/t2/namespaces/ns1/configmaps', { json: configMap('ns1', 'planted') });
      expect(byUrl.status).toBe(403);
      const byPrefix = await alice.api.request('POST', '/tenants/t2/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'planted') });
      expect(byPrefix.status).toBe(403);
      const byBody = await alice.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: { ...configMap('ns1', 'planted'), metadata: { name: 'planted', tenant: 't2' } } });
      expect(byBody.status).toBe(400);
      expect(byBody.json()).toMatchObject({ reason: 'BadRequest' });
      expect(await cluster.read('/api/v1/tenants/t2/namespaces/ns1/configmaps/planted')).toBeNull();
    });

    it('is refused alike for a space that exists and one that does not', async () => {
      const existing = await alice.api.request('GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps');
      const missing = await alice.api.request('GET', '/api/v1/tenants/t9/namespaces/ns1/configmaps');
      expect(missing.status).toBe(existing.status);
      expect(missing.json<{ message: string }>().message.replace('t9', 't2')).toBe(existing.json<{ message: string }>().message);
    });

    it('sees a name that exists only in another space as not found', async () => {
      const res = await alice.api.request('GET', '/api/v1/namespaces/ns1/configmaps/only-in-t2');
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('of-t2');
    });

    it.each([
      '/api/v1/configmaps?fieldSelector=metadata.tenant%3Dt2',
      '/api/v1/configmaps?labelSelector=team%3Dblue',
      '/api/v1/namespaces/ns1/configmaps?fieldSelector=metadata.name%3Donly-in-t2',
      '/api/v1/configmaps?fieldSelector=metadata.namespace%3Dns1',
    ])('gets only t1 data from %s', async (path) => {
      const res = await alice.api.request('GET', path);
      expect(res.status, res.body).toBe(200);
      const items = res.json<{ items: Array<{ metadata: { tenant: string } }> }>().items;
      for (const item of items) expect(item.metadata.tenant).toBe('t1');
      expect(res.body).not.toContain('of-t2');
    });

    it('watches only its own space, whatever it selects', async () => {
      const res = await alice.api.request('GET', '/api/v1/configmaps?watch=true&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.tenant%3Dt2');
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
      const all = await alice.api.request('GET', '/api/v1/configmaps?watch=true&resourceVersion=0&timeoutSeconds=1');
      const events = all.body.trim().split('\n').map((line) => JSON.parse(line) as { object: { metadata: { tenant: string } } });
      expect(events.length).toBeGreaterThan(0);
      for (const e of events) expect(e.object.metadata.tenant).toBe('t1');
    });

    it('sees only its own space in discovery', async () => {
      const res = await alice.api.request('GET', '/api/v1');
      expect(res.status).toBe(200);
      const names = res.json<{ resources: Array<{ name: string }> }>().resources.map((r) => r.name);
      expect(names).toContain('configmaps');
      // Nothing above the space is mentioned: no Tenants in its discovery or OpenAPI.
      expect(names).not.toContain('tenants');
      const aggregated = await alice.api.request('GET', '/api', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
      expect(aggregated.body).toContain('"configmaps"');
      expect(aggregated.body).not.toContain('"tenants"');
      const openapi = await alice.api.request('GET', '/openapi/v3/api/v1');
      expect(openapi.status).toBe(200);
      expect(openapi.body).not.toContain('io.k8s.api.core.v1.Tenant');
    });
  });
});
