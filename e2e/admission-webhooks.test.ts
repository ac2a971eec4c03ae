/**
 * Admission webhooks per space, with stock kubectl on both backends and a test webhook server on
 * loopback: t1's validating webhook refuses labelled ConfigMaps with its own message while t2 never
 * reaches it; a mutating webhook labels ConfigMaps by JSONPatch; an unreachable webhook is let
 * through by `failurePolicy: Ignore` and refuses with kube's wording under `Fail`; a slow one hits
 * its `timeoutSeconds`; a system webhook labelled `kube-spaces.io/all-spaces` acts in every space.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { configMap, namespace, toYamlStream, type Manifest } from './harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from './harness/spaces.js';
import { startWebhookServer, type WebhookServer } from './harness/webhook-server.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);
const GROUP_PATH = '/apis/admissionregistration.k8s.io/v1';

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface HookSpec {
  name: string;
  url: string;
  caBundle?: string;
  /** Only ConfigMaps of this namespace (by its name label), so tests do not see each other's webhooks. */
  namespace: string;
  failurePolicy?: 'Fail' | 'Ignore';
  timeoutSeconds?: number;
  operations?: string[];
  /** The rule's API group and resources (default: ConfigMaps). */
  rule?: { apiGroup: string; resources: string[] };
}

function webhookConfiguration(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, hook: HookSpec, labels?: Record<string, string>): Manifest {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name, ...(labels ? { labels } : {}) },
    webhooks: [
      {
        name: hook.name,
        clientConfig: { url: hook.url, ...(hook.caBundle ? { caBundle: hook.caBundle } : {}) },
        rules: [{ operations: hook.operations ?? ['CREATE', 'UPDATE'], apiGroups: [hook.rule?.apiGroup ?? ''], apiVersions: ['v1'], resources: hook.rule?.resources ?? ['configmaps'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': hook.namespace } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        ...(hook.failurePolicy ? { failurePolicy: hook.failurePolicy } : {}),
        ...(hook.timeoutSeconds ? { timeoutSeconds: hook.timeoutSeconds } : {}),
      },
    ],
  };
}

describe.each(backendCases(kubectlPath !== undefined))('admission webhooks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let hooks: WebhookServer;
    let t1: UserCredentials;
    let t2: UserCredentials;

    const run = (user: UserCredentials, args: string[], options: { version?: KubectlVersion; stdin?: string } = {}) => kubectl.run(args, { kubeconfig: user.kubeconfig, ...options });

    async function newNamespace(user: UserCredentials, name: string): Promise<void> {
      const res = await user.api.request('POST', '/api/v1/namespaces', { json: namespace(name) });
      expect(res.status, res.body).toBe(201);
    }

    /** Installs a configuration as `user` with kubectl, then waits until the server's informer has it (a probe write reaches the webhook). */
    async function install(user: UserCredentials, manifest: Manifest, probe: () => Promise<boolean>): Promise<void> {
      const created = await run(user, ['create', '-f', '-'], { stdin: toYamlStream([manifest]) });
      expect(created.code, created.stderr).toBe(0);
      await eventually(`${manifest.metadata.name} to take effect`, probe);
    }

    const createConfigMap = (user: UserCredentials, ns: string, name: string, labels?: Record<string, string>) =>
      user.api.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { json: configMap(ns, name, {}, labels) });

    beforeAll(async () => {
      hooks = await startWebhookServer();
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1', 't2');
      t1 = await userKubeconfig(cluster, { tenant: 't1', user: 'admin' });
      t2 = await userKubeconfig(cluster, { tenant: 't2', user: 'admin' });
    });

    afterAll(async () => {
      t1?.api.close();
      t2?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
      await hooks?.close();
    });

    it("refuses t1's labelled ConfigMaps with the webhook's message; t2 never reaches t1's webhook", async () => {
      await newNamespace(t1, 'deny');
      await newNamespace(t2, 'deny');
      let probes = 0;
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'deny-labelled', { name: 'deny.example.com', url: hooks.url('/deny-labelled'), caBundle: hooks.caBundle, namespace: 'deny' }), async () => {
        const res = await createConfigMap(t1, 'deny', `probe-${probes++}`, { deny: 'please' });
        return res.status === 403;
      });
      for (const version of VERSIONS) {
        const refused = await run(t1, ['create', '-f', '-'], { version, stdin: toYamlStream([configMap('deny', `cm-${version}`, {}, { deny: 'please' })]) });
        expect(refused.code).not.toBe(0);
        expect(refused.stderr.trim()).toBe('Error from server: error when creating "STDIN": admission webhook "deny.example.com" denied the request: objects labelled deny are not welcome here');
      }
      expect((await run(t1, ['create', 'configmap', 'plain', '-n', 'deny'])).code).toBe(0);
      expect(parseInt((await run(t1, ['get', 'validatingwebhookconfigurations', 'deny-labelled', '--no-headers'])).stdout.trim().split(/\s+/)[1] ?? '', 10)).toBe(1);

      // t2: the same write in a same-named namespace goes through, and reaches no webhook.
      const created = await run(t2, ['create', '-f', '-'], { stdin: toYamlStream([configMap('deny', 'cm', {}, { deny: 'please' })]) });
      expect(created.code, created.stderr).toBe(0);
      expect(hooks.reviews.filter((r) => r.tenant === 't2' || r.userTenant === 't2')).toEqual([]);
      expect(hooks.reviews.filter((r) => r.path === '/deny-labelled').every((r) => r.tenant === 't1' && r.userTenant === 't1')).toBe(true);
    });

    it('sends DELETEs to validating webhooks, which may refuse them', async () => {
      await newNamespace(t1, 'nodelete');
      expect((await run(t1, ['create', 'configmap', 'kept', '-n', 'nodelete'])).code).toBe(0);
      let probes = 0;
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'no-delete', { name: 'nodelete.example.com', url: hooks.url('/deny-delete'), caBundle: hooks.caBundle, namespace: 'nodelete', operations: ['DELETE'] }), async () => {
        const name = `probe-${probes++}`;
        await createConfigMap(t1, 'nodelete', name);
        return (await t1.api.request('DELETE', `/api/v1/namespaces/nodelete/configmaps/${name}`)).status === 403;
      });
      const refused = await run(t1, ['delete', 'configmap', 'kept', '-n', 'nodelete']);
      expect(refused.stderr.trim()).toBe('Error from server (Forbidden): admission webhook "nodelete.example.com" denied the request: deletes are not allowed here');
      const review = hooks.reviews.filter((r) => r.path === '/deny-delete').at(-1)!.request;
      expect(review).toMatchObject({ operation: 'DELETE', name: 'kept', namespace: 'nodelete', object: null, oldObject: { metadata: { name: 'kept' } }, userInfo: { username: 'admin' } });
    });

    it('asks about kubectl scale as an UPDATE of deployments/scale with a Scale, as kube-apiserver does', async () => {
      await newNamespace(t1, 'scaled');
      const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'scaled' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { schedulerName: 'none', containers: [{ name: 'web', image: 'nginx' }] } } } };
      expect((await t1.api.request('POST', '/apis/apps/v1/namespaces/scaled/deployments', { json: deployment })).status).toBe(201);
      const scaleTo = (replicas: number) => t1.api.request('PATCH', '/apis/apps/v1/namespaces/scaled/deployments/web/scale', { body: JSON.stringify({ spec: { replicas } }), headers: { 'content-type': 'application/merge-patch+json' } });
      // A webhook on the deployments themselves, which scaling must not reach.
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'deployments-seen', { name: 'seen.example.com', url: hooks.url('/deployments-seen'), caBundle: hooks.caBundle, namespace: 'scaled', operations: ['UPDATE'], rule: { apiGroup: 'apps', resources: ['deployments'] } }), async () => {
        const res = await t1.api.request('PATCH', '/apis/apps/v1/namespaces/scaled/deployments/web', { body: JSON.stringify({ metadata: { labels: { probe: String(Date.now()) } } }), headers: { 'content-type': 'application/merge-patch+json' } });
        return res.status === 200 && hooks.reviews.some((r) => r.path === '/deployments-seen');
      });
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'cap-replicas', { name: 'cap.example.com', url: hooks.url('/cap-replicas'), caBundle: hooks.caBundle, namespace: 'scaled', operations: ['UPDATE'], rule: { apiGroup: 'apps', resources: ['deployments/scale'] } }), async () => (await scaleTo(9)).status === 403);
      const seenBefore = hooks.reviews.filter((r) => r.path === '/deployments-seen').length;
      for (const version of VERSIONS) {
        const refused = await run(t1, ['scale', 'deployment', 'web', '-n', 'scaled', '--replicas=7'], { version });
        expect(refused.code).not.toBe(0);
        expect(refused.stderr.trim()).toBe('Error from server: admission webhook "cap.example.com" denied the request: at most 5 replicas here');
      }
      const scaled = await run(t1, ['scale', 'deployment', 'web', '-n', 'scaled', '--replicas=3']);
      expect(scaled.code, scaled.stderr).toBe(0);
      expect((await run(t1, ['get', 'deployment', 'web', '-n', 'scaled', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('3');
      const review = hooks.reviews.filter((r) => r.path === '/cap-replicas').at(-1)!.request;
      expect(review).toMatchObject({
        operation: 'UPDATE', name: 'web', namespace: 'scaled', subResource: 'scale', requestSubResource: 'scale',
        kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, requestKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        object: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 3 } }, oldObject: { kind: 'Scale' },
      });
      // Scaling never reached the webhook on deployments (the controllers' own writes may: they are Deployments).
      expect(hooks.reviews.filter((r) => r.path === '/deployments-seen').slice(seenBefore).every((r) => (r.request.kind as { kind: string }).kind === 'Deployment' && r.request.subResource === undefined)).toBe(true);

      // A mutating webhook on the Scale: what it sets is what the deployment gets.
      await install(t1, webhookConfiguration('MutatingWebhookConfiguration', 'two-replicas', { name: 'two.example.com', url: hooks.url('/two-replicas'), caBundle: hooks.caBundle, namespace: 'scaled', operations: ['UPDATE'], rule: { apiGroup: 'apps', resources: ['deployments/scale'] } }), async () => {
        const res = await scaleTo(4);
        return res.status === 200 && (res.json() as { spec: { replicas: number } }).spec.replicas === 2;
      });
      expect((await run(t1, ['scale', 'deployment', 'web', '-n', 'scaled', '--replicas=5'])).code).toBe(0);
      expect((await run(t1, ['get', 'deployment', 'web', '-n', 'scaled', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('2');
    });

    it('asks about an eviction as a CREATE of pods/eviction with the Eviction, and may refuse it', async () => {
      await newNamespace(t1, 'evicted');
      const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'evicted' }, spec: { schedulerName: 'none', containers: [{ name: 'c', image: 'busybox' }] } });
      const evict = (name: string) => t1.api.request('POST', `/api/v1/namespaces/evicted/pods/${name}/eviction`, { json: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'evicted' } } });
      expect((await t1.api.request('POST', '/api/v1/namespaces/evicted/pods', { json: pod('kept') })).status).toBe(201);
      let probes = 0;
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'no-evictions', { name: 'evict.example.com', url: hooks.url('/deny-eviction'), caBundle: hooks.caBundle, namespace: 'evicted', operations: ['CREATE'], rule: { apiGroup: '', resources: ['pods/eviction'] } }), async () => {
        const name = `probe-${probes++}`;
        await t1.api.request('POST', '/api/v1/namespaces/evicted/pods', { json: pod(name) });
        return (await evict(name)).status === 403;
      });
      const refused = await evict('kept');
      expect(refused.status).toBe(403);
      expect(refused.json()).toMatchObject({ code: 403, message: 'admission webhook "evict.example.com" denied the request: evictions are paused' });
      expect((await t1.api.request('GET', '/api/v1/namespaces/evicted/pods/kept')).status).toBe(200);
      const review = hooks.reviews.filter((r) => r.path === '/deny-eviction').at(-1)!.request;
      expect(review).toMatchObject({
        operation: 'CREATE', name: 'kept', namespace: 'evicted', subResource: 'eviction',
        kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, resource: { group: '', version: 'v1', resource: 'pods' },
        object: { kind: 'Eviction', metadata: { name: 'kept' } }, oldObject: null,
      });
      // Deleting the pod itself is no eviction: the webhook is not asked.
      expect((await t1.api.request('DELETE', '/api/v1/namespaces/evicted/pods/kept?gracePeriodSeconds=0')).status).toBe(200);
    });

    it("prints a webhook's warnings as kubectl prints Warning headers", async () => {
      await newNamespace(t1, 'warned');
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'warner', { name: 'warn.example.com', url: hooks.url('/warn'), caBundle: hooks.caBundle, namespace: 'warned' }), async () => {
        const res = await createConfigMap(t1, 'warned', `probe-${Date.now()}`);
        return String(res.headers['warning'] ?? '').includes('the system webhook saw this');
      });
      const created = await run(t1, ['create', 'configmap', 'cm', '-n', 'warned']);
      expect(created.code).toBe(0);
      expect(created.stderr).toContain('Warning: the system webhook saw this');
    });

    it('lets a mutating webhook label ConfigMaps by JSONPatch', async () => {
      await newNamespace(t1, 'mutate');
      await install(t1, webhookConfiguration('MutatingWebhookConfiguration', 'add-label', { name: 'label.example.com', url: hooks.url('/add-label'), caBundle: hooks.caBundle, namespace: 'mutate' }), async () => {
        const res = await createConfigMap(t1, 'mutate', `probe-${Date.now()}`);
        return (res.json() as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.['mutated-by'] === 'webhook';
      });
      expect((await run(t1, ['create', 'configmap', 'cm', '-n', 'mutate'], { version: '1.33' })).code).toBe(0);
      expect((await run(t1, ['get', 'configmap', 'cm', '-n', 'mutate', '-o', 'jsonpath={.metadata.labels.mutated-by}'])).stdout).toBe('webhook');
    });

    it("lets requests through an unreachable webhook under Ignore, and refuses them with kube's wording under Fail", async () => {
      await newNamespace(t1, 'down');
      const port = await closedPort();
      const url = `https://127.0.0.1:${port}/validate`;
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'down-ignore', { name: 'ignore.example.com', url, namespace: 'down', failurePolicy: 'Ignore' }), async () => true);
      expect((await run(t1, ['create', 'configmap', 'through', '-n', 'down'])).code).toBe(0);
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'down-fail', { name: 'fail.example.com', url, namespace: 'down' }), async () => (await createConfigMap(t1, 'down', `probe-${Date.now()}`)).status === 500);
      const refused = await run(t1, ['create', 'configmap', 'refused', '-n', 'down']);
      expect(refused.stderr.trim()).toBe(
        `error: failed to create configmap: Internal error occurred: failed calling webhook "fail.example.com": failed to call webhook: Post "${url}?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      );
    });

    it('gives up on a slow webhook after its timeoutSeconds', async () => {
      await newNamespace(t1, 'slow');
      await install(t1, webhookConfiguration('ValidatingWebhookConfiguration', 'slow', { name: 'slow.example.com', url: hooks.url('/slow'), caBundle: hooks.caBundle, namespace: 'slow', timeoutSeconds: 1 }), async () => (await createConfigMap(t1, 'slow', `probe-${Date.now()}`)).status === 500);
      const refused = await run(t1, ['create', '-f', '-'], { stdin: toYamlStream([configMap('slow', 'cm')]) });
      expect(refused.stderr.trim()).toBe(
        `Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hooks.url('/slow')}?timeout=1s": context deadline exceeded`,
      );
    });

    it('applies a system webhook labelled for every space in t1 and t2, and one without the label in the system space only', async () => {
      await newNamespace(t1, 'everywhere');
      await newNamespace(t2, 'everywhere');
      const manifest = webhookConfiguration('ValidatingWebhookConfiguration', 'platform-deny', { name: 'platform.example.com', url: hooks.url('/deny-labelled'), caBundle: hooks.caBundle, namespace: 'everywhere' }, { 'kube-spaces.io/all-spaces': 'true' });
      const local = webhookConfiguration('MutatingWebhookConfiguration', 'system-only', { name: 'system-only.example.com', url: hooks.url('/add-label'), caBundle: hooks.caBundle, namespace: 'everywhere' });
      for (const m of [manifest, local]) {
        const res = await cluster.api.request('POST', `${GROUP_PATH}/${m.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations'}`, { json: m });
        expect(res.status, res.body).toBe(201);
      }
      for (const user of [t1, t2]) {
        await eventually('the system webhook to act', async () => (await createConfigMap(user, 'everywhere', `probe-${Date.now()}`, { deny: 'please' })).status === 403);
        const refused = await run(user, ['create', 'configmap', 'labelled', '-n', 'everywhere']);
        expect(refused.code).toBe(0); // unlabelled: allowed
        const cm = (await user.api.request('GET', '/api/v1/namespaces/everywhere/configmaps/labelled')).json() as { metadata: { labels?: Record<string, string> } };
        expect(cm.metadata.labels?.['mutated-by']).toBeUndefined(); // the unlabelled system configuration stays in the system space
      }
      // Tenants do not see the system's configurations.
      expect((await run(t1, ['get', 'validatingwebhookconfigurations', '-o', 'name'])).stdout).not.toContain('platform-deny');
      expect(hooks.reviews.some((r) => r.path === '/deny-labelled' && r.tenant === 't2')).toBe(true);
    });
  });
});
