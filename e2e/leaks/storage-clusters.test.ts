/**
 * Cross-space leak suite, storage clusters: t1 lives in etcd east, t2 in etcd west. A t1 user
 * never reads or watches west's objects, whatever resourceVersion or continue token it brings:
 * t2's (a revision of another etcd), or a tenants/all one naming every cluster's revision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBinaryForTests } from '../harness/etcd.js';
import { configMap } from '../harness/manifests.js';
import type { UserCredentials } from '../harness/spaces.js';
import { startPinnedCluster, type PinnedCluster } from '../harness/storage-clusters.js';

interface List {
  metadata: { resourceVersion: string; continue?: string };
  items: Array<{ metadata: { name: string; tenant: string } }>;
}

describe.skipIf(etcdBinaryForTests() === undefined)('a t1 user, t1 and t2 in two etcds', () => {
  let pinned: PinnedCluster;
  let alice: UserCredentials;
  let bob: UserCredentials;

  beforeAll(async () => {
    pinned = await startPinnedCluster();
    ({ alice, bob } = pinned);
    for (let i = 0; i < 3; i += 1) {
      await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', `east-${i}`) });
      await bob.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', `west-${i}`) });
    }
  });

  afterAll(async () => {
    await pinned?.cleanup();
  });

  const tenantsOf = (list: List): string[] => [...new Set(list.items.map((i) => i.metadata.tenant))];

  it("reads only its space at another etcd's revision", async () => {
    const west = (await bob.api.request('GET', '/api/v1/namespaces/default/configmaps')).json() as List;
    for (const query of [`resourceVersion=${west.metadata.resourceVersion}`, `resourceVersion=${west.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`, 'resourceVersion=0']) {
      const res = await alice.api.request('GET', `/api/v1/namespaces/default/configmaps?${query}`);
      if (res.status === 200) expect(tenantsOf(res.json() as List)).toEqual(['t1']);
      else expect(res.body).not.toContain('west-');
    }
    const watched = await alice.api.request('GET', `/api/v1/configmaps?watch=1&resourceVersion=1&timeoutSeconds=1`);
    expect(watched.body).toContain('east-0');
    expect(watched.body).not.toContain('west-');
    const fromWest = await alice.api.request('GET', `/api/v1/configmaps?watch=1&resourceVersion=${west.metadata.resourceVersion}&timeoutSeconds=1`);
    expect(fromWest.body).not.toContain('west-');
  });

  it('refuses a tenants/all resourceVersion or continue token in its space', async () => {
    const all = (await pinned.cluster.api.request('GET', '/api/v1/tenants/all/configmaps?limit=1')).json() as List;
    expect(all.metadata.resourceVersion).toMatch(/^default=\d+,east=\d+,west=\d+$/);
    for (const path of [
      `/api/v1/namespaces/default/configmaps?resourceVersion=${encodeURIComponent(all.metadata.resourceVersion)}`,
      `/api/v1/namespaces/default/configmaps/east-0?resourceVersion=${encodeURIComponent(all.metadata.resourceVersion)}`,
      `/api/v1/configmaps?watch=1&resourceVersion=${encodeURIComponent(all.metadata.resourceVersion)}`,
    ]) {
      const res = await alice.api.request('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'BadRequest', message: `invalid resource version "${all.metadata.resourceVersion}"` });
    }
    const continued = await alice.api.request('GET', `/api/v1/configmaps?limit=1&continue=${encodeURIComponent(all.metadata.continue!)}`);
    expect(continued.status).toBe(400);
    expect(continued.body).not.toContain('west-');
  });

  it("refuses t2's continue token", async () => {
    const west = (await bob.api.request('GET', '/api/v1/namespaces/default/configmaps?limit=1')).json() as List;
    const res = await alice.api.request('GET', `/api/v1/namespaces/default/configmaps?limit=1&continue=${encodeURIComponent(west.metadata.continue!)}`);
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('west-');
  });

  it('cannot list or watch tenants/all', async () => {
    for (const path of ['/api/v1/tenants/all/configmaps', '/api/v1/tenants/all/configmaps?watch=1', '/api/v1/tenants/t2/configmaps']) {
      expect((await alice.api.request('GET', path)).status, path).toBe(403);
    }
  });
});
