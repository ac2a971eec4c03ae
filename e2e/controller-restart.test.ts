/**
 * A controller manager killed mid-rollout (`kill -9`) and started again converges with nothing
 * duplicated, on both backends: `serve --controllers=false --simulate-nodes 2` with
 * `kube-spaces controllers` as a process of its own; a Deployment of 4 replicas rolls to a new
 * image one pod at a time, the manager is killed once the new ReplicaSet holds some of them, a new
 * manager takes the lease, and the rollout completes with exactly one ReplicaSet per template,
 * 4 pods of the new one, and no others left.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deployments, pods, replicaSets, tenants, type Deployment } from '../src/client/index.js';
import { backendCases } from './harness/cluster.js';
import { startManagedCluster, type ControllerManagerProcess, type ManagedCluster } from './harness/controller-manager.js';

const TIMING = { leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' };
const REPLICAS = 4;
const WAIT = { timeout: 90_000, interval: 200 };

const deployment = (image: string): Deployment =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: { app: 'web' } },
      // One pod at a time, so the rollout is still going when the manager dies.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      minReadySeconds: 1,
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
    },
  }) as Deployment;

describe.each(backendCases())('a controller manager killed mid-rollout on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against serve --controllers=false --simulate-nodes 2', () => {
    let managed: ManagedCluster;
    const start = (): ControllerManagerProcess => managed.startManager(TIMING);

    beforeAll(async () => {
      managed = await startManagedCluster(backend, ['--simulate-nodes', '2', '--simulate-pod-runtime', '1s']);
    });
    afterAll(async () => {
      await managed?.cleanup();
    });

    it('converges after a restart with one ReplicaSet per template and exactly the desired pods', async () => {
      const { admin } = managed;
      const first = start();
      await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: 'shop' } });
      await vi.waitFor(async () => expect((await admin.resource(tenants).get('shop')).status?.phase).toBe('Active'), WAIT);
      const space = admin.space('shop').namespace('default');
      const web = space.resource(deployments);
      await web.create(deployment('nginx:1'));
      const rolledOut = async (image: string): Promise<void> => {
        const d = await web.get('web');
        expect(d.spec?.template?.spec?.containers?.[0]?.image).toBe(image);
        expect(d.status).toMatchObject({ observedGeneration: d.metadata.generation, replicas: REPLICAS, updatedReplicas: REPLICAS, availableReplicas: REPLICAS, readyReplicas: REPLICAS });
      };
      await vi.waitFor(() => rolledOut('nginx:1'), WAIT);

      await web.patch('web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } });
      // Mid-rollout: the new ReplicaSet holds some pods, not all.
      await vi.waitFor(async () => {
        const updated = (await web.get('web')).status?.updatedReplicas ?? 0;
        expect(updated).toBeGreaterThanOrEqual(1);
        expect(updated).toBeLessThan(REPLICAS);
      }, WAIT);
      await first.kill9();

      const second = start();
      await vi.waitFor(() => expect(second.logged('controller manager started')).toHaveLength(1), WAIT);
      await vi.waitFor(() => rolledOut('nginx:2'), WAIT);

      const sets = (await space.resource(replicaSets).list()).items;
      const hashes = sets.map((rs) => rs.metadata.labels?.['pod-template-hash']);
      expect(new Set(hashes).size, JSON.stringify(hashes)).toBe(sets.length);
      expect(sets).toHaveLength(2);
      const current = sets.find((rs) => (rs.spec as { template?: { spec?: { containers?: Array<{ image?: string }> } } }).template?.spec?.containers?.[0]?.image === 'nginx:2')!;
      const hash = current.metadata.labels?.['pod-template-hash'];
      expect(current.spec).toMatchObject({ replicas: REPLICAS });
      // The old ReplicaSet's pods end (the simulator finishes their graceful deletion): only the new ones remain.
      await vi.waitFor(async () => {
        const live = (await space.resource(pods).list({ labelSelector: 'app=web' })).items;
        expect(live.map((p) => p.metadata.labels?.['pod-template-hash'])).toEqual(Array.from({ length: REPLICAS }, () => hash));
        expect(new Set(live.map((p) => p.metadata.name)).size).toBe(REPLICAS);
      }, WAIT);
    });
  });
});
