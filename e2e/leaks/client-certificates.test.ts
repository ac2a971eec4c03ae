/**
 * Cross-space leak suite, client certificates: a t1 user proving who they are with a certificate
 * is held by the tenant gate exactly as a token user is. No URL form reaches t2 or all, a group
 * written into the certificate (even `system:masters`) lends no power outside t1, and a bearer
 * token sent beside the certificate does not change who the request is (x509 is tried first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, kubeconfigToken } from '../harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from '../harness/kubectl.js';
import { configMap, namespace } from '../harness/manifests.js';
import { certificateKubeconfig, createTenants, grantAndWait, type CertificateCredentials } from '../harness/spaces.js';

const kubectlPath = kubectlForTests(['1.33']);

describe.each(backendCases(kubectlPath !== undefined))('client-certificate users and the tenant gate on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('a t1 certificate user', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: CertificateCredentials;
    let bob: CertificateCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1', 't2');
      // alice claims the most powerful group there is; it must not matter outside her space.
      alice = await certificateKubeconfig(cluster, { tenant: 't1', user: 'alice', groups: ['system:masters'] });
      bob = await certificateKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      // In t1 that group is the shared `cluster-admin` binding: alice may do anything there, and
      // needs no grant of her own. bob is given the same in t2 by its admin.
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('ns1') })).status).toBe(201);
      expect((await bob.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'only-in-t2', { secret: 'of-t2' }) })).status).toBe(201);
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it.each([
      ['GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps'],
      ['GET', '/tenants/t2/api/v1/namespaces/ns1/configmaps/only-in-t2'],
      ['GET', '/api/v1/tenants/all/configmaps'],
      ['GET', '/tenants/all/api/v1/configmaps'],
      ['GET', '/api/v1/watch/tenants/t2/namespaces/ns1/configmaps'],
      ['GET', '/api/v1/tenants/system/namespaces'],
      ['GET', '/api/v1/tenants'],
      ['DELETE', '/api/v1/tenants/t2'],
      ['POST', '/tenants/t2/api/v1/namespaces/ns1/configmaps'],
    ])('%s %s is 403 Forbidden', async (method, path) => {
      const res = await alice.api.request(method, path, method === 'POST' ? { json: configMap('ns1', 'planted') } : {});
      expect(res.status, res.body).toBe(403);
      expect(res.body).not.toContain('of-t2');
    });

    it('cannot reach t2 or all with kubectl through the prefix form', async () => {
      for (const space of ['t2', 'all']) {
        const result = await kubectl.run(['get', 'configmaps', '-A', '--server', `${cluster.server.url}/tenants/${space}`], { kubeconfig: alice.kubeconfig, version: '1.33' });
        expect(result.code).not.toBe(0);
        expect(result.stderr).toMatch(/forbidden/i);
        expect(result.stdout + result.stderr).not.toContain('only-in-t2');
      }
    });

    it('stays alice of t1 when an admin token rides along', async () => {
      const adminToken = await kubeconfigToken(cluster.server.adminKubeconfig);
      const mixed = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, clientCertificate: alice.clientCertificate });
      try {
        const res = await mixed.request('GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps', { headers: { authorization: `Bearer ${adminToken}` } });
        expect(res.status, res.body).toBe(403);
        expect(res.body).not.toContain('of-t2');
      } finally {
        mixed.close();
      }
    });
  });
});
