/**
 * Cascading deletion as a kubectl user meets it (issue 3: `delete --cascade=foreground`): a
 * ConfigMap owned by another ConfigMap through `metadata.ownerReferences` written in its manifest.
 * `kubectl delete` of the owner (background) removes the dependent; `--cascade=foreground` returns
 * once the dependents and then the owner are gone; `--cascade=orphan` keeps the dependent without
 * its reference. Stock kubectl 1.27 and 1.33 (picked by the dispatcher), manifests through
 * `create -f` only, against the built server on SQLite and on a real etcd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from './harness/etcd.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { startServer, type ServerProcess } from './harness/server.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27']);
const etcdBinary = kubectlPath ? etcdBinaryForTests() : undefined;

const BACKENDS = [
  { backend: 'sqlite', skip: !kubectlPath },
  { backend: 'etcd', skip: !kubectlPath || !etcdBinary },
];

const VERSIONS: Array<{ label: string; version: KubectlVersion; suffix: string }> = [
  { label: '1.27', version: '1.27', suffix: '127' },
  { label: '1.33 (picked by the dispatcher)', version: 'dispatcher', suffix: '133' },
];

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
}

function ok(result: KubectlResult): string {
  expect(result.code, `kubectl failed:\n${result.stderr}`).toBe(0);
  return result.stdout;
}

function configMap(ns: string, name: string, ownerReferences?: OwnerReference[], finalizers?: string[]): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ownerReferences, finalizers }, data: { role: name } });
}

/** A Deployment, or a ReplicaSet it owns, running one nginx pod template labelled `app=<app>`. */
function workload(kind: 'Deployment' | 'ReplicaSet', ns: string, name: string, app: string, ownerReferences?: OwnerReference[]): string {
  const labels = { app };
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: ns, ownerReferences },
    spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(BACKENDS)('garbage collection on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let etcd: EtcdProcess | undefined;
    let server: ServerProcess;

    beforeAll(async () => {
      etcd = backend === 'etcd' ? await startEtcd({ binary: etcdBinary }) : undefined;
      server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [] });
    });
    afterAll(async () => {
      await server?.cleanup();
      await etcd?.cleanup();
    });

    describe.each(VERSIONS)('kubectl $label', ({ version, suffix }) => {
      let kubectl: Kubectl;
      const ns = `gc-${suffix}`;
      const k = (args: string[], stdin?: string): Promise<KubectlResult> => kubectl.run(args, { version, stdin });
      const create = async (manifest: string) => ok(await k(['create', '-f', '-'], manifest));
      const uid = async (name: string) => ok(await k(['get', 'configmap', name, '-n', ns, '-o', 'jsonpath={.metadata.uid}']));
      const exists = async (name: string) => ok(await k(['get', 'configmap', name, '-n', ns, '--ignore-not-found', '-o', 'name'])).trim() !== '';
      const field = async (name: string, path: string) => ok(await k(['get', 'configmap', name, '-n', ns, '-o', `jsonpath={${path}}`]));
      /** An owner and a dependent whose manifest names it, with the uid the server gave it. */
      const ownerAndDependent = async (owner: string, dependent: string, opts: { block?: boolean; finalizers?: string[] } = {}) => {
        await create(configMap(ns, owner));
        const ref: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: await uid(owner), ...(opts.block ? { blockOwnerDeletion: true } : {}) };
        await create(configMap(ns, dependent, [ref], opts.finalizers));
        expect(await field(dependent, '.metadata.ownerReferences[0].uid')).toBe(ref.uid);
      };
      /** Polls until the ConfigMap is gone (the collector works in the background). */
      const gone = async (name: string) => {
        for (let i = 0; i < 100 && (await exists(name)); i += 1) await delay(100);
        return !(await exists(name));
      };

      beforeAll(async () => {
        kubectl = await createKubectl({ kubeconfig: server.adminKubeconfig });
        await create(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
      });
      afterAll(() => kubectl?.cleanup());

      it('kubectl delete (background): the dependent is collected', async () => {
        await ownerAndDependent('bg-owner', 'bg-dep');
        expect(ok(await k(['delete', 'configmap', 'bg-owner', '-n', ns]))).toContain('configmap "bg-owner" deleted');
        expect(await gone('bg-dep')).toBe(true);
      });

      it('kubectl delete --cascade=foreground: returns once the dependent, then the owner, are gone', async () => {
        await ownerAndDependent('fg-owner', 'fg-dep', { block: true });
        expect(ok(await k(['delete', 'configmap', 'fg-owner', '-n', ns, '--cascade=foreground']))).toContain('configmap "fg-owner" deleted');
        expect(await exists('fg-owner')).toBe(false);
        expect(await exists('fg-dep')).toBe(false);
      });

      it('--cascade=foreground: the owner waits, marked, while a blocking dependent is held', async () => {
        await ownerAndDependent('held-owner', 'held-dep', { block: true, finalizers: ['example.com/hold'] });
        ok(await k(['delete', 'configmap', 'held-owner', '-n', ns, '--cascade=foreground', '--wait=false']));
        // The collector deletes the dependent; its own finalizer holds it, so the owner keeps waiting.
        for (let i = 0; i < 100 && (await field('held-dep', '.metadata.deletionTimestamp')) === ''; i += 1) await delay(100);
        expect(await field('held-dep', '.metadata.deletionTimestamp')).not.toBe('');
        expect(await field('held-owner', '.metadata.finalizers')).toBe('["foregroundDeletion"]');
        expect(await field('held-owner', '.metadata.deletionTimestamp')).not.toBe('');

        ok(await k(['patch', 'configmap', 'held-dep', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']));
        expect(await gone('held-dep')).toBe(true);
        expect(await gone('held-owner')).toBe(true);
      });

      it('--cascade=foreground across kinds: a Deployment goes after the ReplicaSet it owns', async () => {
        await create(workload('Deployment', ns, 'web', 'web'));
        const deploymentUid = ok(await k(['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.metadata.uid}']));
        const ref: OwnerReference = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deploymentUid, blockOwnerDeletion: true };
        await create(workload('ReplicaSet', ns, 'web-1', 'web', [ref]));
        expect(ok(await k(['delete', 'deployment', 'web', '-n', ns, '--cascade=foreground']))).toContain('deployment.apps "web" deleted');
        expect(ok(await k(['get', 'deployments,replicasets', '-n', ns, '--ignore-not-found', '-o', 'name']))).toBe('');
      });

      it('kubectl delete --cascade=orphan: the dependent stays, without its ownerReference', async () => {
        await ownerAndDependent('or-owner', 'or-dep', { block: true });
        expect(ok(await k(['delete', 'configmap', 'or-owner', '-n', ns, '--cascade=orphan']))).toContain('configmap "or-owner" deleted');
        expect(await exists('or-owner')).toBe(false);
        expect(await exists('or-dep')).toBe(true);
        expect(await field('or-dep', '.metadata.ownerReferences')).toBe('');
      });
    });

    it('the collector logged no failure', () => {
      expect(server.output()).not.toMatch(/"(controller|informer)":"garbage-collector\//);
    });
  });
});
