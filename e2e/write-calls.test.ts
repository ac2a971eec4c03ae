/**
 * The storage calls of a create (issue 15, item 2): one create call per object (on etcd one
 * transaction, `storage/etcd/etcd-store.ts`), no read before it, and no write of the Tenant in a
 * space without quotas. Counted from the server's etcd_request_duration_seconds series, which time
 * every call the store gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';

const CREATES = 20;

/** Storage calls so far by operation and type, for the types asked. */
async function storageCalls(cluster: TestCluster, types: string[]): Promise<Map<string, number>> {
  const res = await cluster.api.request('GET', '/metrics');
  expect(res.status).toBe(200);
  const calls = new Map<string, number>();
  for (const line of res.body.split('\n')) {
    const m = /^etcd_request_duration_seconds_count\{operation="([^"]*)",type="([^"]*)"\} (\d+)$/.exec(line);
    if (m && types.includes(m[2]!)) calls.set(`${m[1]} ${m[2]}`, Number(m[3]));
  }
  return calls;
}

describe.each(backendCases())('the storage calls of a create on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('creates', () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster(backend);
    });
    afterAll(() => cluster?.cleanup());

    it('make one create call each and nothing else on the kind or the Tenant', async () => {
      const ns = await cluster.newNamespace('writes');
      const types = ['configmaps', 'tenants'];
      const before = await storageCalls(cluster, types);
      for (let i = 0; i < CREATES; i += 1) {
        const res = await cluster.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { k: 'v' } } });
        expect(res.status).toBe(201);
      }
      const after = await storageCalls(cluster, types);
      const made = [...after].map(([series, n]) => [series, n - (before.get(series) ?? 0)] as const).filter(([, n]) => n > 0);
      expect(made).toEqual([['create configmaps', CREATES]]);
    });
  });
});
