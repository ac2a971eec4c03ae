/**
 * A second real client: Debian's python3-kubernetes (22.6.0) loads the admin kubeconfig (server,
 * CA, token) and creates, lists, watches (`watch.Watch().stream`, live) and deletes a configmap
 * through its typed CoreV1Api, on both backends (`fixtures/python_configmap.py`), and sends
 * quantities as JSON numbers (`fixtures/python_quantity.py`), registers an aggregated API as
 * charts do (`fixtures/python_apiservice.py`), and in a tenant's space, with that tenant's
 * kubeconfig, creates a CRD, waits for Established and drives its custom resources through
 * CustomObjectsApi and the dynamic client (`fixtures/python_crd.py`). Each script prints what it saw as JSON.
 */
import { spawnSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createTenants, grantAndWait, userKubeconfig } from './harness/spaces.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/**
 * A python3 that can `import kubernetes`: $PYTHON3, the one on the PATH, or Debian's own (a
 * pyenv or venv python on the PATH does not see Debian's packages). Missing fails in CI, skips
 * elsewhere with the reason printed, as etcd and kubectl do.
 */
function pythonForTests(): string | undefined {
  const candidates = [process.env.PYTHON3, 'python3', '/usr/bin/python3'].filter((c): c is string => Boolean(c));
  const found = candidates.find((python) => spawnSync(python, ['-c', 'import kubernetes'], { stdio: 'ignore', timeout: 30_000 }).status === 0);
  if (found) return found;
  const reason = `no python3 with the kubernetes client (tried ${candidates.join(', ')}; install python3-kubernetes)`;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI must run the python client tests`);
  console.warn(`skipping python client tests: ${reason}`);
  return undefined;
}

const python = pythonForTests();

interface ScriptResult {
  created: { name: string; uid: string; resourceVersion: string; data: Record<string, string> };
  listed: string[];
  events: Array<{ type: string; name: string; data: Record<string, string> }>;
  afterDelete: { status: number; reason?: string; kind?: string };
}

/** Runs a fixture script, killed after `timeoutMs` (its watch is bounded too, by timeoutSeconds). */
function runScript(script: string, args: string[], timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // HOME and PATH only: no proxy or kubeconfig settings of the machine leak in.
    const child = spawn(python!, [join(FIXTURES, script), ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.each(backendCases(python !== undefined))('python3-kubernetes on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    beforeAll(async () => {
      cluster = await startCluster(backend);
    });
    afterAll(() => cluster?.cleanup());

    it('creates, lists, watches and deletes a configmap', async () => {
      const ns = await cluster.newNamespace('python');
      // Another configmap with the same label in another namespace must not show up.
      const other = await cluster.newNamespace('python-other');
      await cluster.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'elsewhere', namespace: other, labels: { e2e: 'python' } } });

      const run = await runScript('python_configmap.py', [cluster.server.adminKubeconfig, ns, 'from-python']);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as ScriptResult;

      expect(result.created).toMatchObject({ name: 'from-python', data: { k: 'v1' }, resourceVersion: expect.stringMatching(/^\d+$/) });
      expect(result.listed).toEqual(['from-python']);
      // The watch saw the create, then drove a replace and a delete and saw both, in order.
      expect(result.events).toEqual([
        { type: 'ADDED', name: 'from-python', data: { k: 'v1' } },
        { type: 'MODIFIED', name: 'from-python', data: { k: 'v2' } },
        { type: 'DELETED', name: 'from-python', data: { k: 'v2' } },
      ]);
      // The client parsed the 404 body as a Status.
      expect(result.afterDelete).toEqual({ status: 404, reason: 'NotFound', kind: 'Status' });
      expect(await cluster.read(`/api/v1/namespaces/${ns}/configmaps/from-python`)).toBeNull();
    });

    it('sends quantities as JSON numbers, read back canonical; an error body is kube-apiserver’s bytes', async () => {
      const ns = await cluster.newNamespace('python-quantity');
      const run = await runScript('python_quantity.py', [cluster.server.adminKubeconfig, ns]);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { limits: Record<string, string>; missing: { status: number; body: string } };
      expect(result.limits).toEqual({ cpu: '500m', memory: '1500m' });
      expect(result.missing).toEqual({
        status: 404,
        body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"absent\\" not found","reason":"NotFound","details":{"name":"absent","kind":"pods"},"code":404}\n',
      });
    });

    it('creates, reads, lists and deletes an APIService through ApiregistrationV1Api', async () => {
      const run = await runScript('python_apiservice.py', [cluster.server.adminKubeconfig, 'metrics.example.com']);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { created: unknown; read: unknown; listed: string[]; afterDelete: unknown };
      expect(result.created).toEqual({ name: 'v1beta1.metrics.example.com', port: 443, uid: true });
      expect(result.read).toEqual({ group: 'metrics.example.com', service: 'kube-system/metrics-server' });
      // The local APIServices a real cluster lists, and the new one, in name order.
      expect(result.listed).toEqual(expect.arrayContaining(['v1.', 'v1.apps', 'v1beta1.metrics.example.com', 'v2.autoscaling']));
      expect(result.listed).toEqual([...result.listed].sort());
      expect(result.afterDelete).toEqual({ status: 404, reason: 'NotFound' });
    });

    it('creates a CRD in a space, waits for Established, and drives its custom resources with CustomObjectsApi and the dynamic client', async () => {
      await createTenants(cluster, 'py1', 'py2');
      const py1 = await userKubeconfig(cluster, { tenant: 'py1', user: 'alice' });
      try {
        await grantAndWait(cluster, { tenant: 'py1', clusterRole: 'cluster-admin', user: 'alice' }, py1.api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
        const run = await runScript('python_crd.py', [py1.kubeconfig, 'default']);
        expect(run.code, run.stderr).toBe(0);
        const result = JSON.parse(run.stdout) as Record<string, unknown>;
        expect(result).toEqual({
          crd: { name: 'crontabs.stable.example.com', scope: 'Namespaced' },
          established: { acceptedKind: 'CronTab', storedVersions: ['v1'], conditions: ['NamesAccepted', 'Established'] },
          customObjects: {
            created: { name: 'from-python', apiVersion: 'stable.example.com/v1', spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 } },
            got: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 },
            listed: ['from-python'],
            // The status subresource wrote the status only.
            status: { phase: 'Running', replicas: 1 },
            events: [
              { type: 'ADDED', name: 'from-python', replicas: 1, phase: null },
              { type: 'MODIFIED', name: 'from-python', replicas: 1, phase: 'Running' },
              { type: 'MODIFIED', name: 'from-python', replicas: 2, phase: 'Running' },
              { type: 'DELETED', name: 'from-python', replicas: 2, phase: 'Running' },
            ],
            afterDelete: { status: 404, reason: 'NotFound', message: 'crontabs.stable.example.com "from-python" not found' },
          },
          dynamic: { resource: { name: 'crontabs', namespaced: true, shortNames: ['ct'] }, got: 3, patched: 'patched', listed: ['from-dynamic'], afterDelete: [] },
        });
        // The CRD and its kind are py1's alone.
        expect((await cluster.read('/tenants/py2/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com'))).toBeNull();
      } finally {
        py1.api.close();
      }
    });
  });
});
