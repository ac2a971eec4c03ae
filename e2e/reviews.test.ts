/**
 * The review APIs with stock kubectl (protobuf bodies from 1.33, JSON from 1.27): `auth can-i`
 * agrees with what the server does for the same user, `auth can-i --list` answers, and
 * `auth whoami` shows the user with their tenant. The server's decision is the tenant gate, then
 * RBAC in the space: alice is bound to the shared `view` role in t1, so her answers mix RBAC's yes
 * (reads), RBAC's no (writes) and the gate's no (Tenants), and `can-i --list` lists view's rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { grantAndWait, userKubeconfig, waitForTenantPhase, type UserCredentials } from './harness/spaces.js';
import type { KubeObject } from '../api/registry/object.js';

const VERSIONS = ['1.27', 'dispatcher'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

/** can-i arguments, the request the server would get for them, and whether alice (`view` in t1) may. */
const cases: Array<{ args: string[]; method: string; path: string; alice: boolean }> = [
  { args: ['create', 'configmaps', '-n', 'default'], method: 'POST', path: '/api/v1/namespaces/default/configmaps', alice: false },
  { args: ['list', 'pods', '-n', 'default'], method: 'GET', path: '/api/v1/namespaces/default/pods', alice: true },
  { args: ['get', 'namespaces'], method: 'GET', path: '/api/v1/namespaces', alice: true },
  { args: ['list', 'deployments.apps', '-A'], method: 'GET', path: '/apis/apps/v1/deployments', alice: true },
  { args: ['get', 'tenants'], method: 'GET', path: '/api/v1/tenants', alice: false },
  { args: ['delete', 'tenants'], method: 'DELETE', path: '/api/v1/tenants/nope', alice: false },
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
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'view', user: 'alice' }, alice.api, '/api/v1/namespaces/default/pods');
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
            if (who === 'alice') expect({ args: c.args.join(' '), allowedByServer }).toEqual({ args: c.args.join(' '), allowedByServer: c.alice });
          }
        }
      });

      it(`auth whoami shows the user and their tenant (kubectl ${version})`, async () => {
        const result = await kubectl.run(['auth', 'whoami'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^Username\s+alice$/m);
        expect(result.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t1\]$/m);
      });

      it(`auth can-i --list lists the rules of the user's bindings (kubectl ${version})`, async () => {
        const result = await kubectl.run(['auth', 'can-i', '--list', '-n', 'default'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        // What kube-apiserver lists for a user bound to `view`: its reads, plus what every
        // authenticated user has (the self reviews, discovery and health URLs); nothing more.
        const selfReviews = ['selfsubjectreviews.authentication.k8s.io', 'selfsubjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io'];
        const rows = result.stdout.trim().split('\n').slice(1);
        const resourceRows = rows.filter((row) => !/^\s/.test(row)).map((row) => row.split(/\s+/));
        const resources = resourceRows.map(([resource]) => resource);
        expect(resources).toEqual(expect.arrayContaining([...selfReviews, 'configmaps', 'pods', 'namespaces', 'deployments.apps']));
        expect(resources).not.toContain('secrets');
        for (const [resource, urls, names, ...verbs] of resourceRows) {
          const expected = selfReviews.includes(resource!) ? '[create]' : '[get list watch]';
          expect({ resource, urls, names, verbs: verbs.join(' ') }).toEqual({ resource, urls: '[]', names: '[]', verbs: expected });
        }
        expect(result.stdout).not.toContain('*.*');
        expect(result.stdout).toMatch(/^\s+\[\/api\/\*\]\s+\[\]\s+\[get\]$/m);
        expect(result.stdout).not.toContain('[*]');
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
      // The objects, not the list's resourceVersion: that is the store's revision, which any
      // background write (a Lease renewal) moves on.
      const versions = (list: unknown) => ((list as { items?: KubeObject[] } | undefined)?.items ?? []).map((cm) => `${cm.metadata.name}@${cm.metadata.resourceVersion}`);
      expect(versions(await cluster.read('/api/v1/namespaces/default/configmaps'))).toEqual(versions(before));
    });
  });
});
