/**
 * Cross-space leak suite: space quotas. A space's limits and usage live on its Tenant, above the
 * spaces: its own admin can neither read nor change them (whatever path form it tries), nor read
 * another space's or the sum over spaces; a refusal tells it its own space's numbers only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { configMap } from '../harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

describe.each(backendCases())('space quotas on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('seen from inside a space', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;

    const limit = async (tenant: string, hard: Record<string, string>): Promise<void> => {
      const res = await cluster.api.request('PATCH', `/api/v1/tenants/${tenant}`, { body: JSON.stringify({ spec: { hard } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
      expect(res.status, res.body).toBe(200);
    };

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'admin' });
      await eventually('admin to manage t1', async () => (await alice.api.request('GET', '/api/v1/namespaces')).status === 200);
      await limit('t1', { 'count/configmaps': '100' });
      await limit('t2', { 'count/secrets': '7' });
    });

    afterAll(async () => {
      alice?.api.close();
      await cluster?.cleanup();
    });

    it('neither reads nor changes its own limits, another space’s, or the sum', async () => {
      for (const path of ['/api/v1/tenants/t1', '/api/v1/tenants/t1/status', '/api/v1/tenants/t2', '/api/v1/tenants/all', '/api/v1/tenants', '/tenants/t1/api/v1/tenants/t1']) {
        const res = await alice.api.request('GET', path);
        expect([403, 404], `GET ${path}: ${res.body}`).toContain(res.status);
        expect(res.body).not.toMatch(/count\/|"hard"|"used"/);
      }
      const raise = JSON.stringify({ spec: { hard: { 'count/configmaps': '100000' } } });
      for (const path of ['/api/v1/tenants/t1', '/api/v1/tenants/t1/status']) {
        const res = await alice.api.request('PATCH', path, { body: raise, headers: { 'Content-Type': 'application/merge-patch+json' } });
        expect([403, 404], `PATCH ${path}: ${res.body}`).toContain(res.status);
      }
      expect(((await cluster.read('/api/v1/tenants/t1'))?.spec as { hard?: unknown }).hard).toEqual({ 'count/configmaps': '100' });
    });

    it('is refused with its own space’s numbers only', async () => {
      await limit('t1', { 'count/configmaps': '0' });
      const refused = await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'one') });
      expect(refused.status).toBe(403);
      const { message } = refused.json<{ message: string }>();
      expect(message).toMatch(/^configmaps "one" is forbidden: exceeded quota: t1, requested: count\/configmaps=1, used: count\/configmaps=\d+, limited: count\/configmaps=0$/);
      expect(message).not.toMatch(/t2|secrets/);
    });
  });
});
