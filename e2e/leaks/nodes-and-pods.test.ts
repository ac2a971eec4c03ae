/**
 * Cross-space leak suite: pod subresources, nodes and APIServices. A t2 user cannot bind, evict,
 * debug, exec or read the status of t1's pods by any URL form; a tenant sees only the nodes that
 * run pods of its own space (none of another space's), and only the local APIServices; a tenant
 * cannot create, change or delete Nodes or APIServices. Stock kubectl in a space gets an empty or
 * filtered node list, never an error. The scheduler's events about a space's pods stay in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from '../harness/kubectl.js';
import { parseTable } from '../harness/kubectl-output.js';
import { namespace, pod } from '../harness/manifests.js';
import { createTenants, eventually, grantAndWait, inSpace, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

const nodeManifest = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
const apiService = (name: string, group: string) => ({
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name },
  spec: { group, version: 'v1beta1', service: { namespace: 'kube-system', name: 'agg' }, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true },
});

describe.each(backendCases(kubectlPath !== undefined))('node and pod leaks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('two tenants', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let kubectl: Kubectl;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      // Both may do anything in their own space: what they are refused below, the server refuses.
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('ns1') })).status).toBe(201);
      expect((await alice.api.request('POST', '/api/v1/namespaces/ns1/pods', { json: pod('ns1', 'secret-pod') })).status).toBe(201);
      expect((await alice.api.request('POST', '/api/v1/namespaces/ns1/pods', { json: pod('ns1', 'placed') })).status).toBe(201);
      expect((await bob.api.request('POST', '/api/v1/namespaces/ns1/pods', { json: pod('ns1', 'bobs') })).status).toBe(201);
      // Nodes are the system's: t1's pod runs on node-t1, bob's on node-t2, and node-idle runs nothing.
      for (const n of ['node-t1', 'node-t2', 'node-idle']) expect((await cluster.api.request('POST', '/api/v1/nodes', { json: nodeManifest(n) })).status).toBe(201);
      const bindIn = (tenant: string, name: string, node: string) =>
        inSpace(cluster, tenant, 'POST', `/api/v1/namespaces/ns1/pods/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } });
      expect((await bindIn('t1', 'placed', 'node-t1')).status).toBe(201);
      expect((await bindIn('t2', 'bobs', 'node-t2')).status).toBe(201);
      expect((await cluster.api.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', { json: apiService('v1beta1.secret.example.com', 'secret.example.com') })).status).toBe(201);
      kubectl = await createKubectl({ kubeconfig: bob.kubeconfig });
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'secret-pod' }, target: { kind: 'Node', name: 'node-t2' } };
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'secret-pod', namespace: 'ns1' } };
    const debugPatch = { spec: { ephemeralContainers: [{ name: 'spy', image: 'busybox' }] } };

    it.each([
      ['POST', '/api/v1/tenants/t1/namespaces/ns1/pods/secret-pod/binding', binding],
      ['POST', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/binding', binding],
      ['POST', '/api/v1/tenants/t1/namespaces/ns1/pods/secret-pod/eviction', eviction],
      ['POST', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/eviction', eviction],
      ['PATCH', '/api/v1/tenants/t1/namespaces/ns1/pods/secret-pod/ephemeralcontainers', debugPatch],
      ['PATCH', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/ephemeralcontainers', debugPatch],
      ['GET', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/ephemeralcontainers', undefined],
      ['GET', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/status', undefined],
      ['POST', '/tenants/t1/api/v1/namespaces/ns1/pods/secret-pod/exec?command=ls', undefined],
      ['GET', '/api/v1/tenants/t1/namespaces/ns1/pods/secret-pod/attach', undefined],
      ['POST', '/api/v1/tenants/t1/namespaces/ns1/pods/secret-pod/portforward', undefined],
    ])("t2 cannot %s %s (t1's pod)", async (method, path, json) => {
      const headers: Record<string, string> = method === 'PATCH' ? { 'Content-Type': 'application/strategic-merge-patch+json' } : {};
      const res = await bob.api.request(method, path, json === undefined ? { headers } : { body: JSON.stringify(json), headers: { 'Content-Type': 'application/json', ...headers } });
      expect(res.status, res.body).toBe(403);
      expect(res.body).not.toContain('node-t1');
    });

    it("leaves t1's pod as it was", async () => {
      const stored = await inSpace(cluster, 't1', 'GET', '/api/v1/namespaces/ns1/pods/secret-pod');
      const p = stored.json<{ spec: { nodeName?: string; ephemeralContainers?: unknown[] } }>();
      expect(p.spec.nodeName).toBeUndefined();
      expect(p.spec.ephemeralContainers).toBeUndefined();
    });

    it('a body naming another space is refused on binding and eviction', async () => {
      const res = await bob.api.request('POST', '/api/v1/namespaces/ns1/pods/bobs/eviction', { json: { ...eviction, metadata: { name: 'bobs', namespace: 'ns1', tenant: 't1' } } });
      expect(res.status).toBe(400);
    });

    it("t2 never sees t1's events (the scheduler's, about t1's pods), by either event API, list or watch", async () => {
      await eventually("the scheduler's events in t1", async () => (await inSpace(cluster, 't1', 'GET', '/api/v1/namespaces/ns1/events')).body.includes('secret-pod'));
      for (const path of [
        '/api/v1/namespaces/ns1/events',
        '/apis/events.k8s.io/v1/namespaces/ns1/events',
        '/api/v1/events',
        '/apis/events.k8s.io/v1/events',
        '/api/v1/namespaces/ns1/events?watch=true&timeoutSeconds=1',
        '/apis/events.k8s.io/v1/events?watch=true&timeoutSeconds=1',
      ]) {
        const res = await bob.api.request('GET', path);
        expect(res.status, path).toBe(200);
        expect(res.body, path).not.toContain('secret-pod');
      }
      for (const path of ['/api/v1/tenants/t1/namespaces/ns1/events', '/tenants/t1/apis/events.k8s.io/v1/namespaces/ns1/events', '/apis/events.k8s.io/v1/tenants/all/events']) {
        expect((await bob.api.request('GET', path)).status, path).toBe(403);
      }
    });

    it('a tenant lists only the nodes its own pods run on', async () => {
      await eventually('t2 to see its node', async () => {
        const res = await bob.api.request('GET', '/api/v1/nodes');
        return res.status === 200 && res.json<{ items: Array<{ metadata: { name: string } }> }>().items.map((n) => n.metadata.name).join() === 'node-t2';
      });
      const list = await alice.api.request('GET', '/api/v1/nodes');
      expect(list.json<{ items: Array<{ metadata: { name: string } }> }>().items.map((n) => n.metadata.name)).toEqual(['node-t1']);
      for (const name of ['node-t1', 'node-idle', 'no-such-node']) {
        const res = await bob.api.request('GET', `/api/v1/nodes/${name}`);
        expect(res.status, name).toBe(404);
        expect(res.json()).toMatchObject({ reason: 'NotFound', message: `nodes "${name}" not found` });
      }
      expect((await bob.api.request('GET', '/api/v1/nodes/node-t2')).status).toBe(200);
      const selected = await bob.api.request('GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dnode-t1');
      expect(selected.json<{ items: unknown[] }>().items).toEqual([]);
    });

    it("a tenant's node watch streams only its nodes", async () => {
      const res = await bob.api.request('GET', '/api/v1/nodes?watch=true&timeoutSeconds=1');
      const names = res.body
        .trim()
        .split('\n')
        .filter((l) => l)
        .map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name);
      expect(names).toEqual(['node-t2']);
    });

    it('kubectl (1.27 and 1.33) in a space lists its nodes, and a space without pods gets an empty list', async () => {
      for (const version of VERSIONS) expect(parseTable((await kubectl.run(['get', 'nodes'], { version })).stdout).names()).toEqual(['node-t2']);
      await inSpace(cluster, 't2', 'DELETE', '/api/v1/namespaces/ns1/pods/bobs?gracePeriodSeconds=0');
      await eventually('t2 to see no node', async () => (await bob.api.request('GET', '/api/v1/nodes')).json<{ items: unknown[] }>().items.length === 0);
      for (const version of VERSIONS) {
        const empty = await kubectl.run(['get', 'nodes'], { version });
        expect(empty.code, empty.stderr).toBe(0);
        expect(empty.stderr).toContain('No resources found');
      }
    });

    it.each([
      ['POST', '/api/v1/nodes', nodeManifest('planted')],
      ['PUT', '/api/v1/nodes/node-t1', nodeManifest('node-t1')],
      ['DELETE', '/api/v1/nodes/node-t1', undefined],
      ['DELETE', '/api/v1/nodes', undefined],
      ['PATCH', '/api/v1/nodes/node-t1/status', { status: {} }],
      ['POST', '/apis/apiregistration.k8s.io/v1/apiservices', apiService('v1beta1.planted.example.com', 'planted.example.com')],
      ['DELETE', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps', undefined],
      ['PUT', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apps', { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.apps' }, spec: {} }],
    ])('a tenant cannot %s %s', async (method, path, json) => {
      const headers: Record<string, string> = method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {};
      const res = await alice.api.request(method, path, json === undefined ? { headers } : { body: JSON.stringify(json), headers: { 'Content-Type': 'application/json', ...headers } });
      expect(res.status, res.body).toBe(403);
      expect(res.json()).toMatchObject({ reason: 'Forbidden' });
    });

    it("a tenant sees the local APIServices only, and the system's nodes stay", async () => {
      const list = await alice.api.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices');
      const names = list.json<{ items: Array<{ metadata: { name: string } }> }>().items.map((a) => a.metadata.name);
      expect(names).toContain('v1.apps');
      expect(names).not.toContain('v1beta1.secret.example.com');
      expect((await alice.api.request('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.secret.example.com')).status).toBe(404);
      expect((await cluster.api.request('GET', '/api/v1/nodes')).json<{ items: unknown[] }>().items).toHaveLength(3);
    });

    it("discovery in a space shows nodes and APIServices read-only, and no Tenants", async () => {
      const res = await alice.api.request('GET', '/api/v1');
      const resources = res.json<{ resources: Array<{ name: string; verbs: string[] }> }>().resources;
      expect(resources.find((r) => r.name === 'nodes')?.verbs).toEqual(['get', 'list', 'watch']);
      expect(resources.some((r) => r.name === 'tenants')).toBe(false);
      const agg = await alice.api.request('GET', '/apis/apiregistration.k8s.io/v1');
      expect(agg.json<{ resources: Array<{ name: string; verbs: string[] }> }>().resources.find((r) => r.name === 'apiservices')?.verbs).toEqual(['get', 'list', 'watch']);
    });
  });
});
