/**
 * Spaces end to end (issue "Spaces"): tenants made by the system admin with stock kubectl, users
 * of two tenants working with the same names without collision and without seeing each other,
 * the system admin's views of every space and of one space through the `/tenants/<t>` prefix,
 * storage keys under their tenant, and a tenant's deletion removing exactly its space.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { configMap, deployment, namespace, pod, toYamlStream } from './harness/manifests.js';
import { etcdKeys } from './harness/storage-clusters.js';
import { eventually, grantAndWait, tenantManifest, userKubeconfig, waitForTenantPhase, type UserCredentials } from './harness/spaces.js';

const versions: KubectlVersion[] = ['1.27', 'dispatcher'];

const kubectlPath = kubectlForTests(versions);

/** What each tenant's user creates: the same names in both spaces. */
const workload = toYamlStream([namespace('ns1'), pod('ns1', 'web'), deployment('ns1', 'web'), configMap('ns1', 'web', { owner: 'me' })]);

describe.each(backendCases(kubectlPath !== undefined))('spaces on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let allSpaces: UserCredentials;
    let spaceT2: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      const applied = await kubectl.run(['apply', '-f', '-'], { stdin: tenantManifest('t1') + '---\n' + tenantManifest('t2'), version: '1.27' });
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain('tenant/t1 created');
      await waitForTenantPhase(cluster, 't1', 'Active');
      await waitForTenantPhase(cluster, 't2', 'Active');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      // Each tenant's user manages its whole space, as its admin would grant.
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      allSpaces = await userKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: 'all' });
      spaceT2 = await userKubeconfig(cluster, { tenant: 'system', user: 'root-t2', groups: ['system:masters'], space: 't2' });
    });

    afterAll(async () => {
      for (const u of [alice, bob, allSpaces, spaceT2]) u?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('gives each new tenant its default namespaces, visible to its user', async () => {
      for (const version of versions) {
        const result = await kubectl.run(['get', 'namespaces', '-o', 'name'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
      }
    });

    it('lets two tenants create the same names without collision', async () => {
      for (const user of [alice, bob]) {
        const created = await kubectl.run(['create', '-f', '-'], { kubeconfig: user.kubeconfig, stdin: workload, version: '1.27' });
        expect(created.code, created.stderr).toBe(0);
        expect(created.stdout).toContain('pod/web created');
      }
      const mine = await kubectl.run(['get', 'configmap', 'web', '-n', 'ns1', '-o', 'jsonpath={.metadata.tenant}'], { kubeconfig: alice.kubeconfig });
      expect(mine.stdout).toBe('t1');
      const theirs = await kubectl.run(['get', 'configmap', 'web', '-n', 'ns1', '-o', 'jsonpath={.metadata.tenant}'], { kubeconfig: bob.kubeconfig });
      expect(theirs.stdout).toBe('t2');
      // Each space's ns1 gets its own kube-root-ca.crt, as every namespace of a cluster does.
      for (const user of [alice, bob]) {
        await eventually('kube-root-ca.crt in ns1', async () => (await user.api.request('GET', '/api/v1/namespaces/ns1/configmaps/kube-root-ca.crt')).status === 200);
      }
    });

    /** Not a pod the deployment `web`'s controllers made (`web-<hash>-<5>`): the objects the test wrote. */
    const written = (line: string) => !/(^|[\s/])web-[a-z0-9]+-[a-z0-9]{5}(\s|$)/.test(line);

    it('shows each user only their own space in get, get -A and describe', async () => {
      for (const version of versions) {
        const all = await kubectl.run(['get', 'pods,deployments,configmaps', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.tenant}/{.metadata.namespace}/{.metadata.name}{"\\n"}{end}'], {
          kubeconfig: alice.kubeconfig,
          version,
        });
        expect(all.code, all.stderr).toBe(0);
        const rootCas = ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'ns1'].map((ns) => `t1/${ns}/kube-root-ca.crt`);
        expect(all.stdout.trim().split('\n').filter(written).sort()).toEqual([...rootCas, 't1/ns1/web', 't1/ns1/web', 't1/ns1/web']);
        const table = await kubectl.run(['get', 'pods', '-A'], { kubeconfig: bob.kubeconfig, version });
        expect(table.stdout).not.toContain('TENANT');
        expect(table.stdout.trim().split('\n').filter(written)).toHaveLength(2);
        const described = await kubectl.run(['describe', 'pod', 'web', '-n', 'ns1'], { kubeconfig: alice.kubeconfig, version });
        expect(described.code, described.stderr).toBe(0);
        expect(described.stdout).toMatch(/^Name:\s+web$/m);
        expect(described.stdout).not.toContain('t2');
      }
    });

    it('never delivers another space’s events to a watch', async () => {
      const watch = kubectl.start(['get', 'configmaps', '-n', 'ns1', '-w', '-o', 'name', '-v=6'], { kubeconfig: alice.kubeconfig, timeoutMs: 30_000 });
      await watch.waitForLog(/watch=true/);
      await bob.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'from-t2') });
      await alice.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'from-t1') });
      await watch.waitForOutput(/configmap\/from-t1/);
      const out = (await watch.stop()).stdout;
      expect(out).not.toContain('from-t2');
    });

    it('shows the system admin every space with a TENANT column through /tenants/all', async () => {
      for (const version of versions) {
        const result = await kubectl.run(['get', 'pods', '-A'], { kubeconfig: allSpaces.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        const lines = result.stdout.trim().split('\n');
        expect(lines[0]).toMatch(/^NAMESPACE\s+TENANT\s+NAME\s+READY\s+STATUS/);
        expect(lines.slice(1).filter(written).map((l) => l.split(/\s+/).slice(0, 3).join(' ')).sort()).toEqual(['ns1 t1 web', 'ns1 t2 web']);
      }
    });

    it('shows the system admin one space through /tenants/t2', async () => {
      const result = await kubectl.run(['get', 'configmaps', '-A', '-o', 'jsonpath={range .items[*]}{.metadata.tenant}/{.metadata.name} {end}'], { kubeconfig: spaceT2.kubeconfig });
      expect(result.code, result.stderr).toBe(0);
      // kube-root-ca.crt of each of t2's five namespaces, and t2's own.
      expect(result.stdout.trim().split(' ').sort()).toEqual(['t2/from-t2', ...Array<string>(5).fill('t2/kube-root-ca.crt'), 't2/web']);
    });

    it.skipIf(backend !== 'etcd')('stores every object under its tenant segment', async () => {
      {
        const keys = await etcdKeys(cluster.etcd!.endpoint);
        // Tenants, nodes, APIServices and the flow-control configuration are above the spaces: their keys have no tenant segment.
        const aboveSpaces = ['/registry/core/tenants/', '/registry/core/nodes/', '/registry/apiregistration.k8s.io/apiservices/', '/registry/flowcontrol.apiserver.k8s.io/'];
        const objectKeys = keys.filter((k) => !aboveSpaces.some((prefix) => k.startsWith(prefix)));
        expect(objectKeys.length).toBeGreaterThan(20);
        for (const key of objectKeys) expect(key).toMatch(/^\/registry\/[^/]+\/[^/]+\/(system|t1|t2)\//);
        expect(keys).toContain('/registry/core/configmaps/t1/ns1/web');
        expect(keys).toContain('/registry/core/configmaps/t2/ns1/web');
        expect(keys).toContain('/registry/apps/deployments/t2/ns1/web');
        expect(keys).toContain('/registry/core/namespaces/t1/ns1');
        expect(keys).toContain('/registry/apiregistration.k8s.io/apiservices/v1.apps');
      }
    });

    it('refuses to delete the system tenant or a tenant’s default namespace', async () => {
      const system = await kubectl.run(['delete', 'tenant', 'system']);
      expect(system.code).toBe(1);
      expect(system.stderr).toContain('Error from server (Forbidden)');
      const ns = await kubectl.run(['delete', 'namespace', 'default', '--wait=false'], { kubeconfig: bob.kubeconfig });
      expect(ns.code).toBe(1);
      expect(ns.stderr).toContain('Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted');
    });

    it('deletes a tenant with its whole space and leaves the other untouched', async () => {
      const deleted = await kubectl.run(['delete', 'tenant', 't1', '--timeout=60s'], { timeoutMs: 70_000 });
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(await cluster.read('/api/v1/tenants/t1')).toBeNull();
      const left = await cluster.read('/api/v1/tenants/all/configmaps');
      expect(((left?.items ?? []) as Array<{ metadata: { tenant: string } }>).map((i) => i.metadata.tenant).filter((t) => t === 't1')).toEqual([]);
      expect((await cluster.read('/api/v1/tenants/t2/namespaces/ns1/configmaps/web'))?.data).toEqual({ owner: 'me' });
      if (cluster.etcd) {
        const endpoint = cluster.etcd.endpoint;
        await eventually('no key of t1 left', async () => (await etcdKeys(endpoint)).every((k) => !k.includes('/t1/') && !k.endsWith('/t1')));
      }
      // The deleted tenant's user now acts nowhere, discovery included: its tenant is gone.
      await eventually('t1 to be gone for its users', async () => (await alice.api.request('GET', '/apis')).status === 403);
      const write = await alice.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'late') });
      expect(write.status, write.body).toBe(403);
      expect(write.json()).toMatchObject({ reason: 'Forbidden', message: 'User "alice" cannot act in tenant "t1": the tenant does not exist' });
      const everywhere = await cluster.read('/api/v1/tenants/all/configmaps');
      expect(((everywhere?.items ?? []) as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name)).not.toContain('late');
    });
  });
});
