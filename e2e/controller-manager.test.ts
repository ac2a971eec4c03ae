/**
 * The controller manager as processes of their own (`kube-spaces controllers`) against
 * `serve --controllers=false`, on both backends: two managers started together, exactly one acts
 * and the Lease names it; the namespace, service-account, aggregation and tenant controllers work
 * from there (a deleted Tenant finalized and gone with its whole space), the manager as system:kube-controller-manager (least privilege) and each controller as
 * its own user by impersonation; kill -9 of the leader and the other takes over once the lease has
 * expired on its own clock; SIGTERM releases the lease.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clusterRoles } from '../api/kinds/rbac/clusterrole.js';
import { configMaps, isNotFound, KubeClient, leases, namespaces, serviceAccounts, tenants, type KubeObject, type Lease, type ResourceClient } from '../src/client/index.js';
import { backendCases } from './harness/cluster.js';
import { startManagedCluster, type ControllerManagerProcess, type ManagedCluster } from './harness/controller-manager.js';

const TIMING = { leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' };
const LEASE_MS = 3_000;
const RETRY_MS = 500;
/** A standby takes an expired lease at its next try: up to a retry period and its jitter (1.2) later. */
const TAKEOVER_LIMIT_MS = LEASE_MS + RETRY_MS * 2.2 + 1_000;

describe.each(backendCases())('kube-spaces controllers on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against serve --controllers=false', () => {
    let managed: ManagedCluster;
    let admin: KubeClient;
    const managers = (): ControllerManagerProcess[] => managed.managers;
    const lease = (): Promise<Lease> => admin.space('system').namespace('kube-system').resource(leases).get('kube-controller-manager');
    const killed = new Set<ControllerManagerProcess>();
    const acting = () => managers().filter((m) => !killed.has(m) && m.logged('controller manager started').length > 0);

    /** Namespace deletion (the namespace controller) and its new default ServiceAccount (the service-account controller). */
    async function expectControllersWork(name: string): Promise<void> {
      const space = admin.space('system');
      await space.resource(namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      await vi.waitFor(() => space.namespace(name).resource(serviceAccounts).get('default'), { timeout: 15_000, interval: 100 });
      await space.namespace(name).resource(configMaps).create({ metadata: { name: 'content' } });
      await space.resource(namespaces).delete(name);
      await vi.waitFor(
        async () => {
          const gone = await space.resource(namespaces).get(name).then(() => false, isNotFound);
          expect(gone).toBe(true);
        },
        { timeout: 15_000, interval: 100 },
      );
    }

    beforeAll(async () => {
      managed = await startManagedCluster(backend);
      admin = managed.admin;
    });
    afterAll(async () => {
      await managed?.cleanup();
    });

    const adminRules = async (): Promise<unknown[]> => ((await admin.space('system').resource(clusterRoles).get('admin')).rules ?? []);

    it('runs no namespace, service-account, aggregation or root CA controller in the server', async () => {
      const space = admin.space('system');
      await space.resource(namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'unmanaged' } });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const absent = (read: Promise<unknown>) => read.then(() => 'found', (err: unknown) => (isNotFound(err) ? 'absent' : err));
      expect(await absent(space.namespace('unmanaged').resource(serviceAccounts).get('default'))).toBe('absent');
      expect(await absent(space.namespace('unmanaged').resource(configMaps).get('kube-root-ca.crt'))).toBe('absent');
      expect(await adminRules()).toEqual([]);
    });

    it('elects one of two managers started together; the leader runs the controllers', async () => {
      managed.startManager(TIMING);
      managed.startManager(TIMING);
      const identities = await Promise.all(managers().map((m) => m.identity()));
      await vi.waitFor(() => expect(acting()).toHaveLength(1), { timeout: 15_000, interval: 100 });
      const leader = acting()[0]!;
      expect((await lease()).spec?.holderIdentity).toBe(identities[managers().indexOf(leader)]);

      // The namespace from before the managers started gets its account and the CA the kubeconfig trusts too (level-based).
      await vi.waitFor(() => admin.space('system').namespace('unmanaged').resource(serviceAccounts).get('default'), { timeout: 15_000, interval: 100 });
      const rootCa = await vi.waitFor(() => admin.space('system').namespace('unmanaged').resource(configMaps).get('kube-root-ca.crt'), { timeout: 15_000, interval: 100 });
      expect(rootCa.data?.['ca.crt']).toContain('-----BEGIN CERTIFICATE-----');
      await expectControllersWork('managed-1');
      // The shared `admin` role aggregated from the roles labelled for it.
      await vi.waitFor(async () => expect((await adminRules()).length).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });
      // Still one acting after several renewals.
      expect(acting()).toHaveLength(1);
    });

    it('moves to the other manager once a kill -9ed leader’s lease has expired', async () => {
      const leader = acting()[0]!;
      const standby = managers().find((m) => m !== leader)!;
      const standbyIdentity = await standby.identity();
      const killedAt = Date.now();
      await leader.kill9();
      killed.add(leader);
      await vi.waitFor(() => expect(standby.logged('controller manager started')).toHaveLength(1), { timeout: 15_000, interval: 50 });
      const tookOver = Date.now() - killedAt;
      expect(tookOver).toBeLessThan(TAKEOVER_LIMIT_MS);
      expect((await lease()).spec).toMatchObject({ holderIdentity: standbyIdentity, leaseTransitions: 1 });
      await expectControllersWork('managed-2');
    });

    it('finalizes a deleted Tenant: its namespaces and objects removed, then the Tenant gone', async () => {
      const tenant = 'doomed';
      /** What is left of the space, read across every space (the space itself refuses once its Tenant is gone). */
      const leftOf = async (across: ResourceClient<KubeObject>): Promise<string[]> =>
        (await across.listAll()).items.filter((o) => o.metadata.tenant === tenant).map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`);
      const ownNamespaces = () => leftOf(admin.allSpaces().resource(namespaces));
      const ownConfigMaps = () => leftOf(admin.allSpaces().resource(configMaps));
      const ownClusterRoles = () => leftOf(admin.allSpaces().resource(clusterRoles));

      await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: tenant } });
      await vi.waitFor(async () => expect((await admin.resource(tenants).get(tenant)).status?.phase).toBe('Active'), { timeout: 15_000, interval: 100 });
      const space = admin.space(tenant);
      await space.resource(namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } });
      await space.namespace('app').resource(configMaps).create({ metadata: { name: 'content' } });
      await space.namespace('default').resource(configMaps).create({ metadata: { name: 'content' } });
      await space.resource(clusterRoles).create({ metadata: { name: 'own-role' }, rules: [] });
      expect((await admin.resource(tenants).get(tenant)).spec?.finalizers).toContain('kubernetes');
      expect(await ownNamespaces()).toEqual(expect.arrayContaining(['/app', '/default']));
      expect(await ownConfigMaps()).toEqual(expect.arrayContaining(['app/content', 'default/content']));
      expect(await ownClusterRoles()).toEqual(expect.arrayContaining(['/own-role']));

      await admin.resource(tenants).delete(tenant);
      // Only the tenant controller, in the acting manager, releases the finalizer.
      await vi.waitFor(
        async () => expect(await admin.resource(tenants).get(tenant).then(() => 'present', (err: unknown) => (isNotFound(err) ? 'gone' : err))).toBe('gone'),
        { timeout: 30_000, interval: 200 },
      );
      expect(await ownNamespaces()).toEqual([]);
      expect(await ownConfigMaps()).toEqual([]);
      expect(await ownClusterRoles()).toEqual([]);
    });

    it('releases the lease on SIGTERM', async () => {
      const [leader] = acting();
      expect(await leader!.stop()).toEqual({ code: 0, signal: null });
      expect(leader!.logged('released leader lease')).toHaveLength(1);
      expect((await lease()).spec?.holderIdentity ?? '').toBe('');
    });
  });
});
