/**
 * Cascading deletion as a kubectl user meets it (issue 3: `delete --cascade=foreground`): a
 * ConfigMap owned by another ConfigMap through `metadata.ownerReferences` written in its manifest.
 * `kubectl delete` of the owner (background) removes the dependent; `--cascade=foreground` returns
 * once the dependents and then the owner are gone; `--cascade=orphan` keeps the dependent without
 * its reference; a custom resource of a CRD of one space owns a ConfigMap there, and deleting it
 * collects the ConfigMap while the same names in another space stay. Stock kubectl 1.27 and 1.33
 * (picked by the dispatcher), manifests through `create -f` only, against the built server on
 * SQLite and on a real etcd, with the collector in the server's controller manager and in
 * `kube-spaces controllers` against `serve --controllers=false`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { startControllerManager, type ControllerManagerProcess } from './harness/controller-manager.js';
import { customResourceDefinition } from './harness/manifests.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion } from './harness/kubectl.js';
import { certificateKubeconfig, createTenants } from './harness/spaces.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27']);

const MODES = [
  { mode: 'in the server (serve)', separate: false },
  { mode: 'in kube-spaces controllers (serve --controllers=false)', separate: true },
];

/** Leader election with kube-controller-manager's timings: this file tests collection, not failover. */
const TIMING = { leaseDuration: '15s', renewDeadline: '10s', retryPeriod: '2s' };

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

describe.each(backendCases(kubectlPath !== undefined))('garbage collection on the $backend backend', ({ backend, skip }) => {
  describe.each(MODES)('with the collector $mode', ({ separate }) => {
    describe.skipIf(skip)('with stock kubectl', () => {
      let cluster: TestCluster;
      let manager: ControllerManagerProcess | undefined;
      /** Where the collector logs: the server, or the controller manager's process. */
      const collectorOutput = () => (separate ? manager!.output() : cluster.server.output());

      beforeAll(async () => {
        cluster = await startCluster(backend, separate ? { extraArgs: ['--controllers=false'] } : {});
        if (separate) {
          const { kubeconfig } = await certificateKubeconfig(cluster, { tenant: 'system', user: 'system:kube-controller-manager' });
          manager = startControllerManager(kubeconfig, TIMING);
        }
        // The collector lists every collected resource before it acts: wait for it, wherever it runs.
        await vi.waitFor(() => expect(collectorOutput()).toContain('"msg":"garbage collector started"'), { timeout: 60_000, interval: 100 });
      });
      afterAll(async () => {
        await manager?.stop();
        await cluster?.cleanup();
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
          kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
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

      describe('a custom resource of a CRD of one space', () => {
        const crd = JSON.stringify(customResourceDefinition('gc.example.com', 'Holder', 'holders'));
        const kubectlIn: Record<string, Kubectl> = {};
        const k = (tenant: string, args: string[], stdin?: string) => kubectlIn[tenant]!.run(args, { version: '1.27', stdin });

        beforeAll(async () => {
          await createTenants(cluster, 'gc1', 'gc2');
          for (const tenant of ['gc1', 'gc2']) {
            const { kubeconfig } = await certificateKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: tenant });
            kubectlIn[tenant] = await createKubectl({ kubeconfig });
          }
        });
        afterAll(async () => {
          for (const kubectl of Object.values(kubectlIn)) await kubectl.cleanup();
        });

        it('owns a ConfigMap in its space: deleting it collects the ConfigMap, never the same names in another space', async () => {
          // The same CRD, custom resource and ConfigMap names in both spaces, each ConfigMap owned by its own space's Holder.
          for (const tenant of ['gc1', 'gc2']) {
            ok(await k(tenant, ['create', '-f', '-'], crd));
            ok(await k(tenant, ['wait', '--for=condition=Established', 'crd/holders.gc.example.com', '--timeout=20s']));
            for (let i = 0; i < 100 && (await k(tenant, ['get', 'holders', '-n', 'default'])).code !== 0; i += 1) await delay(100);
            ok(await k(tenant, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'gc.example.com/v1', kind: 'Holder', metadata: { name: 'h1', namespace: 'default' } })));
            const uid = ok(await k(tenant, ['get', 'holder', 'h1', '-n', 'default', '-o', 'jsonpath={.metadata.uid}']));
            ok(await k(tenant, ['create', '-f', '-'], configMap('default', 'held', [{ apiVersion: 'gc.example.com/v1', kind: 'Holder', name: 'h1', uid }])));
          }
          const held = async (tenant: string) => ok(await k(tenant, ['get', 'configmap', 'held', '-n', 'default', '--ignore-not-found', '-o', 'name'])).trim();
          // Owned by a live Holder: kept (the collector judges it once it sees the ConfigMap).
          await delay(1_000);
          expect(await held('gc1')).toBe('configmap/held');

          expect(ok(await k('gc1', ['delete', 'holder', 'h1', '-n', 'default']))).toContain('holder.gc.example.com "h1" deleted');
          for (let i = 0; i < 100 && (await held('gc1')) !== ''; i += 1) await delay(100);
          expect(await held('gc1')).toBe('');
          expect(await held('gc2')).toBe('configmap/held');
          expect(ok(await k('gc2', ['get', 'holder', 'h1', '-n', 'default', '-o', 'name'])).trim()).toBe('holder.gc.example.com/h1');
        });
      });

      it('the collector logged no failure', () => {
        expect(collectorOutput()).not.toMatch(/"(controller|informer)":"garbage-collector\//);
      });
    });
  });
});
