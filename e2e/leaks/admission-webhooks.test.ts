/**
 * Cross-space leak suite: admission webhooks. A webhook t1 installs for everything (every
 * operation, group, version, resource and subresource) receives t1's requests and never one of
 * t2's — not t2's writes, not the system admin's writes into t2, not t2's secrets' bytes. Tenants
 * neither see nor change the system space's webhook configurations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { configMap, deployment, namespace, secret } from '../harness/manifests.js';
import { createTenants, eventually, inSpace, userKubeconfig, type UserCredentials } from '../harness/spaces.js';
import { startWebhookServer, type WebhookServer } from '../harness/webhook-server.js';

const GROUP_PATH = '/apis/admissionregistration.k8s.io/v1';
const MARKER = 'only-t2-knows-this';

function catchAll(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, url: string, caBundle: string) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: [
      {
        name: `${name}.example.com`,
        clientConfig: { url, caBundle },
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Ignore',
      },
    ],
  };
}

describe.each(backendCases())('admission webhooks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('of one space', () => {
    let cluster: TestCluster;
    let hooks: WebhookServer;
    let alice: UserCredentials;
    let bob: UserCredentials;

    beforeAll(async () => {
      hooks = await startWebhookServer();
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      [alice, bob] = (await Promise.all(['t1', 't2'].map((tenant) => userKubeconfig(cluster, { tenant, user: 'admin' })))) as [UserCredentials, UserCredentials];
      for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'] as const) {
        const resource = kind === 'ValidatingWebhookConfiguration' ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
        const res = await alice.api.request('POST', `${GROUP_PATH}/${resource}`, { json: catchAll(kind, `all-${resource}`, hooks.url('/warn'), hooks.caBundle) });
        expect(res.status, res.body).toBe(201);
      }
      // The webhooks act in t1 (so their silence for t2 means something).
      await eventually("t1's webhooks to act", async () => {
        await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', `probe-${Date.now()}`) });
        return hooks.reviews.some((r) => r.tenant === 't1');
      });
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
      await hooks?.close();
    });

    it("never receives another space's requests or objects", async () => {
      const before = hooks.reviews.length;
      // t2's own writes: create, update, subresource, delete, space-scoped kinds.
      expect((await bob.api.request('POST', '/api/v1/namespaces', { json: namespace('shop') })).status).toBe(201);
      expect((await bob.api.request('POST', '/api/v1/namespaces/shop/secrets', { json: secret('shop', 'creds', { password: MARKER }) })).status).toBe(201);
      expect((await bob.api.request('POST', '/api/v1/namespaces/shop/configmaps', { json: configMap('shop', 'cm', { k: MARKER }) })).status).toBe(201);
      expect((await bob.api.request('PATCH', '/api/v1/namespaces/shop/configmaps/cm', { json: { data: { k2: MARKER } }, headers: { 'Content-Type': 'application/merge-patch+json' } })).status).toBe(200);
      expect((await bob.api.request('POST', '/apis/apps/v1/namespaces/shop/deployments', { json: deployment('shop', 'web') })).status).toBe(201);
      expect((await bob.api.request('PATCH', '/apis/apps/v1/namespaces/shop/deployments/web/scale', { json: { spec: { replicas: 3 } }, headers: { 'Content-Type': 'application/merge-patch+json' } })).status).toBe(200);
      expect((await bob.api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { json: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: MARKER }, rules: [] } })).status).toBe(201);
      expect((await bob.api.request('DELETE', '/api/v1/namespaces/shop/configmaps/cm')).status).toBe(200);
      // The system admin's writes into t2.
      expect((await inSpace(cluster, 't2', 'POST', '/api/v1/namespaces/shop/configmaps', configMap('shop', 'from-system', { k: MARKER }))).status).toBe(201);
      // A write in t1 after them all: once its review has arrived, so would have any of t2's before it.
      await alice.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'last') });
      await eventually("t1's last write to reach the webhook", async () => hooks.reviews.some((r) => (r.request['name'] as string) === 'last'));
      const after = hooks.reviews.slice(before);
      expect(after.every((r) => r.tenant === 't1')).toBe(true);
      expect(JSON.stringify(hooks.reviews)).not.toContain(MARKER);
      expect(JSON.stringify(hooks.reviews)).not.toContain('"t2"');
    });

    it("keeps the system space's configurations out of a tenant's sight and reach", async () => {
      const platform = catchAll('ValidatingWebhookConfiguration', 'platform', hooks.url('/warn'), hooks.caBundle);
      expect((await inSpace(cluster, 'system', 'POST', `${GROUP_PATH}/validatingwebhookconfigurations`, platform)).status).toBe(201);
      const list = (await alice.api.request('GET', `${GROUP_PATH}/validatingwebhookconfigurations`)).json() as { items: Array<{ metadata: { name: string } }> };
      expect(list.items.map((i) => i.metadata.name)).toEqual(['all-validatingwebhookconfigurations']);
      expect((await alice.api.request('GET', `${GROUP_PATH}/validatingwebhookconfigurations/platform`)).status).toBe(404);
      expect((await alice.api.request('DELETE', `/tenants/system${GROUP_PATH}/validatingwebhookconfigurations/platform`)).status).toBe(403);
      // t1's configuration of the same name as another space's object is its own.
      const named = await alice.api.request('POST', `${GROUP_PATH}/validatingwebhookconfigurations`, { json: { ...platform, metadata: { name: 'platform', tenant: 't2' } } });
      expect(named.status).toBe(400);
    });
  });
});
