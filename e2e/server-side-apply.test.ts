/**
 * Server-side apply with stock kubectl (issue "Writes as kubectl makes them", item 3): the same
 * sequence of manifest edits as the client-side test, re-applied with `--server-side`; a conflict
 * between two field managers that fails without `--force-conflicts` and succeeds with it; a field
 * removed from the applied manifest leaving the object; and the client-side to server-side
 * migration kubectl performs. kubectl 1.27 and 1.33 on SQLite and on a real etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

interface Edits {
  replicas?: number;
  image?: string;
  env?: Array<{ name: string; value: string }>;
  labels?: Record<string, string>;
}

function deployment(ns: string, edits: Edits = {}): string {
  const container: Record<string, unknown> = { name: 'web', image: edits.image ?? 'nginx:1.25', ports: [{ containerPort: 80 }] };
  if (edits.env) container.env = edits.env;
  const spec: Record<string, unknown> = {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } },
  };
  if (edits.replicas !== undefined) spec.replicas = edits.replicas;
  return stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns, labels: edits.labels ?? { app: 'web' } }, spec });
}

interface Live {
  metadata: { labels?: Record<string, string>; managedFields?: Array<{ manager: string; operation: string }> };
  spec: { replicas: number; template: { spec: { containers: Array<{ image: string; env?: unknown[] }> } } };
}

describe.each(backendCases(kubectlPath !== undefined))('server-side apply on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
    });
    afterAll(async () => {
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    async function apply(version: KubectlVersion, manifest: string, ...flags: string[]) {
      return kubectl.run(['apply', '--server-side', '-f', '-', ...flags], { stdin: manifest, version });
    }

    async function live(ns: string): Promise<Live> {
      const got = await kubectl.run(['get', 'deployment', 'web', '-n', ns, '-o', 'json', '--show-managed-fields']);
      expect(got.code, got.stderr).toBe(0);
      return JSON.parse(got.stdout) as Live;
    }

    /** The managed fields of users' writes, not the deployment controller's (manager kube-spaces-client). */
    const byUsers = (obj: Live) => (obj.metadata.managedFields ?? []).filter((m) => m.manager !== 'kube-spaces-client');

    it.each(VERSIONS)('applies, re-applies edits and drops removed fields (kubectl %s)', async (version) => {
      const ns = await cluster.newNamespace(`ssa-${version.replace('.', '')}`);
      let result = await apply(version, deployment(ns, { replicas: 2, env: [{ name: 'A', value: '1' }], labels: { app: 'web', tier: 'front' } }));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('deployment.apps/web serverside-applied');
      let obj = await live(ns);
      expect(byUsers(obj).map((m) => `${m.manager}/${m.operation}`)).toEqual(['kubectl/Apply']);

      result = await apply(version, deployment(ns, { replicas: 2, image: 'nginx:1.26' }));
      expect(result.code, result.stderr).toBe(0);
      obj = await live(ns);
      expect(obj.spec.template.spec.containers[0]!.image).toBe('nginx:1.26');
      // env and the tier label were only in the earlier manifest, owned by nobody else: gone.
      expect(obj.spec.template.spec.containers[0]!.env).toBeUndefined();
      expect(obj.metadata.labels).toEqual({ app: 'web' });
      expect(obj.spec.replicas).toBe(2);
    });

    it.each(VERSIONS)('refuses a conflicting apply until --force-conflicts (kubectl %s)', async (version) => {
      const ns = await cluster.newNamespace(`ssa-conflict-${version.replace('.', '')}`);
      expect((await apply(version, deployment(ns, { replicas: 2 }))).code).toBe(0);
      const scaled = await kubectl.run(['scale', 'deployment', 'web', '-n', ns, '--replicas=5'], { version });
      expect(scaled.code, scaled.stderr).toBe(0);

      const refused = await apply(version, deployment(ns, { replicas: 3 }));
      expect(refused.code).toBe(1);
      // kubectl scale sends no fieldManager: the manager is named after its User-Agent.
      expect(refused.stderr).toMatch(/Apply failed with 1 conflict: conflict with "kubectl[^"]*"( using apps\/v1)?: \.spec\.replicas/);
      expect(refused.stderr).toContain('--force-conflicts');
      expect((await live(ns)).spec.replicas).toBe(5);

      const forced = await apply(version, deployment(ns, { replicas: 3 }), '--force-conflicts');
      expect(forced.code, forced.stderr).toBe(0);
      expect((await live(ns)).spec.replicas).toBe(3);
    });

    it('lets a second field manager own its own fields without conflict', async () => {
      const ns = await cluster.newNamespace('ssa-managers');
      expect((await apply('1.33', deployment(ns, { replicas: 2 }))).code).toBe(0);
      const other = stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns, labels: { team: 'blue' } } });
      const result = await apply('1.33', other, '--field-manager=labeller');
      expect(result.code, result.stderr).toBe(0);
      const obj = await live(ns);
      expect(obj.metadata.labels).toEqual({ app: 'web', team: 'blue' });
      expect(byUsers(obj).map((m) => m.manager).sort()).toEqual(['kubectl', 'labeller']);
    });

    it('migrates a client-side applied object to server-side apply', async () => {
      const ns = await cluster.newNamespace('ssa-migrate');
      const csa = await kubectl.run(['apply', '-f', '-'], { stdin: deployment(ns, { replicas: 2, env: [{ name: 'A', value: '1' }] }), version: '1.33' });
      expect(csa.code, csa.stderr).toBe(0);
      const ssa = await apply('1.33', deployment(ns, { replicas: 2 }));
      expect(ssa.code, ssa.stderr).toBe(0);
      const obj = await live(ns);
      expect(obj.spec.template.spec.containers[0]!.env).toBeUndefined();
      expect(obj.metadata.managedFields?.some((m) => m.manager === 'kubectl' && m.operation === 'Apply')).toBe(true);
    });

    it('requires a field manager for apply patches (422)', async () => {
      const res = await cluster.api.request('PATCH', '/api/v1/namespaces/default/configmaps/x', {
        body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
        headers: { 'content-type': 'application/apply-patch+yaml' },
      });
      expect(res.status).toBe(422);
      expect(res.json()).toMatchObject({ reason: 'Invalid', message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' });
    });
  });
});
