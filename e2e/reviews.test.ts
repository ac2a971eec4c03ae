/**
 * The review APIs with stock kubectl (protobuf bodies from 1.33, JSON from 1.27): `auth can-i`
 * agrees with what the server does for the same user, `auth can-i --list` answers, and
 * `auth whoami` shows the user with their tenant. Until RBAC lands, the server's decision is the
 * tenant gate, so that is what the reviews must report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { userKubeconfig, waitForTenantPhase, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', 'dispatcher'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

/** can-i arguments and the request the server would get for them. */
const cases: Array<{ args: string[]; method: string; path: string }> = [
  { args: ['create', 'configmaps', '-n', 'default'], method: 'POST', path: '/api/v1/namespaces/default/configmaps' },
  { args: ['list', 'pods', '-n', 'default'], method: 'GET', path: '/api/v1/namespaces/default/pods' },
  { args: ['get', 'namespaces'], method: 'GET', path: '/api/v1/namespaces' },
  { args: ['list', 'deployments.apps', '-A'], method: 'GET', path: '/apis/apps/v1/deployments' },
  { args: ['get', 'tenants'], method: 'GET', path: '/api/v1/tenants' },
  { args: ['delete', 'tenants'], method: 'DELETE', path: '/api/v1/tenants/nope' },
];

describe.each(backendCases(kubectlPath !== undefined))('reviews on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      const created = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } } });
      expect(created.status, created.body).toBe(201);
      await waitForTenantPhase(cluster, 't1', 'Active');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
    });
    afterAll(async () => {
      alice?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    for (const version of VERSIONS) {
      it(`auth can-i agrees with the server for the admin and a tenant user (kubectl ${version})`, async () => {
        for (const [who, kubeconfig, api] of [
          ['admin', cluster.server.adminKubeconfig, cluster.api],
          ['alice', alice.kubeconfig, alice.api],
        ] as const) {
          for (const c of cases) {
            const answer = await kubectl.run(['auth', 'can-i', ...c.args], { kubeconfig, version });
            const real = await api.request(c.method, c.path);
            const allowedByServer = real.status !== 403;
            expect({ who, args: c.args.join(' '), canI: answer.stdout.trim().startsWith('yes') }).toEqual({ who, args: c.args.join(' '), canI: allowedByServer });
            expect(answer.code).toBe(allowedByServer ? 0 : 1);
          }
        }
      });

      it(`auth whoami shows the user and their tenant (kubectl ${version})`, async () => {
        const result = await kubectl.run(['auth', 'whoami'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^Username\s+alice$/m);
        expect(result.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t1\]$/m);
      });

      it(`auth can-i --list answers (kubectl ${version})`, async () => {
        const result = await kubectl.run(['auth', 'can-i', '--list', '-n', 'default'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
      });
    }

    it('answers reviews without storing anything', async () => {
      const before = await cluster.read('/api/v1/namespaces/default/configmaps');
      const res = await cluster.api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        json: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } },
      });
      expect(res.status).toBe(201);
      expect(res.json()).toMatchObject({ status: { allowed: true } });
      expect((await cluster.api.request('GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status).toBe(405);
      expect((await cluster.read('/api/v1/namespaces/default/configmaps'))?.metadata).toEqual(before?.metadata);
    });
  });
});
