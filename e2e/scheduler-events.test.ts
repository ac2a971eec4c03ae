/**
 * The scheduler and events, end to end with stock kubectl (1.27 and 1.33) on both backends: pods
 * are bound to the system's nodes and `kubectl get events`, `kubectl events` and `kubectl describe
 * pod` show the Scheduled event; a pod no node fits shows FailedScheduling with kube-scheduler's
 * exact message and the PodScheduled condition; same-named pods in two spaces are scheduled
 * independently and neither space sees the other's events; an event written through
 * events.k8s.io/v1 is a core/v1 event and the other way round, watches included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { namespace, pod, type Manifest } from './harness/manifests.js';
import { createTenants, eventually, grantAndWait, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

function node(name: string, taints: Array<Record<string, string>> = []): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: taints.length > 0 ? { taints } : {},
    status: {
      capacity: { cpu: '2', memory: '4Gi', pods: '20' },
      allocatable: { cpu: '2', memory: '4Gi', pods: '20' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    },
  };
}

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The column names of kubectl's first output line. */
const headerOf = (text: string): string[] => text.split('\n')[0]!.trim().split(/\s{2,}/);

interface CoreEvent {
  metadata: { name: string; uid: string };
  reason?: string;
  message?: string;
  type?: string;
  involvedObject?: { name?: string; uid?: string };
  reportingComponent?: string;
  source?: { component?: string };
}

describe.each(backendCases(kubectlPath !== undefined))('scheduler and events on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('two spaces, three nodes', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let kubectl: Kubectl;

    const podOf = async (user: UserCredentials, name: string) => (await user.api.request('GET', `/api/v1/namespaces/ns1/pods/${name}`)).json<{ metadata: { uid: string }; spec: { nodeName?: string }; status?: { conditions?: Array<Record<string, string>> } }>();
    const eventsAbout = async (user: UserCredentials, name: string) =>
      (await user.api.request('GET', `/api/v1/namespaces/ns1/events?fieldSelector=involvedObject.name%3D${name}`)).json<{ items: CoreEvent[] }>().items;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('ns1') })).status).toBe(201);
      // Nodes are the system's, created as a kubelet (or the node simulator) would register them.
      for (const n of [node('node-a'), node('node-b'), node('node-gpu', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }])]) {
        const res = await cluster.api.request('POST', '/api/v1/nodes', { json: n });
        expect(res.status, res.body).toBe(201);
      }
      kubectl = await createKubectl({ kubeconfig: alice.kubeconfig });
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('binds a pod and shows Scheduled in get events, events and describe pod (kubectl 1.27 and 1.33)', async () => {
      ok(await kubectl.run(['run', 'web', '--image=nginx', '-n', 'ns1']));
      await eventually('web to be bound', async () => (await podOf(alice, 'web')).spec.nodeName !== undefined);
      const placed = (await podOf(alice, 'web')).spec.nodeName!;
      expect(['node-a', 'node-b']).toContain(placed);
      const message = `Successfully assigned ns1/web to ${placed}`;
      await eventually('the Scheduled event', async () => (await eventsAbout(alice, 'web')).some((e) => e.reason === 'Scheduled'));
      for (const version of VERSIONS) {
        const table = ok(await kubectl.run(['get', 'events', '-n', 'ns1', '--field-selector', 'involvedObject.name=web'], { version }));
        expect(headerOf(table)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
        const wide = parseTable(ok(await kubectl.run(['get', 'events', '-n', 'ns1', '--field-selector', 'involvedObject.name=web', '-o', 'wide'], { version })));
        expect(wide.rows).toContainEqual(expect.objectContaining({ TYPE: 'Normal', REASON: 'Scheduled', OBJECT: 'pod/web', MESSAGE: message, SOURCE: expect.stringMatching(/^default-scheduler, default-scheduler-/), COUNT: '1' }));
        const events = ok(await kubectl.run(['events', '-n', 'ns1', '--for', 'pod/web'], { version }));
        expect(headerOf(events)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
        expect(events).toMatch(new RegExp(`Normal\\s+Scheduled\\s+Pod/web\\s+${message}`));
        const described = ok(await kubectl.run(['describe', 'pod', 'web', '-n', 'ns1'], { version }));
        expect(described).toMatch(new RegExp(`Normal\\s+Scheduled\\s+\\S+\\s+default-scheduler\\s+${message}`));
        expect(described).toMatch(new RegExp(`Node:\\s+${placed}`));
      }
    });

    it('tells an impossible pod why, in kube-scheduler’s words, as an event and its PodScheduled condition', async () => {
      const big = pod('ns1', 'big');
      (big.spec as { containers: Array<Record<string, unknown>> }).containers[0]!.resources = { requests: { cpu: '3' } };
      expect((await alice.api.request('POST', '/api/v1/namespaces/ns1/pods', { json: big })).status).toBe(201);
      const message =
        '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.';
      await eventually('FailedScheduling', async () => (await eventsAbout(alice, 'big')).some((e) => e.reason === 'FailedScheduling'));
      const failed = (await eventsAbout(alice, 'big')).find((e) => e.reason === 'FailedScheduling')!;
      expect(failed).toMatchObject({ type: 'Warning', message, reportingComponent: 'default-scheduler' });
      await eventually('the PodScheduled condition', async () => (await podOf(alice, 'big')).status?.conditions?.some((c) => c.type === 'PodScheduled') ?? false);
      expect((await podOf(alice, 'big')).status?.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }));
      for (const version of VERSIONS) {
        const described = ok(await kubectl.run(['describe', 'pod', 'big', '-n', 'ns1'], { version }));
        expect(described).toContain('Warning  FailedScheduling');
        expect(described.replace(/\s+/g, ' ')).toContain(message);
        expect(ok(await kubectl.run(['get', 'pod', 'big', '-n', 'ns1', '-o', 'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}'], { version }))).toBe(message);
      }
    });

    it('schedules same-named pods of two spaces independently; neither space sees the other’s events', async () => {
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces/ns1/pods', { json: pod('ns1', 'twin') })).status).toBe(201);
      for (const u of [alice, bob]) await eventually('twin to be Scheduled', async () => (await eventsAbout(u, 'twin')).some((e) => e.reason === 'Scheduled'));
      const [mine, theirs] = await Promise.all([podOf(alice, 'twin'), podOf(bob, 'twin')]);
      expect(mine.metadata.uid).not.toBe(theirs.metadata.uid);
      expect((await eventsAbout(alice, 'twin')).map((e) => e.involvedObject?.uid)).toEqual([mine.metadata.uid]);
      expect((await eventsAbout(bob, 'twin')).map((e) => e.involvedObject?.uid)).toEqual([theirs.metadata.uid]);
      // bob's space has no event about alice's pods, by either API, nor through the alternative URL forms.
      const bobs = ok(await kubectl.run(['get', 'events', '-n', 'ns1', '-o', 'name'], { kubeconfig: bob.kubeconfig }));
      const alices = (await alice.api.request('GET', '/api/v1/namespaces/ns1/events')).json<{ items: CoreEvent[] }>().items.map((e) => e.metadata.name);
      for (const name of alices) expect(bobs).not.toContain(name);
      expect(ok(await kubectl.run(['get', 'events.events.k8s.io', '-n', 'ns1', '-o', 'name'], { kubeconfig: bob.kubeconfig }))).not.toContain('web.');
      for (const path of ['/api/v1/tenants/t1/namespaces/ns1/events', '/tenants/t1/apis/events.k8s.io/v1/namespaces/ns1/events', '/api/v1/tenants/all/events']) {
        expect((await bob.api.request('GET', path)).status, path).toBe(403);
      }
    });

    it('serves one event storage through events.k8s.io/v1 and core/v1, watches included', async () => {
      const watch = kubectl.start(['get', 'events', '-n', 'ns1', '--watch-only', '-o', 'custom-columns=NAME:.metadata.name,MESSAGE:.message', '-v=6']);
      await watch.waitForLog(/watch=true/);
      const structured = {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'web.structured', namespace: 'ns1' },
        eventTime: '2026-01-01T10:00:00.000000Z',
        reportingController: 'example.com/checker',
        reportingInstance: 'checker-1',
        action: 'Check',
        reason: 'Checked',
        regarding: { kind: 'Pod', namespace: 'ns1', name: 'web' },
        note: 'written through events.k8s.io',
        type: 'Normal',
      };
      ok(await kubectl.run(['create', '-f', '-'], { stdin: JSON.stringify(structured) }));
      const core = (await alice.api.request('GET', '/api/v1/namespaces/ns1/events/web.structured')).json<CoreEvent & { involvedObject: unknown }>();
      expect(core).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'written through events.k8s.io', reportingComponent: 'example.com/checker', involvedObject: { kind: 'Pod', name: 'web' } });
      await watch.waitForOutput(/web\.structured\s+written through events\.k8s\.io/);
      await watch.stop();

      const legacy = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.legacy', namespace: 'ns1' }, involvedObject: { kind: 'Pod', namespace: 'ns1', name: 'web' }, reason: 'Poked', message: 'written through core/v1', type: 'Normal', source: { component: 'poker' }, count: 3 };
      ok(await kubectl.run(['create', '-f', '-'], { stdin: JSON.stringify(legacy) }));
      const v1 = JSON.parse(ok(await kubectl.run(['get', 'events.v1.events.k8s.io', 'web.legacy', '-n', 'ns1', '-o', 'json']))) as Record<string, unknown>;
      expect(v1).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'written through core/v1', deprecatedSource: { component: 'poker' }, deprecatedCount: 3, regarding: { name: 'web' } });
      expect(v1).not.toHaveProperty('message');
      const table = parseTable(ok(await kubectl.run(['get', 'events', '-n', 'ns1', '-o', 'wide'])));
      expect(table.row('web.legacy')).toMatchObject({ REASON: 'Poked', MESSAGE: 'written through core/v1', COUNT: '3', SOURCE: 'poker' });
      expect(table.row('web.structured')).toMatchObject({ REASON: 'Checked', SOURCE: 'example.com/checker, checker-1' });
      // Each API keeps its own checks: the structured one refuses what core/v1 accepts.
      const strict = await kubectl.run(['create', '-f', '-'], { stdin: JSON.stringify({ ...structured, metadata: { name: 'web.strict', namespace: 'ns1' }, type: 'Bad' }) });
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('type: Invalid value: "": has invalid value: Bad');
    });
  });
});
