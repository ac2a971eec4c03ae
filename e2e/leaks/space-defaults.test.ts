/**
 * Cross-space leak suite: space defaults. Each space's `kubernetes` Service, Endpoints,
 * EndpointSlice and `kube-root-ca.crt` are its own: deleting or changing t1's brings t1's back and
 * never touches t2's (the controllers reconcile the space an event came from, nothing else), a t1
 * user cannot reach t2's, and a space going away takes only its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createTenants, eventually, inSpace, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const PATHS = {
  service: '/api/v1/namespaces/default/services/kubernetes',
  endpoints: '/api/v1/namespaces/default/endpoints/kubernetes',
  endpointSlice: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes',
  rootCa: '/api/v1/namespaces/default/configmaps/kube-root-ca.crt',
};
type Meta = { metadata: { uid: string; resourceVersion: string; tenant?: string; name: string; namespace: string } };

describe.each(backendCases())('space defaults on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('each space’s own', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;

    /** The metadata of each default object of a space, read as the system admin through the space's path. */
    async function defaultsOf(tenant: string): Promise<Record<keyof typeof PATHS, Meta['metadata'] | undefined>> {
      const entries = await Promise.all(
        Object.entries(PATHS).map(async ([what, path]) => {
          const res = await inSpace(cluster, tenant, 'GET', path);
          return [what, res.status === 200 ? res.json<Meta>().metadata : undefined] as const;
        }),
      );
      return Object.fromEntries(entries) as Record<keyof typeof PATHS, Meta['metadata'] | undefined>;
    }
    const allPresent = async (tenant: string) => Object.values(await defaultsOf(tenant)).every((m) => m !== undefined);

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2', 't3');
      for (const t of ['t1', 't2', 't3']) await eventually(`the defaults of ${t}`, () => allPresent(t));
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'admin' });
      await eventually('admin to manage t1', async () => (await alice.api.request('GET', PATHS.service)).status === 200);
    });

    afterAll(async () => {
      alice?.api.close();
      await cluster?.cleanup();
    });

    it('are distinct objects, one of each kind per space', async () => {
      const [t1, t2] = [await defaultsOf('t1'), await defaultsOf('t2')];
      for (const what of Object.keys(PATHS) as Array<keyof typeof PATHS>) {
        expect(t1[what]?.tenant).toBe('t1');
        expect(t2[what]?.tenant).toBe('t2');
        expect(t1[what]?.uid).not.toBe(t2[what]?.uid);
      }
      const services = await cluster.api.request('GET', '/api/v1/tenants/all/services?fieldSelector=metadata.name%3Dkubernetes');
      expect(services.status, services.body).toBe(200);
      const tenants = services.json<{ items: Meta[] }>().items.map((s) => s.metadata.tenant).sort();
      expect(tenants).toEqual(['system', 't1', 't2', 't3']);
    });

    it('come back in t1 when deleted or changed there, leaving t2’s untouched', async () => {
      const before = { t1: await defaultsOf('t1'), t2: await defaultsOf('t2') };
      for (const path of Object.values(PATHS)) {
        const res = await alice.api.request('DELETE', path);
        // 404: the endpoints controller already deleted the deleted Service's Endpoints, as kube's does.
        expect(path === PATHS.endpoints ? [200, 404] : [200], res.body).toContain(res.status);
      }
      await eventually('t1’s defaults recreated', async () => {
        const now = await defaultsOf('t1');
        return (Object.keys(PATHS) as Array<keyof typeof PATHS>).every((w) => now[w] !== undefined && now[w]!.uid !== before.t1[w]!.uid);
      });
      const endpoints = await alice.api.request('GET', PATHS.endpoints);
      const changed = { ...endpoints.json<object>(), subsets: [{ addresses: [{ ip: '192.0.2.99' }], ports: [{ name: 'https', port: 1, protocol: 'TCP' }] }] };
      expect((await alice.api.request('PUT', PATHS.endpoints, { json: changed })).status).toBe(200);
      await eventually('t1’s endpoints restored', async () => !(await alice.api.request('GET', PATHS.endpoints)).body.includes('192.0.2.99'));

      const after = await defaultsOf('t2');
      for (const what of Object.keys(PATHS) as Array<keyof typeof PATHS>) {
        expect(after[what]).toEqual(before.t2[what]);
      }
    });

    it('of t2 cannot be read or deleted by a t1 user', async () => {
      for (const prefix of ['/tenants/t2', '/tenants/all']) {
        const read = await alice.api.request('GET', `${prefix}${PATHS.rootCa}`);
        expect(read.status, read.body).toBe(403);
      }
      const t2Service = `/api/v1/tenants/t2/namespaces/default/services/kubernetes`;
      expect((await alice.api.request('DELETE', t2Service)).status).toBe(403);
      expect((await defaultsOf('t2')).service).toBeDefined();
    });

    it('go with their space only', async () => {
      const t2 = await defaultsOf('t2');
      expect((await cluster.api.request('DELETE', '/api/v1/tenants/t3')).status).toBe(200);
      await eventually('t3 to go', async () => (await cluster.api.request('GET', '/api/v1/tenants/t3')).status === 404);
      const left = await cluster.api.request('GET', '/api/v1/tenants/all/configmaps?fieldSelector=metadata.name%3Dkube-root-ca.crt');
      expect(left.json<{ items: Meta[] }>().items.some((cm) => cm.metadata.tenant === 't3')).toBe(false);
      expect(await defaultsOf('t2')).toEqual(t2);
    });
  });
});
