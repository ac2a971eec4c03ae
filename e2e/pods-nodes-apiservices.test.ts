/**
 * Pod subresources kubectl uses (ephemeralcontainers through `kubectl debug`, binding, eviction
 * through `kubectl drain`, `get --subresource=status`, exec/attach/portforward answers), Nodes as
 * kubectl's own tests write them on a kubelet-less server, and APIServices with the local ones a
 * real cluster lists. kubectl 1.27 and 1.33 (the dispatcher's pick), on SQLite and on etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { pod, type Manifest } from './harness/manifests.js';
import { eventually } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27']);

const VERSIONS: Array<{ label: string; version: KubectlVersion }> = [
  { label: '1.27', version: '1.27' },
  { label: '1.33 (picked by the dispatcher)', version: 'dispatcher' },
];

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** Keeps the scheduler's pods (this file's pending ones) off the test's node: only the drained pod tolerates it. */
const DRAIN_TAINT = { key: 'e2e.kube-spaces.io/drain', value: 'true', effect: 'NoSchedule' };

function node(name: string, extra: { unschedulable?: boolean; labels?: Record<string, string> } = {}): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
    spec: { ...(extra.unschedulable ? { unschedulable: true } : {}), taints: [DRAIN_TAINT] },
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' }],
      addresses: [
        { type: 'InternalIP', address: '10.0.0.7' },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.1.0-18-amd64',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.7.13',
        kubeletVersion: 'v1.33.0',
        kubeProxyVersion: '',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

describe.each(backendCases(kubectlPath !== undefined))('pods, nodes and APIServices on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster(backend);
    });
    afterAll(() => cluster?.cleanup());

    const podPath = (ns: string, name: string, sub = ''): string => `/api/v1/namespaces/${ns}/pods/${name}${sub ? `/${sub}` : ''}`;
    /** Marks a pod Running and Ready, as a kubelet would, so budgets count it. */
    const runReady = async (ns: string, name: string): Promise<void> => {
      const res = await cluster.api.request('PATCH', podPath(ns, name, 'status'), {
        body: JSON.stringify({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(res.status, res.body).toBe(200);
    };
    const bind = (ns: string, name: string, target: string) =>
      cluster.api.request('POST', podPath(ns, name, 'binding'), { json: { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: target } } });
    /** A pod of app `db` the scheduler leaves alone (another scheduler's name): unbound, an eviction deletes it at once. */
    const manualPod = (ns: string, name: string): Manifest => {
      const base = pod(ns, name, { app: 'db' });
      return { ...base, spec: { ...(base['spec'] as object), schedulerName: 'e2e-manual' } };
    };
    const pdbPath = (ns: string, name: string) => `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/${name}`;
    /** Waits until the budget's status (kept by the disruption controller) has `want`'s fields. */
    const budgetReaches = (ns: string, name: string, want: Record<string, unknown>) =>
      eventually(`budget ${name} status ${JSON.stringify(want)}`, async () => {
        const status = ((await cluster.read(pdbPath(ns, name))) as { status?: Record<string, unknown> } | null)?.status ?? {};
        return Object.entries(want).every(([k, v]) => status[k] === v);
      });
    /** A budget over the `db` pods; the disruption controller computes its status. */
    const budget = async (ns: string, name: string, spec: { minAvailable?: number; maxUnavailable?: number }, want: Record<string, unknown>): Promise<void> => {
      const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: ns }, spec: { ...spec, selector: { matchLabels: { app: 'db' } } } };
      const created = await cluster.api.request('POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, { json: pdb });
      expect(created.status, created.body).toBe(201);
      await budgetReaches(ns, name, { observedGeneration: 1, ...want });
    };
    const evict = (ns: string, name: string, apiVersion = 'policy/v1') => cluster.api.request('POST', podPath(ns, name, 'eviction'), { json: { apiVersion, kind: 'Eviction', metadata: { name, namespace: ns } } });

    describe('the binding subresource', () => {
      it('places a pod on a node once, marking it scheduled, and refuses a second placement', async () => {
        const ns = await cluster.newNamespace('bind');
        // Another scheduler's pod: the scheduler does not bind it first.
        const p = pod(ns, 'p');
        await cluster.create({ ...p, spec: { ...(p['spec'] as object), schedulerName: 'e2e-manual' } });
        const first = await bind(ns, 'p', 'node-a');
        expect(first.status, first.body).toBe(201);
        expect(first.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
        const stored = await cluster.read(podPath(ns, 'p'));
        expect(stored).toMatchObject({ spec: { nodeName: 'node-a' }, status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } });
        const second = await bind(ns, 'p', 'node-b');
        expect(second.status).toBe(409);
        expect(second.json()).toMatchObject({ reason: 'Conflict', message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-a"', details: { name: 'p', kind: 'pods/binding' } });
      });

      it('answers 400 when the body names another pod', async () => {
        const ns = await cluster.newNamespace('bind');
        // Another scheduler's pod: the scheduler does not bind it first.
        const p = pod(ns, 'p');
        await cluster.create({ ...p, spec: { ...(p['spec'] as object), schedulerName: 'e2e-manual' } });
        const res = await cluster.api.request('POST', podPath(ns, 'p', 'binding'), { json: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { name: 'n' } } });
        expect(res.status).toBe(400);
        expect(res.json()).toMatchObject({ message: 'name in URL does not match name in Binding object' });
      });
    });

    describe('the eviction subresource', () => {
      it('deletes a pod no budget covers', async () => {
        const ns = await cluster.newNamespace('evict');
        await cluster.create(pod(ns, 'web'));
        await runReady(ns, 'web');
        const res = await evict(ns, 'web');
        expect(res.status, res.body).toBe(201);
        expect(await cluster.read(podPath(ns, 'web'))).toBeNull();
      });

      it('refuses with 429 when the budget allows no disruption, and takes one disruption when it allows', async () => {
        const ns = await cluster.newNamespace('evict');
        await cluster.create(manualPod(ns, 'db-0'));
        await runReady(ns, 'db-0');
        await budget(ns, 'db', { minAvailable: 1 }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
        const refused = await evict(ns, 'db-0');
        expect(refused.status).toBe(429);
        expect(refused.json()).toEqual({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: "Cannot evict pod as it would violate the pod's disruption budget.",
          reason: 'TooManyRequests',
          details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 1 healthy pods and has 1 currently' }] },
          code: 429,
        });
        expect(await cluster.read(podPath(ns, 'db-0'))).not.toBeNull();

        // A second healthy pod: the controller allows one disruption.
        await cluster.create(manualPod(ns, 'db-1'));
        await runReady(ns, 'db-1');
        await budgetReaches(ns, 'db', { disruptionsAllowed: 1, currentHealthy: 2, expectedPods: 2 });
        const evicted = await evict(ns, 'db-0', 'policy/v1beta1');
        expect(evicted.status, evicted.body).toBe(201);
        expect(await cluster.read(podPath(ns, 'db-0'))).toBeNull();
        const pdb = await cluster.read(pdbPath(ns, 'db'));
        expect(pdb).toMatchObject({ status: { disruptionsAllowed: 0, conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }] } });
      });
    });

    describe('exec, attach and portforward', () => {
      it('answer a Status saying why nothing can serve them', async () => {
        const ns = await cluster.newNamespace('exec');
        await cluster.create(pod(ns, 'p'));
        const unplaced = await cluster.api.request('POST', `${podPath(ns, 'p', 'exec')}?command=ls&stdout=true`);
        expect(unplaced.status).toBe(400);
        expect(unplaced.json()).toMatchObject({ reason: 'BadRequest', message: 'pod p does not have a host assigned' });
        const wrongContainer = await cluster.api.request('GET', `${podPath(ns, 'p', 'attach')}?container=nope`);
        expect(wrongContainer.json()).toMatchObject({ code: 400, message: 'container nope is not valid for pod p' });
        expect((await bind(ns, 'p', 'node-a')).status).toBe(201);
        const placed = await cluster.api.request('POST', podPath(ns, 'p', 'portforward'));
        expect(placed.status).toBe(503);
        expect(placed.json()).toMatchObject({ reason: 'ServiceUnavailable', message: expect.stringContaining('no kubelet serves node "node-a"') });
      });
    });

    describe('discovery', () => {
      it("lists the pods' subresources with their kinds, as kube-apiserver does", async () => {
        const res = await cluster.api.request('GET', '/api/v1');
        const resources = res.json<{ resources: Array<{ name: string; kind: string; group?: string; verbs: string[] }> }>().resources;
        const pods = Object.fromEntries(resources.filter((r) => r.name.startsWith('pods/')).map((r) => [r.name, [r.kind, r.group ?? '', r.verbs.join(',')]]));
        expect(pods).toEqual({
          'pods/attach': ['PodAttachOptions', '', 'create,get'],
          'pods/binding': ['Binding', '', 'create'],
          'pods/ephemeralcontainers': ['Pod', '', 'get,patch,update'],
          'pods/eviction': ['Eviction', 'policy', 'create'],
          'pods/exec': ['PodExecOptions', '', 'create,get'],
          'pods/log': ['Pod', '', 'get'],
          'pods/portforward': ['PodPortForwardOptions', '', 'create,get'],
          'pods/status': ['Pod', '', 'get,patch,update'],
        });
        expect(resources.find((r) => r.name === 'nodes')).toMatchObject({ kind: 'Node', namespaced: false, shortNames: ['no'] });
      });
    });

    describe.each(VERSIONS)('kubectl $label', ({ version }) => {
      let kubectl: Kubectl;
      const k = (args: string[], options: { stdin?: string; timeoutMs?: number } = {}): Promise<KubectlResult> => kubectl.run(args, { version, ...options });
      const tag = version === 'dispatcher' ? '133' : '127';

      beforeAll(async () => {
        kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      });
      afterAll(() => kubectl?.cleanup());

      it("get --subresource=status prints the pod's own columns", async () => {
        const ns = await cluster.newNamespace('status');
        await cluster.create(pod(ns, 'p'));
        const table = parseTable(ok(await k(['get', 'pod', 'p', '-n', ns, '--subresource=status'])));
        expect(table.header).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
        expect(table.rows[0]).toMatchObject({ NAME: 'p', READY: '0/1', STATUS: 'Pending' });
      });

      it('debug adds an ephemeral container; debug -it waits for it instead of crashing', async () => {
        const ns = await cluster.newNamespace('debug');
        await cluster.create(pod(ns, 'p'));
        const out = await k(['debug', `pod/p`, '-n', ns, '--image=busybox', '-c', 'dbg']);
        expect(out.code, out.stderr).toBe(0);
        const stored = await cluster.read(podPath(ns, 'p'));
        expect(stored).toMatchObject({ spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } });

        // With -it kubectl waits for the container to run, which needs a kubelet: it adds the container,
        // then watches the pod. Reaching that watch (logged at -v=6) means it did not crash on the way.
        const interactive = kubectl.start(['debug', '-it', 'pod/p', '-n', ns, '--image=busybox', '-c', 'dbg2', '-v=6'], { version, timeoutMs: 30_000 });
        await interactive.waitForLog(/pods\?\S*fieldSelector=metadata\.name%3Dp\S*watch=true\S* (status=)?"?200 OK/);
        const result = await interactive.stop();
        expect(result.stderr).not.toMatch(/panic|invalid memory address|^error:/m);
        expect(((await cluster.read(podPath(ns, 'p'))) as { spec: { ephemeralContainers: Array<{ name: string }> } }).spec.ephemeralContainers.map((c) => c.name)).toEqual(['dbg', 'dbg2']);

        // The subresource reads and replaces the whole pod, as kube-apiserver serves it.
        const read = await cluster.api.request('GET', podPath(ns, 'p', 'ephemeralcontainers'));
        expect(read.status, read.body).toBe(200);
        const current = read.json<{ kind: string; spec: { ephemeralContainers: Array<Record<string, unknown>> } }>();
        expect(current.kind).toBe('Pod');
        current.spec.ephemeralContainers.push({ name: 'dbg3', image: 'alpine', terminationMessagePolicy: 'File' });
        const replaced = await cluster.api.request('PUT', podPath(ns, 'p', 'ephemeralcontainers'), { json: current });
        expect(replaced.status, replaced.body).toBe(200);
        expect(replaced.json<typeof current>().spec.ephemeralContainers.map((c) => c.name)).toEqual(['dbg', 'dbg2', 'dbg3']);
        // Existing ephemeral containers may not be changed through the subresource.
        const changed = await cluster.api.request('PATCH', podPath(ns, 'p', 'ephemeralcontainers'), {
          body: JSON.stringify([{ op: 'replace', path: '/spec/ephemeralContainers/0/image', value: 'alpine' }]),
          headers: { 'Content-Type': 'application/json-patch+json' },
        });
        expect(changed.status).toBe(422);
        expect(changed.json()).toMatchObject({ message: expect.stringContaining('existing ephemeral containers "dbg" may not be changed') });
      });

      it('exec into a pod that no node runs says so', async () => {
        const ns = await cluster.newNamespace('exec');
        await cluster.create(pod(ns, 'p'));
        const res = await k(['exec', 'p', '-n', ns, '--', 'ls']);
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('pod p does not have a host assigned');
      });

      it('creates, lists, cordons, drains and deletes nodes', async () => {
        const name = `node-${tag}-${backend}`;
        ok(await k(['create', '-f', '-'], { stdin: JSON.stringify(node(name, { labels: { 'node-role.kubernetes.io/worker': '' } })) }));
        const table = parseTable(ok(await k(['get', 'node', name, '-o', 'wide'])));
        expect(table.header).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']);
        expect(table.rows[0]).toMatchObject({ NAME: name, STATUS: 'Ready', ROLES: 'worker', VERSION: 'v1.33.0', 'INTERNAL-IP': '10.0.0.7', 'EXTERNAL-IP': '<none>', 'OS-IMAGE': 'Debian GNU/Linux 12 (bookworm)', 'KERNEL-VERSION': '6.1.0-18-amd64', 'CONTAINER-RUNTIME': 'containerd://1.7.13' });
        expect(ok(await k(['describe', 'node', name]))).toContain('Kubelet Version:            v1.33.0');

        const ns = await cluster.newNamespace('drain');
        // Placed by hand, not by the scheduler (another scheduler's name); no kubelet (nor the node
        // simulator) ends pods on this node: with a grace period the evicted pod would wait for one.
        const db = pod(ns, 'db-0', { app: 'db' });
        await cluster.create({ ...db, spec: { ...(db.spec as object), schedulerName: 'e2e-manual', terminationGracePeriodSeconds: 0, tolerations: [{ ...DRAIN_TAINT, operator: 'Equal' }] } });
        expect((await bind(ns, 'db-0', name)).status).toBe(201);
        await runReady(ns, 'db-0');
        // minAvailable as a number: kube counts bare pods for it (maxUnavailable needs the pods' controller's scale).
        await budget(ns, 'db', { minAvailable: 0 }, { disruptionsAllowed: 1, currentHealthy: 1 });
        const drained = ok(await k(['drain', name, '--force', '--timeout=20s']));
        expect(drained).toContain(`pod/db-0 evicted`);
        expect(parseTable(ok(await k(['get', 'nodes', name]))).rows[0]).toMatchObject({ STATUS: 'Ready,SchedulingDisabled' });
        expect(await cluster.read(`/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/db`)).toMatchObject({ status: { disruptionsAllowed: 0 } });

        ok(await k(['uncordon', name]));
        ok(await k(['replace', '-f', '-'], { stdin: JSON.stringify(node(name, { labels: { 'kubernetes.io/role': 'edge' } })) }));
        expect(parseTable(ok(await k(['get', 'nodes', name]))).rows[0]).toMatchObject({ ROLES: 'edge' });
        ok(await k(['delete', 'node', name]));
        expect(await cluster.read(`/api/v1/nodes/${name}`)).toBeNull();
      });

      it('lists the local APIServices and creates, gets and deletes an aggregated one', async () => {
        const table = parseTable(ok(await k(['get', 'apiservices'])));
        expect(table.header).toEqual(['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
        const names = table.rows.map((r) => r.NAME);
        expect(names).toEqual(expect.arrayContaining(['v1.', 'v1.apps', 'v1.apiregistration.k8s.io', 'v2.autoscaling', 'v1.rbac.authorization.k8s.io']));
        expect(table.rows.find((r) => r.NAME === 'v1.apps')).toMatchObject({ SERVICE: 'Local', AVAILABLE: 'True' });

        const name = `v1beta1.metrics${tag}.k8s.io`;
        const apiService = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec: { group: `metrics${tag}.k8s.io`, version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server' }, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true } };
        ok(await k(['create', '-f', '-'], { stdin: JSON.stringify(apiService) }));
        expect(parseTable(ok(await k(['get', 'apiservice', name]))).rows[0]).toMatchObject({ NAME: name, SERVICE: 'kube-system/metrics-server', AVAILABLE: 'Unknown' });
        expect(await cluster.read(`/apis/apiregistration.k8s.io/v1/apiservices/${name}`)).toMatchObject({ spec: { service: { port: 443 } } });
        ok(await k(['delete', 'apiservice', name]));
        const bad = await k(['create', '-f', '-'], { stdin: JSON.stringify({ ...apiService, metadata: { name: 'wrong.name' } }) });
        expect(bad.stderr).toContain('must be `spec.version+"."+spec.group`');
      });
    });
  });
});
