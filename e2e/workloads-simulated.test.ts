/**
 * The workload path as a user meets it on a server started with `--simulate-nodes 3`, nothing
 * written by the test but what kubectl sends: in two spaces holding the same names,
 * `kubectl create deployment web --image=nginx --replicas=3` is scheduled onto simulated nodes,
 * runs, and `rollout status` completes with READY 3/3; `kubectl expose` gets Endpoints of exactly
 * that space's pod IPs; `kubectl get events` shows the scheduler's and the controllers' events of
 * its own space only; a Job completes (`kubectl wait --for=condition=complete`); `set image` rolls
 * within maxSurge/maxUnavailable (checked on every ReplicaSet event of a watch), `rollout history`
 * and `undo`, `scale` up and down, a foreground delete, while t2's pods never move; `kubectl get
 * all` shows `service/kubernetes`. Stock kubectl (the dispatcher's), on SQLite and on etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient, replicaSets, type ReplicaSet } from '../src/client/index.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { namespace } from './harness/manifests.js';
import { createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher']);
const NS = 'shop';

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

interface PodJson {
  metadata: { name: string; uid: string };
  spec: { nodeName?: string };
  status: { phase?: string; podIP?: string };
}

describe.each(backendCases(kubectlPath !== undefined))('workloads on simulated nodes on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('two spaces with the same names', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    const users: Record<'t1' | 't2', UserCredentials> = {} as never;
    const k = (tenant: 't1' | 't2', args: string[]) => kubectl.run([...args, '-n', NS], { kubeconfig: users[tenant].kubeconfig });
    const podsOf = async (tenant: 't1' | 't2') => (JSON.parse(ok(await k(tenant, ['get', 'pods', '-l', 'app=web', '-o', 'json']))) as { items: PodJson[] }).items;

    beforeAll(async () => {
      cluster = await startCluster(backend, { extraArgs: ['--simulate-nodes', '3', '--simulate-pod-runtime', '1s'] });
      await createTenants(cluster, 't1', 't2');
      for (const tenant of ['t1', 't2'] as const) {
        users[tenant] = await userKubeconfig(cluster, { tenant, user: 'dev' });
        await grantAndWait(cluster, { tenant, clusterRole: 'cluster-admin', user: 'dev' }, users[tenant].api, '/api/v1/namespaces');
        expect((await users[tenant].api.request('POST', '/api/v1/namespaces', { json: namespace(NS) })).status).toBe(201);
      }
      kubectl = await createKubectl({ kubeconfig: users.t1.kubeconfig });
    });

    afterAll(async () => {
      for (const user of Object.values(users)) user.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('rolls a deployment out to READY 3/3 on simulated nodes in each space, replicas spread over the nodes', async () => {
      for (const tenant of ['t1', 't2'] as const) expect(ok(await k(tenant, ['create', 'deployment', 'web', '--image=nginx', '--replicas=3']))).toContain('deployment.apps/web created');
      for (const tenant of ['t1', 't2'] as const) {
        expect(ok(await k(tenant, ['rollout', 'status', 'deployment/web', '--timeout=90s']))).toContain('deployment "web" successfully rolled out');
        const row = parseTable(ok(await k(tenant, ['get', 'deployment', 'web']))).rows[0]!;
        expect([row['READY'], row['UP-TO-DATE'], row['AVAILABLE']]).toEqual(['3/3', '3', '3']);
        const pods = await podsOf(tenant);
        expect(pods.map((p) => p.status.phase)).toEqual(['Running', 'Running', 'Running']);
        expect(new Set(pods.map((p) => p.spec.nodeName))).toEqual(new Set(['sim-node-0', 'sim-node-1', 'sim-node-2']));
      }
    });

    it('exposes the deployment: Endpoints hold exactly its own space’s pod IPs', async () => {
      for (const tenant of ['t1', 't2'] as const) expect(ok(await k(tenant, ['expose', 'deployment', 'web', '--port=80']))).toContain('service/web exposed');
      const ips = { t1: (await podsOf('t1')).map((p) => p.status.podIP!).sort(), t2: (await podsOf('t2')).map((p) => p.status.podIP!).sort() };
      // Pod IPs come from the nodes' CIDRs, shared by every space: the two spaces' pods never share one.
      expect(ips.t1.filter((ip) => ips.t2.includes(ip))).toEqual([]);
      for (const tenant of ['t1', 't2'] as const) {
        await eventually(`${tenant}'s endpoints`, async () => {
          const endpoints = JSON.parse(ok(await k(tenant, ['get', 'endpoints', 'web', '-o', 'json']))) as { subsets?: Array<{ addresses?: Array<{ ip: string }> }> };
          const addresses = (endpoints.subsets ?? []).flatMap((s) => s.addresses ?? []).map((a) => a.ip).sort();
          return JSON.stringify(addresses) === JSON.stringify(ips[tenant]);
        });
      }
    });

    it('shows the scheduler’s and the controllers’ events, each space its own', async () => {
      const uids = { t1: new Set((await podsOf('t1')).map((p) => p.metadata.uid)), t2: new Set((await podsOf('t2')).map((p) => p.metadata.uid)) };
      for (const tenant of ['t1', 't2'] as const) {
        const table = ok(await k(tenant, ['get', 'events']));
        expect(table.split('\n')[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
        expect(table).toMatch(/\sNormal\s+ScalingReplicaSet\s+deployment\/web\s+Scaled up replica set web-[a-z0-9]+ from 0 to 3\n/);
        expect(table).toMatch(/\sNormal\s+SuccessfulCreate\s+replicaset\/web-[a-z0-9]+\s+Created pod: web-/);
        const events = JSON.parse(ok(await k(tenant, ['get', 'events', '-o', 'json']))) as { items: Array<{ reason: string; message: string; involvedObject: { uid?: string } }> };
        const other = tenant === 't1' ? uids.t2 : uids.t1;
        expect(events.items.filter((e) => other.has(e.involvedObject.uid ?? ''))).toEqual([]);
        const scheduled = events.items.filter((e) => e.reason === 'Scheduled').map((e) => e.message);
        expect(scheduled).toHaveLength(3);
        for (const message of scheduled) expect(message).toMatch(new RegExp(`^Successfully assigned ${NS}/web-[a-z0-9]+-[a-z0-9]{5} to sim-node-[0-2]$`));
      }
    });

    it('completes a Job', async () => {
      expect(ok(await k('t1', ['create', 'job', 'pi', '--image=busybox']))).toContain('job.batch/pi created');
      expect(ok(await k('t1', ['wait', '--for=condition=complete', 'job/pi', '--timeout=60s']))).toContain('job.batch/pi condition met');
      const row = parseTable(ok(await k('t1', ['get', 'job', 'pi']))).rows[0]!;
      expect([row['STATUS'], row['COMPLETIONS']]).toEqual(['Complete', '1/1']);
      expect((await k('t2', ['get', 'job', 'pi'])).code).not.toBe(0);
    });

    it('rolls a new image within maxSurge and maxUnavailable (watched), undoes it, scales, and deletes in the foreground; t2 never moves', async () => {
      const t2Pods = (await podsOf('t2')).map((p) => p.metadata.uid).sort();
      const client = await KubeClient.fromKubeconfig({ path: users.t1.kubeconfig });
      const sets = new Map<string, ReplicaSet>();
      const violations: string[] = [];
      const controller = new AbortController();
      // 3 replicas at kube's defaults (25%): at most 1 surge pod, none unavailable.
      const watching = (async () => {
        for await (const event of client.namespace(NS).resource(replicaSets).watch({ labelSelector: 'app=web', signal: controller.signal })) {
          if (event.type === 'RELISTED') for (const rs of event.objects) sets.set(rs.metadata.name!, rs);
          else if (event.type === 'DELETED') sets.delete(event.object.metadata.name!);
          else if (event.type !== 'BOOKMARK') sets.set(event.object.metadata.name!, event.object);
          const desired = [...sets.values()].reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
          const available = [...sets.values()].reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
          if (sets.size > 0 && (desired > 4 || available < 3)) violations.push(`desired ${desired}, available ${available}`);
        }
      })().catch((err: unknown) => (controller.signal.aborted ? undefined : Promise.reject(err)));
      try {
        await eventually('the watch to see the ReplicaSet', async () => sets.size === 1);
        expect(ok(await k('t1', ['set', 'image', 'deployment/web', 'nginx=nginx:1.27']))).toContain('deployment.apps/web image updated');
        expect(ok(await k('t1', ['rollout', 'status', 'deployment/web', '--timeout=90s']))).toContain('successfully rolled out');
        await eventually('the old pods to end', async () => (await podsOf('t1')).length === 3);
        const history = ok(await k('t1', ['rollout', 'history', 'deployment/web']));
        expect(history).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
        expect(ok(await k('t1', ['rollout', 'undo', 'deployment/web']))).toContain('deployment.apps/web rolled back');
        expect(ok(await k('t1', ['rollout', 'status', 'deployment/web', '--timeout=90s']))).toContain('successfully rolled out');
        expect(ok(await k('t1', ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']))).toBe('nginx');
        expect(violations).toEqual([]);
      } finally {
        controller.abort();
        await watching;
        client.close();
      }

      for (const replicas of [5, 2]) {
        expect(ok(await k('t1', ['scale', 'deployment/web', `--replicas=${replicas}`]))).toContain('deployment.apps/web scaled');
        expect(ok(await k('t1', ['rollout', 'status', 'deployment/web', '--timeout=90s']))).toContain('successfully rolled out');
        await eventually(`${replicas} pods`, async () => (await podsOf('t1')).length === replicas);
      }
      expect(ok(await k('t1', ['delete', 'deployment', 'web', '--cascade=foreground', '--timeout=90s']))).toContain('deployment.apps "web" deleted');
      expect(ok(await k('t1', ['get', 'replicasets,pods', '-l', 'app=web', '-o', 'name']))).toBe('');
      expect((await podsOf('t2')).map((p) => p.metadata.uid).sort()).toEqual(t2Pods);
    });

    it('shows service/kubernetes in each space’s default namespace', async () => {
      for (const tenant of ['t1', 't2'] as const) {
        const all = ok(await kubectl.run(['get', 'all', '-n', 'default'], { kubeconfig: users[tenant].kubeconfig }));
        expect(all).toMatch(/service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s/);
      }
    });
  });
});
