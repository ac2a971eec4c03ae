/**
 * Cross-space leak suite: the workload controllers' selectors and owner references. Each space
 * holds the same namespace; t2 holds orphans (a pod, a ReplicaSet) whose labels t1's selectors
 * match. t1's ReplicaSet, ReplicationController and Deployment make their own pods and
 * ReplicaSets and never adopt t2's; t1's PodDisruptionBudget counts only t1's pods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { namespace, pod, type Manifest } from '../harness/manifests.js';
import { createInSpace, createTenants, eventually } from '../harness/spaces.js';

interface Item {
  metadata: { name: string; ownerReferences?: Array<{ uid: string }>; labels?: Record<string, string> };
  status?: Record<string, unknown>;
}

const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } });
const replicaSet = (name: string, app: string, replicas = 1): Manifest => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace: 'ns1', labels: { app } },
  spec: { replicas, selector: { matchLabels: { app } }, template: template(app) },
});

describe.each(backendCases())('workload leaks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('two tenants', () => {
    let cluster: TestCluster;
    const list = async (tenant: string, path: string): Promise<Item[]> => ((await cluster.read(`/tenants/${tenant}${path}`)) as { items: Item[] }).items;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      for (const t of ['t1', 't2']) await createInSpace(cluster, t, namespace('ns1'));
      // t2's orphans first, so t1's controllers find them there if they looked across spaces.
      await createInSpace(cluster, 't2', pod('ns1', 'stray-web', { app: 'web' }), pod('ns1', 'stray-rc', { app: 'rc' }), replicaSet('stray-api', 'api', 0));
      await createInSpace(
        cluster,
        't1',
        replicaSet('web', 'web'),
        { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc', namespace: 'ns1' }, spec: { replicas: 1, selector: { app: 'rc' }, template: template('rc') } },
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'api', namespace: 'ns1' }, spec: { replicas: 1, selector: { matchLabels: { app: 'api' } }, template: template('api') } },
        { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'ns1' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } },
      );
    });

    afterAll(async () => {
      await cluster?.cleanup();
    });

    it("a ReplicaSet and a ReplicationController make their own pods and never adopt another space's", async () => {
      await eventually("t1's pods", async () => (await list('t1', '/api/v1/namespaces/ns1/pods')).filter((p) => /^(web|rc)-/.test(p.metadata.name)).length >= 2);
      const mine = await list('t1', '/api/v1/namespaces/ns1/pods');
      expect(mine.filter((p) => p.metadata.name.startsWith('web-'))).toHaveLength(1);
      expect(mine.filter((p) => p.metadata.name.startsWith('rc-'))).toHaveLength(1);
      await eventually('the ReplicaSet to count one pod', async () => ((await cluster.read('/tenants/t1/apis/apps/v1/namespaces/ns1/replicasets/web'))!.status as { replicas?: number }).replicas === 1);
      for (const stray of await list('t2', '/api/v1/namespaces/ns1/pods')) expect(stray.metadata.ownerReferences ?? []).toEqual([]);
    });

    it("a Deployment makes its own ReplicaSet and never adopts another space's", async () => {
      await eventually("t1's ReplicaSet of api", async () => (await list('t1', '/apis/apps/v1/namespaces/ns1/replicasets')).some((rs) => rs.metadata.name.startsWith('api-')));
      const stray = await list('t2', '/apis/apps/v1/namespaces/ns1/replicasets');
      expect(stray.map((rs) => [rs.metadata.name, rs.metadata.ownerReferences ?? []])).toEqual([['stray-api', []]]);
    });

    it("a PodDisruptionBudget counts only its own space's pods", async () => {
      await eventually('the budget to be computed', async () => {
        const status = (await cluster.read('/tenants/t1/apis/policy/v1/namespaces/ns1/poddisruptionbudgets/web'))!.status as { expectedPods?: number; observedGeneration?: number };
        return status.observedGeneration === 1 && status.expectedPods === 1;
      });
    });
  });
});
