/**
 * Space quotas on both backends: a Tenant's `spec.hard` bounds what its whole space holds, exactly
 * under 50 concurrent creators (100 ConfigMaps and not one more, refused with kube's ResourceQuota
 * wording and 403), with usage in the Tenant's status and the Used column of `kubectl get
 * tenants`, given back by deletes (one object, or a namespace and everything in it), counted when
 * limits are added to a space that already has objects, summed over spaces in `tenants/all`, and
 * without any effect on another space. Then two replicas over one etcd, creators on both: still
 * exactly the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, kubeconfigToken, type ApiClient, type ApiResponse } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from './harness/etcd.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { startServer, type ServerProcess } from './harness/server.js';
import { configMap, namespace } from './harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from './harness/spaces.js';

interface TenantStatus {
  hard?: Record<string, string>;
  used?: Record<string, string>;
}
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const kubectlPath = kubectlForTests(['1.33']);

describe.each(backendCases())('space quotas on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('of a Tenant', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;

    const tenantStatus = async (name: string): Promise<TenantStatus> => ((await cluster.read(`/api/v1/tenants/${name}`))?.status ?? {}) as TenantStatus;
    const setLimits = async (name: string, hard: Record<string, string> | null): Promise<void> => {
      const res = await cluster.api.request('PATCH', `/api/v1/tenants/${name}`, { body: JSON.stringify({ spec: { hard } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
      expect(res.status, res.body).toBe(200);
    };
    const countConfigMaps = async (user: UserCredentials): Promise<number> => ((await user.api.request('GET', '/api/v1/configmaps')).json() as { items: unknown[] }).items.length;
    const createConfigMap = (user: UserCredentials, ns: string, name: string): Promise<ApiResponse> => user.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: configMap(ns, name) });
    const newNamespace = async (user: UserCredentials, name: string): Promise<void> => {
      expect((await user.api.request('POST', '/api/v1/namespaces', { json: namespace(name) })).status).toBe(201);
      // The namespace's kube-root-ca.crt is one of the space's ConfigMaps: let it land first.
      await eventually(`kube-root-ca.crt in ${name}`, async () => (await user.api.request('GET', `/api/v1/namespaces/${name}/configmaps/kube-root-ca.crt`)).status === 200);
    };

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      [alice, bob] = (await Promise.all(
        ['t1', 't2'].map(async (tenant) => {
          const admin = await userKubeconfig(cluster, { tenant, user: 'admin' });
          await eventually(`admin to manage ${tenant}`, async () => (await admin.api.request('GET', '/api/v1/namespaces')).status === 200);
          return admin;
        }),
      )) as [UserCredentials, UserCredentials];
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
    });

    it('leaves exactly 100 ConfigMaps when 50 creators race for a limit of 100, refusing the rest in kube’s words', async () => {
      await newNamespace(alice, 'burst');
      await setLimits('t1', { 'count/configmaps': '100' });
      const already = await countConfigMaps(alice);
      await eventually('t1 to be counted', async () => (await tenantStatus('t1')).used?.['count/configmaps'] === String(already));

      const refusals: ApiResponse[] = [];
      await Promise.all(
        Array.from({ length: 50 }, async (_, creator) => {
          for (let n = 0; ; n += 1) {
            const res = await createConfigMap(alice, 'burst', `c${creator}-${n}`);
            if (res.status === 201) continue;
            refusals.push(res);
            return;
          }
        }),
      );
      expect(await countConfigMaps(alice)).toBe(100);
      expect(refusals).toHaveLength(50);
      for (const res of refusals) {
        expect(res.status).toBe(403);
        const status = res.json<{ reason: string; message: string }>();
        expect(status.reason).toBe('Forbidden');
        expect(status.message).toMatch(/^configmaps "c\d+-\d+" is forbidden: exceeded quota: t1, requested: count\/configmaps=1, used: count\/configmaps=100, limited: count\/configmaps=100$/);
      }
      expect(await tenantStatus('t1')).toMatchObject({ hard: { 'count/configmaps': '100' }, used: { 'count/configmaps': '100' } });
      const table = (await cluster.api.request('GET', '/api/v1/tenants', { headers: { Accept: TABLE } })).json<{ columnDefinitions: Array<{ name: string }>; rows: Array<{ cells: string[] }> }>();
      const used = table.columnDefinitions.findIndex((c) => c.name === 'Used');
      expect(table.rows.find((r) => r.cells[0] === 't1')!.cells[used]).toBe('count/configmaps: 100/100');
      expect(table.rows.find((r) => r.cells[0] === 't2')!.cells[used]).toBe('');
    });

    it('leaves another space alone', async () => {
      await newNamespace(bob, 'burst');
      for (let n = 0; n < 5; n += 1) expect((await createConfigMap(bob, 'burst', `b${n}`)).status).toBe(201);
      expect(await tenantStatus('t2')).toEqual({ phase: 'Active' });
    });

    it('gives usage back on delete, of one object or of a whole namespace', async () => {
      for (let n = 0; n < 3; n += 1) expect((await alice.api.request('DELETE', `/api/v1/namespaces/burst/configmaps/c${n}-0`)).status).toBe(200);
      expect((await tenantStatus('t1')).used?.['count/configmaps']).toBe('97');
      for (let n = 0; n < 3; n += 1) expect((await createConfigMap(alice, 'burst', `again${n}`)).status).toBe(201);
      expect((await createConfigMap(alice, 'burst', 'again3')).status).toBe(403);

      expect((await alice.api.request('DELETE', '/api/v1/namespaces/burst')).status).toBe(200);
      await eventually('the namespace to be gone', async () => (await alice.api.request('GET', '/api/v1/namespaces/burst')).status === 404, 60_000);
      const left = await countConfigMaps(alice);
      expect(left).toBeLessThan(100);
      expect((await tenantStatus('t1')).used?.['count/configmaps']).toBe(String(left));
    });

    it('counts a space that already has objects when limits are added, and enforces them on the first write', async () => {
      const configMaps = await countConfigMaps(bob);
      const namespaces = ((await bob.api.request('GET', '/api/v1/namespaces')).json() as { items: unknown[] }).items.length;
      // Exactly what the space holds: no informer has counted it yet when the next create arrives.
      await setLimits('t2', { 'count/configmaps': String(configMaps), 'count/namespaces': String(namespaces + 1), 'count/*': '100000' });
      const refused = await createConfigMap(bob, 'burst', 'one-too-many');
      expect(refused.status).toBe(403);
      expect(refused.json<{ message: string }>().message).toBe(
        `configmaps "one-too-many" is forbidden: exceeded quota: t2, requested: count/configmaps=1, used: count/configmaps=${configMaps}, limited: count/configmaps=${configMaps}`,
      );
      const status = await tenantStatus('t2');
      expect(status.used).toMatchObject({ 'count/configmaps': String(configMaps), 'count/namespaces': String(namespaces) });
      expect(Number(status.used?.['count/*'])).toBeGreaterThan(configMaps + namespaces);

      expect((await bob.api.request('POST', '/api/v1/namespaces', { json: namespace('last') })).status).toBe(201);
      const namespaceRefused = await bob.api.request('POST', '/api/v1/namespaces', { json: namespace('past-the-limit') });
      expect(namespaceRefused.status).toBe(403);
      expect(namespaceRefused.json<{ message: string }>().message).toContain(`exceeded quota: t2, requested: count/namespaces=1, used: count/namespaces=${namespaces + 1}`);

      // Limits removed: usage goes with them, and the space takes anything again.
      await setLimits('t2', null);
      await eventually('t2 usage to be cleared', async () => (await tenantStatus('t2')).used === undefined);
      expect((await createConfigMap(bob, 'burst', 'one-too-many')).status).toBe(201);
    });

    it('limits the bytes a space stores: writes that grow it are charged, shrinking and deleting free, past the limit is refused', async () => {
      await createTenants(cluster, 't3');
      const carol = await userKubeconfig(cluster, { tenant: 't3', user: 'admin' });
      try {
        await eventually('admin to manage t3', async () => (await carol.api.request('GET', '/api/v1/namespaces')).status === 200);
        await newNamespace(carol, 'files');
        await setLimits('t3', { 'storage/bytes': '1Gi' });
        await eventually('t3 to be counted', async () => (await tenantStatus('t3')).used?.['storage/bytes'] !== undefined);
        const before = Number((await tenantStatus('t3')).used!['storage/bytes']);
        expect(before).toBeGreaterThan(0); // the space's namespaces, accounts, roles, CA bundles…
        await setLimits('t3', { 'storage/bytes': String(before + 3000) });
        const file = (name: string, size: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'files' }, data: { content: 'x'.repeat(size) } });
        expect((await carol.api.request('POST', '/api/v1/namespaces/files/configmaps', { json: file('one', 2000) })).status).toBe(201);
        const used = Number((await tenantStatus('t3')).used!['storage/bytes']);
        expect(used - before).toBeGreaterThan(2000);
        const refused = await carol.api.request('POST', '/api/v1/namespaces/files/configmaps', { json: file('two', 2000) });
        expect(refused.status).toBe(403);
        expect(refused.json<{ reason: string; message: string }>()).toMatchObject({
          reason: 'Forbidden',
          message: expect.stringMatching(new RegExp(`^configmaps "two" is forbidden: exceeded quota: t3, requested: storage/bytes=\\d+, used: storage/bytes=${used}, limited: storage/bytes=${before + 3000}$`)),
        });
        // Shrinking the first frees room for the second.
        const shrunk = await carol.api.request('PATCH', '/api/v1/namespaces/files/configmaps/one', { body: JSON.stringify({ data: { content: 'x' } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
        expect(shrunk.status).toBe(200);
        expect(Number((await tenantStatus('t3')).used!['storage/bytes'])).toBeLessThan(used - 1500);
        expect((await carol.api.request('POST', '/api/v1/namespaces/files/configmaps', { json: file('two', 2000) })).status).toBe(201);
        // Deleting both gives back about what they took (the shrink's managedFields entry stays in the count until then).
        for (const name of ['one', 'two']) expect((await carol.api.request('DELETE', `/api/v1/namespaces/files/configmaps/${name}`)).status).toBe(200);
        expect(Number((await tenantStatus('t3')).used!['storage/bytes'])).toBe(before);
        await setLimits('t3', null);
        await eventually('t3 usage to be cleared', async () => (await tenantStatus('t3')).used === undefined);
      } finally {
        carol.api.close();
      }
    });

    it('sums usage over every space for the system admin', async () => {
      await setLimits('t2', { 'count/configmaps': '50' });
      await eventually('t2 to be counted', async () => (await tenantStatus('t2')).used?.['count/configmaps'] !== undefined);
      const [t1, t2] = [await tenantStatus('t1'), await tenantStatus('t2')];
      const summary = (await cluster.read('/api/v1/tenants/all')) as { metadata: { name: string }; status: TenantStatus };
      expect(summary.metadata.name).toBe('all');
      expect(summary.status).toEqual({
        hard: { 'count/configmaps': '150' },
        used: { 'count/configmaps': String(Number(t1.used!['count/configmaps']) + Number(t2.used!['count/configmaps'])) },
      });
    });

    it.skipIf(kubectlPath === undefined)('shows usage to the system admin’s kubectl, and counts a space again when its usage is cleared', async () => {
      const kubectl: Kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      try {
        const run = (args: string[]) => kubectl.run(args, { version: '1.33' });
        const t2Used = (await tenantStatus('t2')).used!['count/configmaps']!;
        const listed = await run(['get', 'tenants']);
        expect(listed.code, listed.stderr).toBe(0);
        expect(parseTable(listed.stdout).row('t2')).toMatchObject({ STATUS: 'Active', USED: `count/configmaps: ${t2Used}/50` });
        const all = await run(['get', 'tenant', 'all']);
        expect(all.code, all.stderr).toBe(0);
        expect(parseTable(all.stdout).row('all').USED).toMatch(/^count\/configmaps: \d+\/150$/);
        // A usage record cleared by hand (after a crash left it high) is counted again from storage.
        const cleared = await run(['patch', 'tenant', 't2', '--subresource=status', '--type=json', '-p', '[{"op":"remove","path":"/status/hard"},{"op":"replace","path":"/status/used","value":{"count/configmaps":"49"}}]']);
        expect(cleared.code, cleared.stderr).toBe(0);
        await eventually('t2 to be counted again', async () => {
          const status = await tenantStatus('t2');
          return status.hard !== undefined && status.used?.['count/configmaps'] === t2Used;
        });
      } finally {
        await kubectl.cleanup();
      }
    });
  });
});

describe.skipIf(!etcdBinaryForTests())('space quotas over two replicas sharing one etcd', () => {
  let etcd: EtcdProcess;
  let a: ServerProcess;
  let b: ServerProcess;
  let clients: ApiClient[] = [];

  beforeAll(async () => {
    etcd = await startEtcd();
    a = await startServer({ etcdServers: [etcd.endpoint] });
    // B shares A's data directory: the same PKI and token file, as docs/system-admin.md sets replicas up.
    b = await startServer({ etcdServers: [etcd.endpoint], dataDir: a.dataDir });
    const token = await kubeconfigToken(a.adminKubeconfig);
    clients = [a, b].map((server) => createApiClient({ url: server.url, caCert: a.caCert, token }));
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await b?.cleanup();
    await a?.cleanup();
    await etcd?.cleanup();
  });

  it('leaves exactly the limit when creators write through both replicas at once', async () => {
    const [viaA, viaB] = clients as [ApiClient, ApiClient];
    const created = await viaA.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't3' }, spec: { hard: { 'count/configmaps': '60' } } } });
    expect(created.status, created.body).toBe(201);
    await eventually('t3 to be Active', async () => ((await viaB.request('GET', '/api/v1/tenants/t3')).json() as { status?: { phase?: string } }).status?.phase === 'Active');
    const configMaps = async (): Promise<number> => ((await viaA.request('GET', '/tenants/t3/api/v1/configmaps')).json() as { items: unknown[] }).items.length;
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, creator) => {
        const api = creator % 2 === 0 ? viaA : viaB;
        let admitted = 0;
        for (let n = 0; ; n += 1) {
          const res = await api.request('POST', '/tenants/t3/api/v1/namespaces/default/configmaps', { json: configMap('default', `c${creator}-${n}`) });
          if (res.status !== 201) return { admitted, refusal: res };
          admitted += 1;
        }
      }),
    );
    expect(await configMaps()).toBe(60);
    for (const { refusal } of results) {
      expect(refusal.status).toBe(403);
      expect(refusal.json<{ message: string }>().message).toMatch(/exceeded quota: t3, requested: count\/configmaps=1, used: count\/configmaps=60, limited: count\/configmaps=60$/);
    }
    // Both replicas took creates, and the record both charged agrees with what is stored.
    expect(results.filter((r, i) => i % 2 === 1 && r.admitted > 0).length).toBeGreaterThan(0);
    expect(((await viaB.request('GET', '/api/v1/tenants/t3')).json() as { status: TenantStatus }).status.used).toEqual({ 'count/configmaps': '60' });
  });
});
