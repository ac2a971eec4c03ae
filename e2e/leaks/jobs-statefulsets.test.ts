/**
 * Cross-space leak suite: workload controllers. Every correlation a controller makes (a pod to its
 * Job or StatefulSet by owner reference or labels, a job to its CronJob) stays inside one space:
 * t2 objects that forge a t1 owner's uid, copy its selector labels or take its pod names are never
 * counted, adopted or deleted by t1's controllers, and t1's objects never show in t2. A tenant may
 * not create a DaemonSet at all (nodes are shared by every space).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const container = { name: 'c', image: 'busybox' };
const job = (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [container] } } } });
const cronJob = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'hello' }, spec: { schedule: '0 0 1 1 *', jobTemplate: { spec: job('x').spec } } };
const statefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } },
};

interface Obj {
  metadata: { name: string; uid: string; labels?: Record<string, string>; ownerReferences?: Array<{ uid: string }> };
  status?: Record<string, unknown>;
}

describe.each(backendCases())('workload controller leaks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('t2 imitating t1', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;
    const base = '/api/v1/namespaces/default';
    const batch = '/apis/batch/v1/namespaces/default';
    const apps = '/apis/apps/v1/namespaces/default';
    const get = async (user: UserCredentials, path: string) => {
      const res = await user.api.request('GET', path);
      expect(res.status, res.body).toBe(200);
      return res.json<Obj & { items: Obj[] }>();
    };
    const post = async (user: UserCredentials, path: string, json: unknown) => {
      const res = await user.api.request('POST', path, { json });
      expect(res.status, res.body).toBe(201);
      return res.json<Obj>();
    };
    let t1Job: Obj;
    let t1Cron: Obj;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      t1Job = await post(alice, `${batch}/jobs`, job('pi'));
      t1Cron = await post(alice, `${batch}/cronjobs`, cronJob);
      await post(alice, `${apps}/statefulsets`, statefulSet);
      await eventually('t1 job’s pod', async () => (await get(alice, `${base}/pods?labelSelector=job-name%3Dpi`)).items.length === 1);
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
    });

    it("t2 pods forging t1's job uid or copying its selector labels are never counted by t1's job", async () => {
      const uid = t1Job.metadata.uid;
      const labels = { 'batch.kubernetes.io/controller-uid': uid, 'controller-uid': uid, 'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi' };
      // An owner reference naming t1's job: t2's garbage collector finds no such owner in t2 and collects the pod.
      await post(bob, `${base}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'forged', labels, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid, controller: true }] },
        spec: { restartPolicy: 'Never', containers: [container] },
      });
      // The selector's labels without a reference, finished: nothing in t2 selects it, and t1's job never sees it.
      await post(bob, `${base}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'copycat', labels }, spec: { restartPolicy: 'Never', containers: [container] } });
      const patched = await bob.api.request('PATCH', `${base}/pods/copycat/status`, { body: JSON.stringify({ status: { phase: 'Succeeded' } }), headers: { 'Content-Type': 'application/merge-patch+json' } });
      expect(patched.status, patched.body).toBe(200);
      await eventually('t2 to collect the pod with a dangling owner', async () => (await bob.api.request('GET', `${base}/pods/forged`)).status === 404);
      await new Promise((r) => setTimeout(r, 1_000));
      const j = await get(alice, `${batch}/jobs/pi`);
      expect(j.status).toMatchObject({ active: 1 });
      expect(j.status?.succeeded ?? 0).toBe(0);
      expect(j.status?.conditions).toBeUndefined();
      const t1Pods = (await get(alice, `${base}/pods?labelSelector=job-name%3Dpi`)).items.map((p) => p.metadata.name);
      expect(t1Pods).toHaveLength(1);
      expect(t1Pods).not.toContain('copycat');
      expect((await get(bob, `${base}/pods/copycat`)).metadata.ownerReferences).toBeUndefined();
    });

    it("a t2 job forging t1's cron job as owner never joins its active list", async () => {
      const forgedJob = { ...job('hello-1'), metadata: { name: 'hello-1', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: t1Cron.metadata.uid, controller: true }] } };
      await post(bob, `${batch}/jobs`, forgedJob);
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await get(alice, `${batch}/cronjobs/hello`)).status?.active).toBeUndefined();
      expect((await get(alice, `${batch}/jobs`)).items.map((j) => j.metadata.name)).toEqual(['pi']);
    });

    it("t2's pods named and labelled like t1's StatefulSet's are neither adopted nor counted", async () => {
      await post(bob, `${base}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [container] } });
      await eventually('t1 web-0', async () => (await get(alice, `${base}/pods?labelSelector=app%3Dweb`)).items.length === 1);
      const s = await get(alice, `${apps}/statefulsets/web`);
      expect(s.status).toMatchObject({ replicas: 1 });
      const theirs = await get(bob, `${base}/pods/web-1`);
      expect(theirs.metadata.ownerReferences).toBeUndefined();
      expect((await get(bob, `${base}/pods`)).items.map((p) => p.metadata.name).sort()).toEqual(['copycat', 'web-1']);
    });

    it('a tenant cannot create a DaemonSet, and sees no daemon pods of the system', async () => {
      const ds = {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'spy' },
        spec: { selector: { matchLabels: { app: 'spy' } }, template: { metadata: { labels: { app: 'spy' } }, spec: { containers: [container] } } },
      };
      const res = await bob.api.request('POST', `${apps}/daemonsets`, { json: ds });
      expect(res.status, res.body).toBe(403);
      expect(res.json()).toMatchObject({ reason: 'Forbidden', details: { name: 'spy', group: 'apps', kind: 'daemonsets' } });
      expect((await get(bob, '/apis/apps/v1/daemonsets')).items).toEqual([]);
    });
  });
});
