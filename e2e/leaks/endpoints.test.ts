/**
 * Cross-space leak suite: endpoints and simulated nodes. Two spaces hold the same namespace,
 * the same Service `web` and same-named pods labelled alike, on a server with `--simulate-nodes 2`:
 * each space's Endpoints and EndpointSlices list its own pods' IPs only, whatever the selector
 * would match elsewhere; a tenant's `kubectl get nodes` shows the simulated node its pods run on,
 * never the one only the other space uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from '../harness/kubectl.js';
import { parseTable } from '../harness/kubectl-output.js';
import { namespace, pod, service, type Manifest } from '../harness/manifests.js';
import { createInSpace, createTenants, eventually, grantAndWait, inSpace, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher']);

function placedPod(name: string, node: string): Manifest {
  const base = pod('shop', name, { app: 'web' });
  return { ...base, spec: { ...(base['spec'] as object), nodeName: node } };
}

describe.each(backendCases(kubectlPath !== undefined))('endpoint leaks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('two spaces with the same service and pods', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let kubectl: Kubectl;
    const podIP = async (tenant: string, name: string): Promise<string | undefined> => {
      const res = await inSpace(cluster, tenant, 'GET', `/api/v1/namespaces/shop/pods/${name}`);
      return (res.json() as { status?: { podIP?: string } }).status?.podIP;
    };

    beforeAll(async () => {
      cluster = await startCluster(backend, { extraArgs: ['--simulate-nodes', '2'] });
      await createTenants(cluster, 't1', 't2');
      // The same names in both spaces; t1's pods run on sim-node-0, t2's on sim-node-1.
      await createInSpace(cluster, 't1', namespace('shop'), service('shop', 'web', { app: 'web' }), placedPod('web-0', 'sim-node-0'), placedPod('web-1', 'sim-node-0'));
      await createInSpace(cluster, 't2', namespace('shop'), service('shop', 'web', { app: 'web' }), placedPod('web-0', 'sim-node-1'));
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      // Anything in her own space (nodes too, which `view` does not grant): what she does not see, the server hides.
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces/shop/endpoints');
      kubectl = await createKubectl({ kubeconfig: alice.kubeconfig });
    });
    afterAll(async () => {
      alice?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it("lists each space's own pods in its Endpoints and EndpointSlices, never the other's", async () => {
      const ips: Record<string, string[]> = {};
      for (const [tenant, names] of [['t1', ['web-0', 'web-1']], ['t2', ['web-0']]] as const) {
        await eventually(`${tenant}'s pods running`, async () => (await Promise.all(names.map((n) => podIP(tenant, n)))).every((ip) => ip !== undefined));
        ips[tenant] = (await Promise.all(names.map((n) => podIP(tenant, n)))).map((ip) => ip!).sort();
      }
      expect(ips['t1']!.some((ip) => ips['t2']!.includes(ip))).toBe(false);
      for (const tenant of ['t1', 't2']) {
        await eventually(`${tenant}'s endpoints`, async () => {
          const res = await inSpace(cluster, tenant, 'GET', '/api/v1/namespaces/shop/endpoints/web');
          const subsets = (res.json() as { subsets?: Array<{ addresses?: Array<{ ip: string }> }> }).subsets ?? [];
          return JSON.stringify(subsets.flatMap((s) => s.addresses ?? []).map((a) => a.ip).sort()) === JSON.stringify(ips[tenant]);
        });
        const slices = (await inSpace(cluster, tenant, 'GET', '/apis/discovery.k8s.io/v1/namespaces/shop/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dweb')).json() as {
          items: Array<{ metadata: { tenant: string }; endpoints?: Array<{ addresses: string[]; targetRef: { name: string } }> }>;
        };
        expect(slices.items.map((s) => s.metadata.tenant)).toEqual([tenant]);
        expect(slices.items.flatMap((s) => s.endpoints ?? []).flatMap((e) => e.addresses).sort()).toEqual(ips[tenant]);
      }
      // Through stock kubectl, as t1's user.
      const row = parseTable((await kubectl.run(['get', 'endpoints', 'web', '-n', 'shop'])).stdout).rows[0];
      expect(row?.['ENDPOINTS']?.split(',').map((e) => e.replace(/:8080$/, '')).sort()).toEqual(ips['t1']);
    });

    it("shows a tenant the simulated node its pods run on, never the other space's", async () => {
      const nodes = parseTable((await kubectl.run(['get', 'nodes'])).stdout).rows.map((r) => r['NAME']);
      expect(nodes).toEqual(['sim-node-0']);
      const other = await kubectl.run(['get', 'node', 'sim-node-1']);
      expect(other.stderr).toContain('nodes "sim-node-1" not found');
    });
  });
});
