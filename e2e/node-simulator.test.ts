/**
 * The node simulator and what it drives, against the built server started with
 * `--simulate-nodes 3`, with stock kubectl (1.27 and the dispatcher's 1.33), on SQLite and on etcd:
 * simulated nodes Ready with leases; a pod placed on one turns Running 1/1 with an IP and has a
 * log; a waiting container answers kube's BadRequest; run-to-completion pods complete (or fail
 * with the exit code asked); graceful deletion; Endpoints and EndpointSlices of the ready pods;
 * node ports unique above the spaces; `kube-spaces simulate-nodes` as a process of its own.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { pod, type Manifest } from './harness/manifests.js';
import { CLI_PATH } from './harness/server.js';
import { eventually } from './harness/spaces.js';

const VERSIONS = ['1.27', 'dispatcher'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);
const SIM_NODES = ['sim-node-0', 'sim-node-1', 'sim-node-2'];

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** A pod placed on `node` (the scheduler's work, done here by the manifest). */
function placed(ns: string, name: string, node: string, extra: { labels?: Record<string, string>; restartPolicy?: string; annotations?: Record<string, string>; gates?: string[] } = {}): Manifest {
  const base = pod(ns, name, extra.labels ?? { app: name });
  return {
    ...base,
    metadata: { ...base.metadata, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: {
      ...(base['spec'] as object),
      nodeName: node,
      ...(extra.restartPolicy ? { restartPolicy: extra.restartPolicy } : {}),
      ...(extra.gates ? { readinessGates: extra.gates.map((conditionType) => ({ conditionType })) } : {}),
    },
  };
}

describe.each(backendCases(kubectlPath !== undefined))('node simulator on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('serve --simulate-nodes 3', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    const k = (args: string[], version: KubectlVersion = 'dispatcher') => kubectl.run(args, { version });
    const podOf = async (ns: string, name: string) => (await cluster.read(`/api/v1/namespaces/${ns}/pods/${name}`)) as { status?: Record<string, unknown>; metadata: Record<string, unknown> } | null;
    const phaseOf = async (ns: string, name: string) => (await podOf(ns, name))?.status?.['phase'];

    beforeAll(async () => {
      cluster = await startCluster(backend, { extraArgs: ['--simulate-nodes', '3', '--simulate-pod-runtime', '2s'] });
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
    });
    afterAll(async () => {
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it.each(VERSIONS)('kubectl %s lists the simulated nodes Ready, with their leases in kube-node-lease', async (version) => {
      await eventually('three Ready nodes', async () => {
        const rows = parseTable((await k(['get', 'nodes'], version)).stdout).rows;
        return SIM_NODES.every((n) => rows.some((r) => r['NAME'] === n && r['STATUS'] === 'Ready'));
      });
      const wide = parseTable(ok(await k(['get', 'nodes', '-o', 'wide', '-l', 'node-simulator.kube-spaces.io/simulated=true'], version)));
      expect(wide.rows.map((r) => [r['NAME'], r['VERSION'], r['INTERNAL-IP'], r['CONTAINER-RUNTIME']])).toEqual([
        ['sim-node-0', 'simulated', '10.240.0.1', 'simulated://kube-spaces'],
        ['sim-node-1', 'simulated', '10.240.0.2', 'simulated://kube-spaces'],
        ['sim-node-2', 'simulated', '10.240.0.3', 'simulated://kube-spaces'],
      ]);
      const leases = parseTable(ok(await k(['get', 'leases', '-n', 'kube-node-lease'], version)));
      expect(leases.rows.map((r) => [r['NAME'], r['HOLDER']])).toEqual(SIM_NODES.map((n) => [n, n]));
      const node = JSON.parse(ok(await k(['get', 'node', 'sim-node-0', '-o', 'json'], version))) as { status: { capacity: Record<string, string>; conditions: Array<{ type: string; status: string }> }; spec: { podCIDR: string } };
      expect(node.status.capacity).toMatchObject({ cpu: '32', memory: '256Gi', pods: '110' });
      expect(node.status.conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True']);
      expect(node.spec.podCIDR).toMatch(/^10\.244\.\d+\.0\/24$/);
    });

    it('runs a pod placed on a simulated node: Running 1/1 with an IP from the node, and a log', async () => {
      const ns = await cluster.newNamespace('run');
      await cluster.create(placed(ns, 'web', 'sim-node-1'));
      await eventually('web Running', async () => (await phaseOf(ns, 'web')) === 'Running');
      const row = parseTable(ok(await k(['get', 'pod', 'web', '-n', ns, '-o', 'wide']))).rows[0];
      expect(row).toMatchObject({ NAME: 'web', READY: '1/1', STATUS: 'Running', RESTARTS: '0', NODE: 'sim-node-1' });
      const node = JSON.parse(ok(await k(['get', 'node', 'sim-node-1', '-o', 'json']))) as { spec: { podCIDR: string } };
      expect(row?.['IP']?.startsWith(node.spec.podCIDR.replace('0/24', ''))).toBe(true);
      const status = (await podOf(ns, 'web'))!.status!;
      expect(status).toMatchObject({ hostIP: '10.240.0.2', qosClass: 'BestEffort', containerStatuses: [{ name: 'main', ready: true, started: true, restartCount: 0, image: 'nginx:1.27' }] });
      expect((status['conditions'] as Array<{ type: string }>).map((c) => c.type)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);

      for (const version of VERSIONS) {
        const log = ok(await k(['logs', 'web', '-n', ns], version));
        expect(log).toBe('container "main" started from image "nginx:1.27" on simulated node sim-node-1 (kube-spaces node simulator: no process runs, so there is no output of its own)\n');
      }
      expect(ok(await k(['logs', 'web', '-n', ns, '--timestamps']))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000000Z container "main" started/);
      const exec = await k(['exec', 'web', '-n', ns, '--', 'true']);
      expect(exec.code).not.toBe(0);
      expect(exec.stderr).toContain('this server runs no kubelets');
    });

    it('answers the log of a container that has not started with kube-apiserver\'s BadRequest', async () => {
      const ns = await cluster.newNamespace('waiting');
      // Placed on a node no simulator serves: nothing ever starts it.
      await cluster.create(placed(ns, 'stuck', 'nowhere'));
      const res = await k(['logs', 'stuck', '-n', ns]);
      expect(res.code).toBe(1);
      expect(res.stderr.trim()).toBe('Error from server (BadRequest): container "main" in pod "stuck" is waiting to start: ContainerCreating');
    });

    it('keeps a pod with a readiness gate not ready until its condition is True', async () => {
      const ns = await cluster.newNamespace('gates');
      await cluster.create(placed(ns, 'gated', 'sim-node-0', { gates: ['example.com/warm'] }));
      await eventually('gated Running', async () => (await phaseOf(ns, 'gated')) === 'Running');
      expect(parseTable(ok(await k(['get', 'pod', 'gated', '-n', ns, '-o', 'wide']))).rows[0]).toMatchObject({ READY: '1/1', 'READINESS GATES': '0/1' });
      const ready = async () => ((await podOf(ns, 'gated'))?.status?.['conditions'] as Array<{ type: string; status: string }>).find((c) => c.type === 'Ready')?.status;
      expect(await ready()).toBe('False');
      const patch = await cluster.api.request('PATCH', `/api/v1/namespaces/${ns}/pods/gated/status`, {
        body: JSON.stringify({ status: { conditions: [{ type: 'example.com/warm', status: 'True' }] } }),
        headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      });
      expect(patch.status, patch.body).toBe(200);
      await eventually('gated Ready', async () => (await ready()) === 'True');
    });

    it('completes run-to-completion pods, and fails them with the exit code asked', async () => {
      const ns = await cluster.newNamespace('finish');
      await cluster.create(placed(ns, 'once', 'sim-node-2', { restartPolicy: 'Never' }));
      await cluster.create(placed(ns, 'broken', 'sim-node-2', { restartPolicy: 'Never', annotations: { 'node-simulator.kube-spaces.io/exit-code': '3' } }));
      await eventually('once Succeeded', async () => (await phaseOf(ns, 'once')) === 'Succeeded');
      await eventually('broken Failed', async () => (await phaseOf(ns, 'broken')) === 'Failed');
      const rows = parseTable(ok(await k(['get', 'pods', '-n', ns]))).rows;
      expect(rows.map((r) => [r['NAME'], r['READY'], r['STATUS']])).toEqual([
        ['broken', '0/1', 'Error'],
        ['once', '0/1', 'Completed'],
      ]);
      expect(ok(await k(['logs', 'once', '-n', ns]))).toMatch(/\ncontainer "main" exited with code 0 \(Completed\)\n$/);
      // A finished pod has nothing to stop: it goes at once.
      ok(await k(['delete', 'pod', 'once', '-n', ns, '--wait=false']));
      expect(await podOf(ns, 'once')).toBeNull();
    });

    it('deletes a placed pod gracefully: marked with its grace period, then removed by the simulator', async () => {
      const ns = await cluster.newNamespace('graceful');
      await cluster.create(placed(ns, 'web', 'sim-node-0'));
      await eventually('web Running', async () => (await phaseOf(ns, 'web')) === 'Running');
      ok(await k(['delete', 'pod', 'web', '-n', ns, '--wait=false']));
      const marked = await podOf(ns, 'web');
      expect(marked?.metadata).toMatchObject({ deletionGracePeriodSeconds: 30, deletionTimestamp: expect.any(String) });
      // kubectl shows it Terminating while it waits (the simulator may be done first on a slow machine).
      const listed = ok(await k(['get', 'pods', '-n', ns]));
      if (listed.includes('web')) expect(parseTable(listed).rows[0]).toMatchObject({ NAME: 'web', STATUS: 'Terminating' });
      await eventually('web gone', async () => (await podOf(ns, 'web')) === null, 15_000);
      // An unscheduled pod (no node matches its selector, so the scheduler leaves it) has no kubelet to wait for.
      const pending = pod(ns, 'pending');
      await cluster.create({ ...pending, spec: { ...(pending['spec'] as object), nodeSelector: { 'example.com/no-such-node': 'true' } } });
      ok(await k(['delete', 'pod', 'pending', '-n', ns, '--wait=false']));
      expect(await podOf(ns, 'pending')).toBeNull();
    });

    it('gives a service Endpoints and EndpointSlices of the pods it selects, ready or not', async () => {
      const ns = await cluster.newNamespace('svc');
      await cluster.create(placed(ns, 'web-0', 'sim-node-0', { labels: { app: 'web' } }), placed(ns, 'web-1', 'sim-node-1', { labels: { app: 'web' } }));
      await cluster.create(placed(ns, 'web-cold', 'sim-node-2', { labels: { app: 'web' }, gates: ['example.com/never'] }), placed(ns, 'other', 'sim-node-2', { labels: { app: 'other' } }));
      for (const name of ['web-0', 'web-1', 'web-cold']) await eventually(`${name} Running`, async () => (await phaseOf(ns, name)) === 'Running');
      const ipOf = async (name: string) => (await podOf(ns, name))!.status!['podIP'] as string;
      const ready = [await ipOf('web-0'), await ipOf('web-1')].sort();
      ok(await k(['expose', 'pod', 'web-0', '-n', ns, '--name', 'web', '--port', '80', '--target-port', '8080', '--selector', 'app=web']));
      await eventually('endpoints of web', async () => (await k(['get', 'endpoints', 'web', '-n', ns])).code === 0);
      const row = parseTable(ok(await k(['get', 'endpoints', 'web', '-n', ns]))).rows[0];
      expect(row?.['ENDPOINTS']).toBe(ready.map((ip) => `${ip}:8080`).join(','));
      const ep = (await cluster.read(`/api/v1/namespaces/${ns}/endpoints/web`)) as { subsets: Array<{ addresses: Array<{ ip: string }>; notReadyAddresses: Array<{ ip: string }>; ports: unknown[] }>; metadata: { annotations: Record<string, string> } };
      expect(ep.subsets).toHaveLength(1);
      expect(ep.subsets[0]!.notReadyAddresses.map((a) => a.ip)).toEqual([await ipOf('web-cold')]);
      expect(ep.subsets[0]!.ports).toEqual([{ port: 8080, protocol: 'TCP' }]);
      expect(ep.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']).toBeDefined();

      const slices = JSON.parse(ok(await k(['get', 'endpointslices', '-n', ns, '-l', 'kubernetes.io/service-name=web', '-o', 'json']))) as {
        items: Array<{ metadata: { labels: Record<string, string>; ownerReferences: Array<{ kind: string; name: string }> }; endpoints: Array<{ addresses: string[]; conditions: Record<string, boolean> }>; ports: unknown[] }>;
      };
      expect(slices.items).toHaveLength(1);
      const slice = slices.items[0]!;
      expect(slice.metadata.labels).toMatchObject({ 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io', 'kubernetes.io/service-name': 'web' });
      expect(slice.metadata.ownerReferences).toMatchObject([{ kind: 'Service', name: 'web' }]);
      expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
      expect(slice.endpoints.filter((e) => e.conditions['ready']).map((e) => e.addresses[0]).sort()).toEqual(ready);
      expect(slice.endpoints).toHaveLength(3);

      // A pod being deleted leaves the Endpoints at once (the slice keeps it as terminating until it is gone).
      ok(await k(['delete', 'pod', 'web-1', '-n', ns, '--wait=false']));
      await eventually('endpoints without web-1', async () => {
        const current = (await cluster.read(`/api/v1/namespaces/${ns}/endpoints/web`)) as typeof ep;
        return current.subsets[0]?.addresses.length === 1;
      });
      await eventually('web-1 gone', async () => (await podOf(ns, 'web-1')) === null, 15_000);
      // A service without a selector keeps the Endpoints written by hand.
      const manualService = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'manual', namespace: ns }, spec: { ports: [{ port: 80 }] } };
      const manual = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'manual', namespace: ns }, subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 80 }] }] };
      expect((await cluster.api.request('POST', `/api/v1/namespaces/${ns}/services`, { json: manualService })).status).toBe(201);
      expect((await cluster.api.request('POST', `/api/v1/namespaces/${ns}/endpoints`, { json: manual })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 1000));
      expect(parseTable(ok(await k(['get', 'endpoints', 'manual', '-n', ns]))).rows[0]?.['ENDPOINTS']).toBe('192.0.2.10:80');
    });

    it('allocates node ports from one range above the spaces, refusing one taken', async () => {
      const a = await cluster.newNamespace('np');
      const b = await cluster.newNamespace('np');
      ok(await k(['create', 'service', 'nodeport', 'web', '-n', a, '--tcp=80:80', '--node-port=30080']));
      const taken = await k(['create', 'service', 'nodeport', 'web', '-n', b, '--tcp=80:80', '--node-port=30080']);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
      ok(await k(['create', 'service', 'nodeport', 'auto', '-n', b, '--tcp=80:80']));
      const auto = parseTable(ok(await k(['get', 'service', 'auto', '-n', b]))).rows[0]?.['PORT(S)'] ?? '';
      expect(auto).toMatch(/^80:(3[0-2]\d{3})\/TCP$/);
      ok(await k(['delete', 'service', 'web', '-n', a]));
      ok(await k(['create', 'service', 'nodeport', 'web', '-n', b, '--tcp=80:80', '--node-port=30080']));
    });

    it('runs as a process of its own: kube-spaces simulate-nodes', async () => {
      const child = spawn(process.execPath, [CLI_PATH, 'simulate-nodes', '--kubeconfig', cluster.server.adminKubeconfig, '--nodes', '1', '--simulate-node-name-prefix', 'extra-', '--simulate-node-cpu', '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      try {
        await eventually('node extra-0 Ready', async () => {
          const res = await k(['get', 'nodes', 'extra-0']);
          return res.code === 0 && parseTable(res.stdout).rows[0]?.['STATUS'] === 'Ready';
        }, 60_000); // the command loads the whole server's modules first, seconds on a busy machine
        const node = JSON.parse(ok(await k(['get', 'node', 'extra-0', '-o', 'json']))) as { status: { capacity: Record<string, string> }; spec: { podCIDR: string } };
        expect(node.status.capacity['cpu']).toBe('4');
        // Its own pod range: none of the in-process simulator's nodes holds it.
        const cidrs = await Promise.all(SIM_NODES.map(async (n) => (JSON.parse(ok(await k(['get', 'node', n, '-o', 'json']))) as { spec: { podCIDR: string } }).spec.podCIDR));
        expect(cidrs).not.toContain(node.spec.podCIDR);
        const ns = await cluster.newNamespace('extra');
        await cluster.create(placed(ns, 'web', 'extra-0'));
        await eventually('web on extra-0 Running', async () => (await phaseOf(ns, 'web')) === 'Running');
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      expect(output).toContain('node simulator serving');
    });
  });
});
