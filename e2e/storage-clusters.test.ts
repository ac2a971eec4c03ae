/**
 * Spaces pinned to storage clusters (issue 17, item 2): tenants t1 and t2 pinned to two etcds of
 * their own (east and west; the default store is the embedded one). Each space's keys are only in
 * its etcd; stock kubectl works in each space; `kubectl get cm -A` through /tenants/all shows both
 * with a TENANT column; a tenants/all watch resumes from its list's resourceVersion and from an
 * event's across both clusters; deleting a tenant empties only its etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBinaryForTests } from './harness/etcd.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { configMap } from './harness/manifests.js';
import { eventually, userKubeconfig, type UserCredentials } from './harness/spaces.js';
import { etcdKeys, startPinnedCluster, type PinnedCluster } from './harness/storage-clusters.js';

const kubectlPath = kubectlForTests(['1.33']);
const runnable = kubectlPath !== undefined && etcdBinaryForTests() !== undefined;

/** The events of a raw watch's output (one JSON object per line). */
function watchEvents(out: string): Array<{ type: string; object: { metadata: { name?: string; tenant?: string; resourceVersion: string } } }> {
  return out.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as ReturnType<typeof watchEvents>[number]);
}

describe.skipIf(!runnable)('spaces pinned to two etcds', () => {
  let pinned: PinnedCluster;
  let kubectl: Kubectl;
  let alice: UserCredentials;
  let bob: UserCredentials;
  let allSpaces: UserCredentials;

  beforeAll(async () => {
    pinned = await startPinnedCluster();
    const { cluster } = pinned;
    kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
    ({ alice, bob } = pinned);
    allSpaces = await userKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: 'all' });
  });

  afterAll(async () => {
    allSpaces?.api.close();
    await kubectl?.cleanup();
    await pinned?.cleanup();
  });

  it('refuses a storage cluster that is not configured, and a change of it, with kube\'s 422', async () => {
    const unknown = await kubectl.run(['apply', '-f', '-'], { stdin: 'apiVersion: v1\nkind: Tenant\nmetadata:\n  name: t9\nspec:\n  storageClusterId: north\n' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Tenant "t9" is invalid: spec.storageClusterId: Unsupported value: "north": supported values: "east", "west"');
    const moved = await kubectl.run(['patch', 'tenant', 't1', '--type=merge', '-p', '{"spec":{"storageClusterId":"west"}}']);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('spec.storageClusterId: Invalid value: "west": field is immutable');
  });

  it('works in each space with stock kubectl, its keys only in its own etcd', async () => {
    for (const [user, value] of [[alice, 'a'], [bob, 'b']] as const) {
      const created = await kubectl.run(['create', 'configmap', 'web', '--from-literal', `v=${value}`], { kubeconfig: user.kubeconfig });
      expect(created.code, created.stderr).toBe(0);
      const changed = await kubectl.run(['label', 'configmap', 'web', 'changed=yes'], { kubeconfig: user.kubeconfig });
      expect(changed.code, changed.stderr).toBe(0);
      const read = await kubectl.run(['get', 'configmap', 'web', '-o', 'jsonpath={.data.v} {.metadata.labels.changed} {.metadata.resourceVersion}'], { kubeconfig: user.kubeconfig });
      expect(read.code, read.stderr).toBe(0);
      // A space's resourceVersions are plain revisions of its own etcd.
      expect(read.stdout).toMatch(new RegExp(`^${value} yes \\d+$`));
    }
    const east = await etcdKeys(pinned.etcds.east.endpoint);
    const west = await etcdKeys(pinned.etcds.west.endpoint);
    expect(east).toContain('/registry/core/configmaps/t1/default/web');
    expect(east).toContain('/registry/core/namespaces/t1/kube-system');
    expect(east.some((k) => k.startsWith('/registry/rbac.authorization.k8s.io/clusterrolebindings/t1/'))).toBe(true);
    expect(west).toContain('/registry/core/configmaps/t2/default/web');
    for (const key of east) expect(key).toMatch(/^\/registry\/[^/]+\/[^/]+\/t1\//);
    for (const key of west) expect(key).toMatch(/^\/registry\/[^/]+\/[^/]+\/t2\//);
  });

  it('shows both spaces with a TENANT column through /tenants/all', async () => {
    const result = await kubectl.run(['get', 'configmaps', '-A'], { kubeconfig: allSpaces.kubeconfig });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+TENANT\s+NAME\s+DATA/);
    const rows = lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3).join(' '));
    expect(rows).toContain('default t1 web');
    expect(rows).toContain('default t2 web');
    // Pages across both clusters: every object once, in the order of one listing.
    const paged = await kubectl.run(['get', 'configmaps', '-A', '--chunk-size=2', '-o', 'name'], { kubeconfig: allSpaces.kubeconfig });
    const whole = await kubectl.run(['get', 'configmaps', '-A', '-o', 'name'], { kubeconfig: allSpaces.kubeconfig });
    expect(paged.code, paged.stderr).toBe(0);
    expect(paged.stdout).toBe(whole.stdout);
  });

  it('watches tenants/all across both clusters, resumable from the list and from an event', async () => {
    const listed = (await pinned.cluster.api.request('GET', '/api/v1/tenants/all/configmaps')).json() as { metadata: { resourceVersion: string } };
    expect(listed.metadata.resourceVersion).toMatch(/^default=\d+,east=\d+,west=\d+$/);
    const rawWatch = (rv: string) => kubectl.start(['get', '--raw', `/api/v1/tenants/all/configmaps?watch=1&resourceVersion=${encodeURIComponent(rv)}`], { timeoutMs: 60_000 });

    const watch = rawWatch(listed.metadata.resourceVersion);
    await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'first') });
    await watch.waitForOutput(/"first"/);
    await bob.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'second') });
    await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'third') });
    await watch.waitForOutput(/"third"/);
    await watch.waitForOutput(/"second"/);
    const events = watchEvents((await watch.stop()).stdout);
    expect(events.map((e) => `${e.type} ${e.object.metadata.tenant}/${e.object.metadata.name}`).sort()).toEqual(['ADDED t1/first', 'ADDED t1/third', 'ADDED t2/second']);

    // From the first event's resourceVersion: the two after it, from both clusters, and nothing before.
    const first = events.find((e) => e.object.metadata.name === 'first')!;
    const resumed = rawWatch(first.object.metadata.resourceVersion);
    await resumed.waitForOutput(/"third"/);
    await resumed.waitForOutput(/"second"/);
    const again = watchEvents((await resumed.stop()).stdout);
    expect(again.map((e) => e.object.metadata.name).sort()).toEqual(['second', 'third']);
  });

  it('serves kubectl get -A -w across both clusters', async () => {
    const watch = kubectl.start(['get', 'configmaps', '-A', '-w', '-o', 'name', '-v=6'], { kubeconfig: allSpaces.kubeconfig, timeoutMs: 60_000 });
    await watch.waitForLog(/watch=true/);
    await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'watched-east') });
    await bob.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'watched-west') });
    await watch.waitForOutput(/configmap\/watched-east/);
    await watch.waitForOutput(/configmap\/watched-west/);
    const result = await watch.stop();
    expect(result.stderr).not.toMatch(/invalid resource version|Error from server/);
  });

  it('deletes a tenant by emptying its etcd only', async () => {
    const westBefore = await etcdKeys(pinned.etcds.west.endpoint);
    const deleted = await kubectl.run(['delete', 'tenant', 't1', '--timeout=60s'], { timeoutMs: 70_000 });
    expect(deleted.code, deleted.stderr).toBe(0);
    await eventually('east to be empty', async () => (await etcdKeys(pinned.etcds.east.endpoint)).length === 0);
    expect(await etcdKeys(pinned.etcds.west.endpoint)).toEqual(expect.arrayContaining(westBefore));
    expect((await pinned.cluster.read('/api/v1/tenants/t2/namespaces/default/configmaps/web'))?.data).toEqual({ v: 'b' });
  });
});
