/**
 * Cross-space leak suite: namespace admission objects. Quotas, LimitRanges and PodSecurity labels
 * of t1 act on t1's objects only: a t2 namespace and quota of the same names count t2's pods
 * alone, are charged independently, and t2's pods get neither t1's defaults nor t1's refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { namespace, pod } from '../harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '1' } } };
const limitRange = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', default: { cpu: '300m' } }] } };
const privileged = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'priv' }, spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] } };

describe.each(backendCases())('quota and admission objects on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('of two spaces with the same names', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;

    const usedPods = async (user: UserCredentials): Promise<string | undefined> =>
      ((await user.api.request('GET', '/api/v1/namespaces/shared/resourcequotas/q')).json() as { status?: { used?: { pods?: string } } }).status?.used?.pods;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      // Each space's own `admin`, who manages everything in it.
      [alice, bob] = await Promise.all(
        ['t1', 't2'].map(async (tenant) => {
          const admin = await userKubeconfig(cluster, { tenant, user: 'admin' });
          await eventually(`admin to manage ${tenant}`, async () => (await admin.api.request('GET', '/api/v1/namespaces')).status === 200);
          return admin;
        }),
      ) as [UserCredentials, UserCredentials];
      expect((await alice.api.request('POST', '/api/v1/namespaces', { json: namespace('shared', { 'pod-security.kubernetes.io/enforce': 'baseline' }) })).status).toBe(201);
      expect((await bob.api.request('POST', '/api/v1/namespaces', { json: namespace('shared') })).status).toBe(201);
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces/shared/resourcequotas', { json: quota })).status).toBe(201);
      expect((await alice.api.request('POST', '/api/v1/namespaces/shared/limitranges', { json: limitRange })).status).toBe(201);
      for (const u of [alice, bob]) await eventually('the quota to be counted', async () => (await usedPods(u)) === '0');
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
    });

    it('charges each space’s quota with its own pods only', async () => {
      expect((await alice.api.request('POST', '/api/v1/namespaces/shared/pods', { json: pod('shared', 'a1') })).status).toBe(201);
      const second = await alice.api.request('POST', '/api/v1/namespaces/shared/pods', { json: pod('shared', 'a2') });
      expect(second.status).toBe(403);
      expect((second.json() as { message: string }).message).toBe('pods "a2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
      expect(await usedPods(bob)).toBe('0');
      const b1 = await bob.api.request('POST', '/api/v1/namespaces/shared/pods', { json: pod('shared', 'b1') });
      expect(b1.status, b1.body).toBe(201);
      expect(await usedPods(alice)).toBe('1');
      expect(await usedPods(bob)).toBe('1');
      // A deletion in t2 releases t2's quota, never t1's.
      expect((await bob.api.request('DELETE', '/api/v1/namespaces/shared/pods/b1')).status).toBe(200);
      await eventually('t2 quota released', async () => (await usedPods(bob)) === '0');
      expect(await usedPods(alice)).toBe('1');
    });

    it('applies t1’s LimitRange and PodSecurity labels to t1 only', async () => {
      const b2 = (await bob.api.request('POST', '/api/v1/namespaces/shared/pods', { json: privileged })).json() as {
        metadata: { annotations?: Record<string, string> };
        spec: { containers: Array<{ resources?: unknown }> };
      };
      expect(b2.metadata.annotations?.['kubernetes.io/limit-ranger']).toBeUndefined();
      expect(b2.spec.containers[0]!.resources).toEqual({});
      const refused = await alice.api.request('POST', '/api/v1/namespaces/shared/pods', { json: privileged });
      expect(refused.status).toBe(403);
      expect((refused.json() as { message: string }).message).toBe('pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    });
  });
});
