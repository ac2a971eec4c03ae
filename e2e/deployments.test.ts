/**
 * Deployments as a kubectl user meets them, in two spaces holding the same names (issue 14):
 * `kubectl create deployment web --image=nginx --replicas=3` makes a ReplicaSet and three pods;
 * once the pods are ready (set here through pods/status, as a kubelet would, until a node
 * simulator runs) `READY 3/3` and `rollout status` completes; `set image` rolls a new ReplicaSet
 * with maxSurge and maxUnavailable held at every step seen by a watch; `rollout history` and
 * `undo`; `scale` up and down; deleting the deployment takes its ReplicaSets and pods; the other
 * space's deployment of the same name never moves. Stock kubectl 1.27 and the dispatcher's, on
 * SQLite and on etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { namespace } from './harness/manifests.js';
import { createTenants, eventually, spaceAdmin, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const VERSIONS = [
  { label: '1.27', version: '1.27', suffix: '127' },
  { label: 'the dispatcher’s', version: 'dispatcher', suffix: 'dsp' },
] as const satisfies ReadonlyArray<{ label: string; version: KubectlVersion; suffix: string }>;
const kubectlPath = kubectlForTests(VERSIONS.map((v) => v.version));

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string; labels?: Record<string, string>; ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>; resourceVersion: string };
  status?: { phase?: string };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const timestamp = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

async function listPods(api: ApiClient, ns: string): Promise<PodItem[]> {
  const res = await api.request('GET', `/api/v1/namespaces/${ns}/pods`);
  expect(res.status).toBe(200);
  return res.json<{ items: PodItem[] }>().items;
}

/** What a kubelet would write once a pod's containers run and pass their readiness checks. */
async function markPodsReady(api: ApiClient, ns: string): Promise<void> {
  for (const pod of await listPods(api, ns)) {
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Running') continue;
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: timestamp() }] };
    const res = await api.request('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, {
      body: JSON.stringify({ status }),
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect([200, 404]).toContain(res.status);
  }
}

describe.each(backendCases(kubectlPath !== undefined))('deployments on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('in two spaces with the same names', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let kubectl: Kubectl;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      [alice, bob] = await Promise.all([spaceAdmin(cluster, 't1', 'alice'), spaceAdmin(cluster, 't2', 'bob')]);
      kubectl = await createKubectl({ kubeconfig: alice.kubeconfig });
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    describe.each(VERSIONS)('kubectl $label', ({ version, suffix }) => {
      const ns = `web-${suffix}`;
      const asAlice = (args: string[]) => kubectl.run([...args, '-n', ns], { version });
      const asBob = (args: string[]) => kubectl.run([...args, '-n', ns], { version, kubeconfig: bob.kubeconfig });
      const replicaSets = async (run = asAlice) =>
        ok(await run(['get', 'rs', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.spec.replicas} {.metadata.annotations.deployment\\.kubernetes\\.io/revision}{"\\n"}{end}']))
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' '));
      const activePods = async (api: ApiClient) => (await listPods(api, ns)).filter((p) => !p.metadata.deletionTimestamp);
      /** Marks pods ready until `rollout status` (started meanwhile) returns. */
      const rollOut = async (user: UserCredentials = alice): Promise<string> => {
        const status = kubectl.start(['rollout', 'status', 'deployment/web', '-n', ns, '--timeout=90s'], { version, kubeconfig: user.kubeconfig });
        let done = false;
        void status.exited.then(() => (done = true));
        while (!done) {
          await markPodsReady(user.api, ns);
          await delay(200);
        }
        return ok(await status.exited);
      };
      /** t2's objects as they are now: anything t1 does must leave them exactly so. */
      const bobsState = async () => {
        const rs = await bob.api.request('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`);
        const d = await bob.api.request('GET', `/apis/apps/v1/namespaces/${ns}/deployments/web`);
        const versions = (items: Array<{ metadata: { name: string; resourceVersion: string } }>) => items.map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`).sort();
        return { rs: versions(rs.json<{ items: PodItem[] }>().items), pods: versions(await listPods(bob.api, ns)), deployment: d.json<PodItem>().metadata.resourceVersion };
      };
      let bobsBefore: Awaited<ReturnType<typeof bobsState>>;

      beforeAll(async () => {
        for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace(ns) })).status).toBe(201);
      });

      it('create deployment makes a ReplicaSet and three pods in each space, then READY 3/3 and rollout status completes', async () => {
        expect(ok(await asAlice(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']))).toContain('deployment.apps/web created');
        expect(ok(await asBob(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']))).toContain('deployment.apps/web created');
        for (const api of [alice.api, bob.api]) await eventually('three pods', async () => (await activePods(api)).length === 3);
        const [[rsName, replicas, revision]] = (await replicaSets()) as [[string, string, string]];
        expect(rsName).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
        expect([replicas, revision]).toEqual(['3', '1']);
        // The same template in both spaces: the same ReplicaSet name, each in its own space.
        expect((await replicaSets(asBob))[0]![0]).toBe(rsName);
        for (const pod of await activePods(alice.api)) {
          expect(pod.metadata.name).toMatch(new RegExp(`^${rsName}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
          expect(pod.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ReplicaSet', name: rsName, controller: true, blockOwnerDeletion: true })]);
          expect(pod.metadata.labels?.['pod-template-hash']).toBe(rsName.slice('web-'.length));
        }
        expect(await rollOut()).toContain('deployment "web" successfully rolled out');
        expect(await rollOut(bob)).toContain('deployment "web" successfully rolled out');
        const table = parseTable(ok(await asAlice(['get', 'deployment', 'web'])));
        expect(table.rows[0]).toMatchObject({ NAME: 'web', READY: '3/3', 'UP-TO-DATE': '3', AVAILABLE: '3' });
        bobsBefore = await bobsState();
      });

      it('set image rolls a new ReplicaSet, never above 3 + maxSurge pods nor below 3 - maxUnavailable available (seen by a watch)', async () => {
        const watch = kubectl.start(['get', 'rs', '-n', ns, '-w', '-o', 'jsonpath={.metadata.name},{.spec.replicas},{.status.availableReplicas}{"\\n"}'], { version, timeoutMs: 120_000 });
        await watch.waitForOutput(/web-/);
        expect(ok(await asAlice(['set', 'image', 'deployment/web', 'nginx=nginx:1.27']))).toContain('deployment.apps/web image updated');
        expect(await rollOut()).toContain('deployment "web" successfully rolled out');
        await eventually('the old ReplicaSet to reach 0 in the watch', async () => /,0,\n/.test(watch.stdout()) || /,0,0\n/.test(watch.stdout()));
        const { stdout } = await watch.stop();
        // 3 replicas at the default 25%: maxSurge 1 (rounded up), maxUnavailable 0 (rounded down).
        const state = new Map<string, { replicas: number; available: number }>();
        let most = 0;
        let fewestAvailable = Infinity;
        for (const line of stdout.trim().split('\n')) {
          const [name, replicas, available] = line.split(',');
          state.set(name!, { replicas: Number(replicas), available: Number(available || 0) });
          const sets = [...state.values()];
          most = Math.max(most, sets.reduce((n, s) => n + s.replicas, 0));
          fewestAvailable = Math.min(fewestAvailable, sets.reduce((n, s) => n + s.available, 0));
        }
        expect(state.size).toBe(2);
        expect(most).toBe(4);
        expect(fewestAvailable).toBe(3);
        const sets = await replicaSets();
        expect(sets.map(([, r, rev]) => `${r}@${rev}`).sort()).toEqual(['0@1', '3@2']);
        expect(await activePods(alice.api)).toHaveLength(3);
      });

      it('rollout history lists both revisions and undo returns to the first template', async () => {
        const history = ok(await asAlice(['rollout', 'history', 'deployment/web']));
        expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
        const firstRS = (await replicaSets()).find(([, , rev]) => rev === '1')![0];
        expect(ok(await asAlice(['rollout', 'undo', 'deployment/web']))).toContain('deployment.apps/web rolled back');
        expect(await rollOut()).toContain('deployment "web" successfully rolled out');
        expect(ok(await asAlice(['rollout', 'history', 'deployment/web']))).toMatch(/REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
        const sets = await replicaSets();
        // The first ReplicaSet is reused, now at revision 3; no third one is made.
        expect(sets.find(([name]) => name === firstRS)).toEqual([firstRS, '3', '3']);
        expect(sets).toHaveLength(2);
        expect(ok(await asAlice(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']))).toBe('nginx');
      });

      it('rollout pause holds a template change until resume; rollout restart rolls a new ReplicaSet', async () => {
        expect(ok(await asAlice(['rollout', 'pause', 'deployment/web']))).toContain('deployment.apps/web paused');
        ok(await asAlice(['set', 'image', 'deployment/web', 'nginx=nginx:1.28']));
        await eventually('the paused condition', async () => ok(await asAlice(['get', 'deployment', 'web', '-o', 'jsonpath={.status.conditions[?(@.type=="Progressing")].reason}'])) === 'DeploymentPaused');
        expect(await replicaSets()).toHaveLength(2);
        expect(ok(await asAlice(['rollout', 'resume', 'deployment/web']))).toContain('deployment.apps/web resumed');
        expect(await rollOut()).toContain('successfully rolled out');
        expect(ok(await asAlice(['rollout', 'restart', 'deployment/web']))).toContain('deployment.apps/web restarted');
        expect(await rollOut()).toContain('successfully rolled out');
        const sets = await replicaSets();
        expect(sets).toHaveLength(4);
        expect(sets.filter(([, replicas]) => replicas !== '0')).toEqual([[expect.any(String), '3', '5']]);
      });

      it('scale up and down', async () => {
        expect(ok(await asAlice(['scale', 'deployment/web', '--replicas=5']))).toContain('deployment.apps/web scaled');
        await eventually('five pods', async () => (await activePods(alice.api)).length === 5);
        expect(await rollOut()).toContain('successfully rolled out');
        expect(parseTable(ok(await asAlice(['get', 'deployment', 'web']))).rows[0]).toMatchObject({ READY: '5/5' });
        expect(ok(await asAlice(['scale', 'deployment/web', '--replicas=2']))).toContain('deployment.apps/web scaled');
        await eventually('two pods', async () => (await activePods(alice.api)).length === 2);
        await eventually('READY 2/2', async () => parseTable(ok(await asAlice(['get', 'deployment', 'web']))).rows[0]?.['READY'] === '2/2');
      });

      it('deleting the deployment removes its ReplicaSets and pods; the other space did not move', async () => {
        expect(ok(await asAlice(['delete', 'deployment', 'web']))).toContain('deployment.apps "web" deleted');
        await eventually('the ReplicaSets and pods to be collected', async () => (await replicaSets()).length === 0 && (await listPods(alice.api, ns)).length === 0);
        expect(await bobsState()).toEqual(bobsBefore);
        expect(parseTable(ok(await asBob(['get', 'deployment', 'web']))).rows[0]).toMatchObject({ READY: '3/3' });
      });
    });

    it("kubectl drain evicts a space's pods as its PodDisruptionBudget allows, and leaves another space's pods on the node", async () => {
      const ns = 'drain';
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace(ns) })).status).toBe(201);
      const k = (args: string[], kubeconfig = alice.kubeconfig) => kubectl.run([...args, '-n', ns], { kubeconfig });
      ok(await k(['create', 'deployment', 'db', '--image=nginx', '--replicas=2']));
      ok(await k(['create', 'deployment', 'db', '--image=nginx', '--replicas=1'], bob.kubeconfig));
      ok(await k(['create', 'pdb', 'db', '--selector=app=db', '--min-available=1']));
      await eventually('the pods', async () => (await listPods(alice.api, ns)).length === 2 && (await listPods(bob.api, ns)).length === 1);
      // Nodes are the system's; the pods of both spaces run on the same one.
      expect((await cluster.api.request('POST', '/api/v1/nodes', { json: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'shared-node' } } })).status).toBe(201);
      for (const [tenant, user] of [['t1', alice], ['t2', bob]] as const) {
        for (const pod of await listPods(user.api, ns)) {
          const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name }, target: { kind: 'Node', name: 'shared-node' } };
          // 409: the scheduler placed it there first (the only node).
          expect([201, 409]).toContain((await cluster.api.request('POST', `/tenants/${tenant}/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/binding`, { json: binding })).status);
        }
        await markPodsReady(user.api, ns);
      }
      await eventually('one disruption allowed', async () => ok(await k(['get', 'pdb', 'db', '-o', 'jsonpath={.status.disruptionsAllowed}'])) === '1');
      const bobsPods = (await listPods(bob.api, ns)).map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`);
      // The system admin cordons the node in the system space (a space's view cannot patch nodes),
      // then drains it as seen from t1's space, where kubectl finds it already cordoned.
      ok(await kubectl.run(['cordon', 'shared-node'], { kubeconfig: cluster.server.adminKubeconfig }));
      const root = await userKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: 't1' });
      // No kubelet ends a pod on this node: evicted pods go at once, not after a grace period.
      const drain = kubectl.start(['drain', 'shared-node', '--ignore-daemonsets', '--grace-period=0', '--timeout=90s'], { kubeconfig: root.kubeconfig, timeoutMs: 100_000 });
      let done = false;
      void drain.exited.then(() => (done = true));
      // The second eviction waits until the ReplicaSet's replacement pod is ready.
      while (!done) {
        await markPodsReady(alice.api, ns);
        await delay(300);
      }
      root.api.close();
      // kubectl writes the progress to both streams.
      const out = ok(await drain.exited) + (await drain.exited).stderr;
      expect(out).toContain('node/shared-node already cordoned');
      expect(out).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
      expect(out).toContain('node/shared-node drained');
      expect((await listPods(bob.api, ns)).map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)).toEqual(bobsPods);
    });
  });
});
