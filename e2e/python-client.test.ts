/**
 * A second real client: Debian's python3-kubernetes (22.6.0) loads the admin kubeconfig (server,
 * CA, token) and creates, lists, watches (`watch.Watch().stream`, live) and deletes a configmap
 * through its typed CoreV1Api, on both backends (`fixtures/python_configmap.py`), and sends
 * quantities as JSON numbers (`fixtures/python_quantity.py`), and registers an aggregated API as
 * charts do (`fixtures/python_apiservice.py`). Each script prints what it saw as JSON.
 */
import { spawnSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';

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
  });
});
