/**
 * Writes as kubectl makes them (kubectl-contract.md sections 4, 9 and 10): client-side
 * `kubectl apply` of a deployment and of edits to its manifest, `kubectl patch` of every type,
 * `set image`, `rollout restart`, `edit`, `diff`, `--dry-run=server`, and the 409 that drives
 * apply's retry loop. Stock kubectl 1.27, 1.32 and 1.33 against the built server on SQLite and
 * on a real etcd; every case works in a namespace of its own.
 *
 * Expected objects are written out by hand as a real cluster holds them, defaults included.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './harness/spaces.js';
import { stringify } from 'yaml';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';

const VERSIONS = ['1.27', '1.32', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What the user wrote first: two containers, two ports and two env vars on the first. */
function manifestV1(ns: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns, labels: { app: 'web', tier: 'front' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25',
              ports: [{ containerPort: 80 }, { containerPort: 443 }],
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
            { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', '3600'] },
          ],
        },
      },
    },
  };
}

/** The first edit: new image, port 443 → 8080, env B and the `tier` label removed. */
function manifestV2(ns: string, order: 'web-first' | 'sidecar-first' = 'web-first'): Json {
  const web = { name: 'web', image: 'nginx:1.26', ports: [{ containerPort: 80 }, { containerPort: 8080 }], env: [{ name: 'A', value: '1' }] };
  const sidecar = { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', '3600'] };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: ns, labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: order === 'web-first' ? [web, sidecar] : [sidecar, web] } },
    },
  };
}

/** Container fields a real cluster fills in (image tags are pinned, so IfNotPresent). */
const CONTAINER_DEFAULTS = { imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };

/**
 * `spec` of the deployment after applying manifestV2, as a real cluster holds it. (A real 1.33
 * apiserver also prints `creationTimestamp: null` in the template's metadata, the zero value of
 * a timestamp; this server leaves the zero timestamp out, which kubectl reads the same.)
 */
function liveSpecV2(order: 'web-first' | 'sidecar-first' = 'web-first'): Json {
  const web = {
    name: 'web',
    image: 'nginx:1.26',
    ports: [
      { containerPort: 80, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'TCP' },
    ],
    env: [{ name: 'A', value: '1' }],
    ...CONTAINER_DEFAULTS,
  };
  const sidecar = { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', '3600'], ...CONTAINER_DEFAULTS };
  return {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: order === 'web-first' ? [web, sidecar] : [sidecar, web],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  };
}

interface Deployment {
  metadata: { resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    replicas: number;
    template: {
      metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: { containers: Array<{ name: string; image: string; env?: Json[] }> };
    };
  };
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Asserts exit code 0 (showing stderr otherwise) and returns stdout. */
function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

function yaml(manifest: Json): string {
  return stringify(manifest);
}

describe.each(backendCases(kubectlPath !== undefined))('apply and patch on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let scratch: string;
    beforeAll(async () => {
      cluster = await startCluster(backend);
      scratch = await mkdtemp(join(tmpdir(), 'kube-spaces-apply-'));
    });
    afterAll(async () => {
      await cluster?.cleanup();
      if (scratch) await rm(scratch, { recursive: true, force: true });
    });

    describe.each(VERSIONS)('kubectl %s', (version) => {
      let kubectl: Kubectl;
      const k = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<KubectlResult> => kubectl.run(args, { version, ...options });
      const live = async (ns: string, name = 'web'): Promise<Deployment> => JSON.parse(ok(await k(['get', 'deployment', name, '-n', ns, '-o', 'json']))) as Deployment;
      const container = (d: Deployment, name: string) => d.spec.template.spec.containers.find((c) => c.name === name);
      /** A namespace holding the deployment of manifestV1, applied. */
      /** Until the deployment controller has seen the latest generation (its writes would change resourceVersion meanwhile). */
      const settled = (ns: string) =>
        eventually('the deployment controller to observe the deployment', async () => {
          const d = (await live(ns)) as Deployment & { metadata: { generation?: number }; status?: { observedGeneration?: number } };
          return d.status?.observedGeneration === d.metadata.generation;
        });
      const applied = async (prefix: string): Promise<string> => {
        const ns = await cluster.newNamespace(prefix);
        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV1(ns)) }))).toBe('deployment.apps/web created\n');
        await settled(ns);
        return ns;
      };
      /** Annotations but the deployment controller's own (`deployment.kubernetes.io/revision`). */
      const userAnnotations = (d: Deployment) => Object.keys(d.metadata.annotations ?? {}).filter((key) => !key.startsWith('deployment.kubernetes.io/'));

      beforeAll(async () => {
        kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      });
      afterAll(() => kubectl?.cleanup());

      it('apply creates with the last-applied annotation, and an identical apply is unchanged', async () => {
        const ns = await applied('apply');
        const created = await live(ns);
        // kubectl's annotation: the manifest as compact JSON with empty annotations, and a newline.
        const annotation = created.metadata.annotations?.[LAST_APPLIED] ?? '';
        expect(annotation.endsWith('}\n')).toBe(true);
        const v1 = manifestV1(ns) as { metadata: Record<string, Json> };
        expect(JSON.parse(annotation)).toEqual({ ...v1, metadata: { ...v1.metadata, annotations: {} } });

        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV1(ns)) }))).toBe('deployment.apps/web unchanged\n');
        expect((await live(ns)).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      });

      it('re-applied edits (image, ports, env, a label, container order) leave what a real cluster holds', async () => {
        const ns = await applied('edits');

        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV2(ns)) }))).toBe('deployment.apps/web configured\n');
        const edited = await live(ns);
        expect(edited.spec).toEqual(liveSpecV2());
        expect(edited.metadata.labels).toEqual({ app: 'web' });
        expect(userAnnotations(edited)).toEqual([LAST_APPLIED]);
        expect(JSON.stringify(edited)).not.toContain('$setElementOrder');
        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV2(ns)) }))).toBe('deployment.apps/web unchanged\n');

        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV2(ns, 'sidecar-first')) }))).toBe('deployment.apps/web configured\n');
        expect((await live(ns)).spec).toEqual(liveSpecV2('sidecar-first'));
        expect(ok(await k(['apply', '-f', '-'], { stdin: yaml(manifestV2(ns, 'sidecar-first')) }))).toBe('deployment.apps/web unchanged\n');
      });

      it('apply adopts an object created without the annotation, with kubectl’s warning', async () => {
        const ns = await cluster.newNamespace('adopt');
        expect(ok(await k(['create', '-f', '-'], { stdin: yaml(manifestV1(ns)) }))).toBe('deployment.apps/web created\n');
        const result = await k(['apply', '-f', '-'], { stdin: yaml(manifestV2(ns)) });
        expect(ok(result)).toBe('deployment.apps/web configured\n');
        expect(result.stderr).toContain(`missing the ${LAST_APPLIED} annotation`);
        // Without a last-applied configuration nothing is known to delete: env B stays.
        expect(container(await live(ns), 'web')).toMatchObject({ image: 'nginx:1.26', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] });
      });

      it('patch --type strategic merges lists by key (a new item first) and deletes with $patch', async () => {
        const ns = await applied('patch-strategic');
        const addEnv = { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'C', value: '3' }] }] } } } };
        expect(ok(await k(['patch', 'deployment', 'web', '-n', ns, '--type', 'strategic', '-p', JSON.stringify(addEnv)]))).toBe('deployment.apps/web patched\n');
        expect(container(await live(ns), 'web')?.env).toEqual([
          { name: 'C', value: '3' },
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ]);

        const dropSidecar = { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } };
        ok(await k(['patch', 'deployment', 'web', '-n', ns, '-p', JSON.stringify(dropSidecar)]));
        expect((await live(ns)).spec.template.spec.containers.map((c) => c.name)).toEqual(['web']);

        // On the scale subresource the patch follows the Scale's schema (and kubectl names the Scale).
        const scale = ['patch', 'deployment', 'web', '-n', ns, '--subresource=scale', '--type', 'strategic', '-p', '{"spec":{"replicas":4}}'];
        expect(ok(await k(scale))).toBe('scale.autoscaling/web patched\n');
        expect((await live(ns)).spec.replicas).toBe(4);
      });

      it('patch --type merge and --type json', async () => {
        const ns = await applied('patch-merge-json');
        const merge = { metadata: { labels: { tier: null, team: 'a' } }, spec: { replicas: 3 } };
        expect(ok(await k(['patch', 'deployment', 'web', '-n', ns, '--type', 'merge', '-p', JSON.stringify(merge)]))).toBe('deployment.apps/web patched\n');
        const merged = await live(ns);
        expect(merged.metadata.labels).toEqual({ app: 'web', team: 'a' });
        expect(merged.spec.replicas).toBe(3);

        const json = [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' }];
        expect(ok(await k(['patch', 'deployment', 'web', '-n', ns, '--type', 'json', '-p', JSON.stringify(json)]))).toBe('deployment.apps/web patched\n');
        expect(container(await live(ns), 'web')?.image).toBe('nginx:1.27');
      });

      it('patches that cannot apply are refused in Go’s words (structured merge, evanphx/json-patch)', async () => {
        const ns = await applied('patch-refused');
        const wrongType = await k(['patch', 'deployment', 'web', '-n', ns, '-p', '{"metadata":{"labels":"invalid"}}']);
        expect(wrongType.code).toBe(1);
        expect(wrongType.stderr.trim()).toBe('The request is invalid: patch: Invalid value: "map[metadata:map[labels:invalid]]": cannot restore map from string');
        const noPath = await k(['patch', 'deployment', 'web', '-n', ns, '--type', 'json', '-p', '[{"op":"replace","value":1}]']);
        expect(noPath.code).toBe(1);
        expect(noPath.stderr).toContain('replace operation failed to decode path: operation missing path field: missing value');
        const notOperations = await k(['patch', 'deployment', 'web', '-n', ns, '--type', 'json', '-p', '[5]']);
        expect(notOperations.code).toBe(1);
        expect(notOperations.stderr).toContain('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
      });

      it('set image changes one container and rollout restart stamps the template', async () => {
        const ns = await applied('set-rollout');
        expect(ok(await k(['set', 'image', 'deployment/web', 'web=nginx:1.27', '-n', ns]))).toBe('deployment.apps/web image updated\n');
        const updated = await live(ns);
        expect(container(updated, 'web')?.image).toBe('nginx:1.27');
        expect(container(updated, 'sidecar')?.image).toBe('busybox:1.36');

        expect(ok(await k(['rollout', 'restart', 'deployment/web', '-n', ns]))).toBe('deployment.apps/web restarted\n');
        const restarted = await live(ns);
        expect(restarted.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(restarted.spec.template.metadata.labels).toEqual({ app: 'web' });
      });

      it('edit saves what the editor changed', async () => {
        const ns = await applied('edit');
        const editor = join(scratch, `editor-${version}-${backend}.sh`);
        await writeFile(editor, "#!/bin/sh\nsed -i 's/image: busybox:1.36/image: busybox:1.37/' \"$1\"\n");
        await chmod(editor, 0o755);
        expect(ok(await k(['edit', 'deployment', 'web', '-n', ns], { env: { EDITOR: editor } }))).toBe('deployment.apps/web edited\n');
        const edited = await live(ns);
        expect(container(edited, 'sidecar')?.image).toBe('busybox:1.37');
        expect(container(edited, 'web')?.image).toBe('nginx:1.25');
      });

      it('diff shows the change (exit 1) and changes nothing; no change is exit 0', async () => {
        const ns = await applied('diff');
        const before = await live(ns);
        const result = await k(['diff', '-f', '-'], { stdin: yaml(manifestV2(ns)) });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stdout).toMatch(/^-\s+image: nginx:1\.25$/m);
        expect(result.stdout).toMatch(/^\+\s+image: nginx:1\.26$/m);
        expect(result.stdout).toMatch(/^-\s+- containerPort: 443$/m);
        const after = await live(ns);
        expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
        expect(container(after, 'web')?.image).toBe('nginx:1.25');

        const same = await k(['diff', '-f', '-'], { stdin: yaml(manifestV1(ns)) });
        expect(same.code, same.stderr).toBe(0);
        expect(same.stdout).toBe('');
      });

      it('--dry-run=server create, apply and delete persist nothing', async () => {
        const ns = await applied('dry-run');
        const before = await live(ns);
        const other = manifestV1(ns) as { metadata: Record<string, Json> };
        const dry = { ...other, metadata: { ...other.metadata, name: 'dry' } };

        expect(ok(await k(['create', '-f', '-', '--dry-run=server'], { stdin: yaml(dry) }))).toBe('deployment.apps/dry created (server dry run)\n');
        expect(ok(await k(['apply', '-f', '-', '--dry-run=server'], { stdin: yaml(dry) }))).toBe('deployment.apps/dry created (server dry run)\n');
        const missing = await k(['get', 'deployment', 'dry', '-n', ns]);
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain('Error from server (NotFound): deployments.apps "dry" not found');

        expect(ok(await k(['apply', '-f', '-', '--dry-run=server'], { stdin: yaml(manifestV2(ns)) }))).toBe('deployment.apps/web configured (server dry run)\n');
        expect(ok(await k(['delete', 'deployment', 'web', '-n', ns, '--dry-run=server']))).toBe('deployment.apps "web" deleted (server dry run)\n');
        const after = await live(ns);
        expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
        expect(after.spec).toEqual(before.spec);
      });

      it('a stale resourceVersion in the manifest is a 409 Conflict: apply retries, then reports it', async () => {
        const ns = await applied('conflict');
        const before = await live(ns);
        const v2 = manifestV2(ns) as { metadata: Record<string, Json> };
        const stale = { ...v2, metadata: { ...v2.metadata, resourceVersion: '1' } };
        const result = await k(['apply', '-f', '-', '-v=6'], { stdin: yaml(stale) });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`Error from server (Conflict): error when applying patch:`);
        expect(result.stderr).toContain('Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again');
        // kubectl's retry loop: the first PATCH and five more, each after a fresh GET.
        expect(result.stderr.match(/PATCH.*409 Conflict/g)).toHaveLength(6);
        expect((await live(ns)).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
      });
    });
  });
});
