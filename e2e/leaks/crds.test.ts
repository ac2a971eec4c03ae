/**
 * Cross-space leak suite: CustomResourceDefinitions. A t1 CRD is invisible to t2 by every URL
 * form (list, get, the t1 and all-spaces prefixes, watch), cannot be changed or deleted from t2,
 * and only the system admin's all-spaces view lists both spaces' CRDs, with a TENANT column. Its
 * custom resources are served in t1 alone (paths, watch, legacy and aggregated discovery, OpenAPI).
 * The shared view/edit/admin roles grant no CRDs, as Kubernetes' do not, and aggregate a space's
 * own aggregate-to-view roles there only. A system CRD shared with every space keeps each space's
 * custom resources apart, and only the system admin's all-spaces view lists and watches them together.
 * A t1 custom resource owns objects in t1 only: deleting it collects them, never t2's namesakes.
 * A CRD's conversion webhook is sent its own space's objects only, one review per space even when
 * the system admin lists a shared CRD's objects across spaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from '../harness/kubectl.js';
import { parseTable } from '../harness/kubectl-output.js';
import { createTenants, eventually, grant, grantAndWait, userKubeconfig, type UserCredentials } from '../harness/spaces.js';
import { startWebhookServer, type WebhookServer } from '../harness/webhook-server.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const kubectlPath = kubectlForTests(['1.33']);

const crd = (plural: string, kind: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.stable.example.com` },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural, kind },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

describe.each(backendCases(kubectlPath !== undefined))('CRD leaks on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('a t1 CRD', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let carol: UserCredentials;
    let allSpaces: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      carol = await userKubeconfig(cluster, { tenant: 't1', user: 'carol' });
      allSpaces = await userKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: 'all' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, CRDS);
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, CRDS);
      expect((await alice.api.request('POST', CRDS, { json: crd('secrettabs', 'SecretTab') })).status).toBe(201);
      expect((await bob.api.request('POST', CRDS, { json: crd('bobtabs', 'BobTab') })).status).toBe(201);
    });

    afterAll(async () => {
      for (const u of [alice, bob, carol, allSpaces]) u?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('is invisible to t2 by list, get, the t1 and all-spaces prefixes and watch', async () => {
      const list = await bob.api.request('GET', CRDS);
      expect(list.status).toBe(200);
      expect(list.json<{ items: Array<{ metadata: { name: string } }> }>().items.map((i) => i.metadata.name)).toEqual(['bobtabs.stable.example.com']);
      expect((await bob.api.request('GET', `${CRDS}/secrettabs.stable.example.com`)).status).toBe(404);
      for (const path of [`/tenants/t1${CRDS}`, `/tenants/t1${CRDS}/secrettabs.stable.example.com`, `/tenants/all${CRDS}`, `/tenants/all${CRDS}?watch=true&timeoutSeconds=1`]) {
        const res = await bob.api.request('GET', path);
        expect(res.status, `${path}: ${res.body}`).toBe(403);
        expect(res.body).not.toContain('secrettabs');
      }
      // A watch open while t1 creates another CRD hears nothing of either.
      const watching = bob.api.request('GET', `${CRDS}?watch=true&timeoutSeconds=2`);
      expect((await alice.api.request('POST', CRDS, { json: crd('newtabs', 'NewTab') })).status).toBe(201);
      const watched = await watching;
      expect(watched.status).toBe(200);
      expect(watched.body).toContain('bobtabs.stable.example.com');
      expect(watched.body).not.toContain('secrettabs');
      expect(watched.body).not.toContain('newtabs');
    });

    it('cannot be changed or deleted from t2', async () => {
      const name = `${CRDS}/secrettabs.stable.example.com`;
      const patch = await bob.api.request('PATCH', name, { body: '{"metadata":{"labels":{"x":"y"}}}', headers: { 'content-type': 'application/merge-patch+json' } });
      expect(patch.status).toBe(404);
      expect((await bob.api.request('DELETE', name)).status).toBe(404);
      expect((await bob.api.request('PUT', `${name}/status`, { json: crd('secrettabs', 'SecretTab') })).status).toBe(404);
      const still = await alice.api.request('GET', name);
      expect(still.status).toBe(200);
      expect(still.json<{ metadata: { labels?: object; deletionTimestamp?: string } }>().metadata).not.toHaveProperty('deletionTimestamp');
    });

    it('is listed with t2’s, under a TENANT column, only in the system admin’s all-spaces view', async () => {
      await eventually('both spaces’ CRDs to be listed', async () => (await allSpaces.api.request('GET', `/tenants/all${CRDS}`)).body.includes('newtabs'));
      const got = await kubectl.run(['get', 'crd'], { kubeconfig: allSpaces.kubeconfig, version: '1.33' });
      expect(got.code, got.stderr).toBe(0);
      const table = parseTable(got.stdout);
      expect(table.header).toEqual(['TENANT', 'NAME', 'CREATED AT']);
      expect(table.rows.map((r) => [r['TENANT'], r['NAME']]).sort()).toEqual([
        ['t1', 'newtabs.stable.example.com'],
        ['t1', 'secrettabs.stable.example.com'],
        ['t2', 'bobtabs.stable.example.com'],
      ]);
    });

    it('serves its custom resources in t1 only: not to t2, nor to the system space, by any path or discovery', async () => {
      const path = '/apis/stable.example.com/v1/namespaces/default/secrettabs';
      await eventually('t1 to serve secrettabs', async () => (await alice.api.request('GET', path)).status === 200);
      const made = await alice.api.request('POST', path, { json: { apiVersion: 'stable.example.com/v1', kind: 'SecretTab', metadata: { name: 'hidden' }, data: 'of-t1' } });
      expect(made.status, made.body).toBe(201);
      for (const api of [bob.api, cluster.api]) {
        for (const p of [path, `${path}/hidden`, '/apis/stable.example.com/v1/secrettabs', `/apis/stable.example.com/v1/secrettabs?watch=true&timeoutSeconds=1`]) {
          const res = await api.request('GET', p);
          expect(res.status, `${p}: ${res.body}`).toBe(404);
          expect(res.body).not.toContain('of-t1');
        }
        for (const [p, accept] of [
          ['/apis', 'application/json'],
          ['/apis', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'],
          ['/apis/stable.example.com/v1', 'application/json'],
        ] as const) {
          expect((await api.request('GET', p, { headers: { accept } })).body).not.toContain('secrettabs');
        }
      }
      expect((await bob.api.request('GET', '/apis/stable.example.com/v1')).json<{ resources: Array<{ name: string }> }>().resources.map((r) => r.name)).toEqual(['bobtabs']);
      expect((await bob.api.request('DELETE', `${path}/hidden`)).status).toBe(404);
      expect((await alice.api.request('GET', `${path}/hidden`)).json<{ data: string }>().data).toBe('of-t1');
    });

    it('is not granted by the shared view, edit and admin roles', async () => {
      for (const clusterRole of ['view', 'edit', 'admin']) await grant(cluster, { tenant: 't1', clusterRole, user: 'carol' });
      // Once the last grant applies, carol may list pods space-wide, and still no CRDs.
      await eventually('admin to apply to carol', async () => (await carol.api.request('GET', '/api/v1/secrets')).status === 200);
      expect((await carol.api.request('GET', CRDS)).status).toBe(403);
      expect((await carol.api.request('POST', CRDS, { json: crd('caroltabs', 'CarolTab') })).status).toBe(403);
    });

    it('publishes its schema in t1’s OpenAPI only (v2 and v3), while t2’s same group shows t2’s kind', async () => {
      const v3 = '/openapi/v3/apis/stable.example.com/v1';
      const mine = await alice.api.request('GET', v3);
      expect(mine.status).toBe(200);
      expect(Object.keys(mine.json<{ components: { schemas: object } }>().components.schemas)).toContain('com.example.stable.v1.SecretTab');
      const theirs = await bob.api.request('GET', v3);
      expect(theirs.status).toBe(200);
      expect(theirs.body).not.toContain('SecretTab');
      expect(Object.keys(theirs.json<{ components: { schemas: object } }>().components.schemas)).toContain('com.example.stable.v1.BobTab');
      const root = (await bob.api.request('GET', '/openapi/v3')).json<{ paths: object }>();
      expect(Object.keys(root.paths)).toContain('apis/stable.example.com/v1');
      for (const api of [bob.api, cluster.api]) expect((await api.request('GET', '/openapi/v2')).body).not.toContain('secrettabs');
      expect((await alice.api.request('GET', '/openapi/v2')).body).toContain('secrettabs');
    });

    it('aggregates a space’s aggregate-to-view ClusterRoles into the shared view there only', async () => {
      const viewer = (name: string, resources: string[]) => ({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
        rules: [{ apiGroups: ['stable.example.com'], resources, verbs: ['get', 'list', 'watch'] }],
      });
      const secretTabs = '/apis/stable.example.com/v1/namespaces/default/secrettabs';
      // t2 aggregates every stable.example.com resource into its view: nothing of it reaches t1's view.
      expect((await bob.api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { json: viewer('all-stable', ['*']) })).status).toBe(201);
      expect((await alice.api.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { json: viewer('secrettabs-view', ['secrettabs']) })).status).toBe(201);
      await eventually('t1’s view to hold secrettabs', async () => (await carol.api.request('GET', secretTabs)).status === 200);
      expect((await carol.api.request('GET', '/apis/stable.example.com/v1/namespaces/default/newtabs')).status).toBe(403);
      expect((await carol.api.request('DELETE', `${secretTabs}/hidden`)).status).toBe(403);
    });

    it('lets its custom resources own objects in t1 only: deleting one collects what it owns there, never t2’s namesakes', async () => {
      // The same CRD, custom resource and ConfigMap names in both spaces, each ConfigMap owned by its own space's OwnerTab.
      const tabs = '/apis/stable.example.com/v1/namespaces/default/ownertabs';
      const configMaps = '/api/v1/namespaces/default/configmaps';
      for (const user of [alice, bob]) {
        expect((await user.api.request('POST', CRDS, { json: crd('ownertabs', 'OwnerTab') })).status).toBe(201);
        await eventually('ownertabs to be served', async () => (await user.api.request('GET', tabs)).status === 200);
        const owner = await user.api.request('POST', tabs, { json: { apiVersion: 'stable.example.com/v1', kind: 'OwnerTab', metadata: { name: 'o1' } } });
        expect(owner.status, owner.body).toBe(201);
        const ownerReferences = [{ apiVersion: 'stable.example.com/v1', kind: 'OwnerTab', name: 'o1', uid: owner.json<{ metadata: { uid: string } }>().metadata.uid }];
        const owned = await user.api.request('POST', configMaps, { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o1-data', ownerReferences } } });
        expect(owned.status, owned.body).toBe(201);
      }
      const bobsData = (await bob.api.request('GET', `${configMaps}/o1-data`)).json<{ metadata: { resourceVersion: string } }>();
      expect((await alice.api.request('DELETE', `${tabs}/o1`)).status).toBe(200);
      await eventually('t1’s ConfigMap to be collected', async () => (await alice.api.request('GET', `${configMaps}/o1-data`)).status === 404);
      expect((await bob.api.request('GET', `${tabs}/o1`)).status).toBe(200);
      const kept = await bob.api.request('GET', `${configMaps}/o1-data`);
      expect(kept.status).toBe(200);
      expect(kept.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion).toBe(bobsData.metadata.resourceVersion);
    });

    describe('a system CRD shared with every space', () => {
      const SHARED = 'gadgets.shared.example.com';
      const gadgets = '/apis/shared.example.com/v1/namespaces/default/gadgets';
      const gadget = (owner: string) => ({ apiVersion: 'shared.example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { owner } });
      const sharedCrd = {
        ...crd('gadgets', 'Gadget'),
        metadata: { name: SHARED, labels: { 'arktos.futurewei.com/crd-sharing-policy': 'forced' } },
      };
      sharedCrd.spec = { ...sharedCrd.spec, group: 'shared.example.com', names: { plural: 'gadgets', kind: 'Gadget' } };

      it('is served in every space from the request after it is Established', async () => {
        expect((await cluster.api.request('POST', CRDS, { json: sharedCrd })).status).toBe(201);
        const wait = await kubectl.run(['wait', '--for=condition=Established', `crd/${SHARED}`, '--timeout=20s'], { kubeconfig: cluster.server.adminKubeconfig });
        expect(wait.code, wait.stderr).toBe(0);
        // The system space serves it as soon as its informer sees it Established; every space with it.
        await eventually('the system space to serve gadgets', async () => (await cluster.api.request('GET', '/apis/shared.example.com/v1')).status === 200);
        for (const api of [alice.api, bob.api]) {
          expect((await api.request('GET', '/apis/shared.example.com/v1')).json<{ resources: Array<{ name: string }> }>().resources.map((r) => r.name)).toEqual(['gadgets']);
          const aggregated = await api.request('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
          expect(aggregated.body).toContain('"gadgets"');
        }
        const listed = await kubectl.run(['api-resources', '--api-group=shared.example.com'], { kubeconfig: alice.kubeconfig, version: '1.33' });
        expect(parseTable(listed.stdout).row('gadgets')).toMatchObject({ APIVERSION: 'shared.example.com/v1', KIND: 'Gadget' });
      });

      it('keeps each space’s custom resources under its own key, listed together only across spaces, with TENANT', async () => {
        expect((await alice.api.request('POST', gadgets, { json: gadget('t1') })).status).toBe(201);
        expect((await bob.api.request('POST', gadgets, { json: gadget('t2') })).status).toBe(201);
        expect((await alice.api.request('GET', `${gadgets}/g1`)).json<{ spec: { owner: string } }>().spec.owner).toBe('t1');
        expect((await bob.api.request('GET', `${gadgets}/g1`)).json<{ spec: { owner: string } }>().spec.owner).toBe('t2');
        expect((await cluster.api.request('GET', `${gadgets}/g1`)).status).toBe(404);
        for (const api of [alice.api, bob.api]) expect((await api.request('GET', gadgets)).json<{ items: unknown[] }>().items).toHaveLength(1);
        const all = await kubectl.run(['get', 'gadgets', '-A'], { kubeconfig: allSpaces.kubeconfig, version: '1.33' });
        expect(all.code, all.stderr).toBe(0);
        expect(parseTable(all.stdout).header).toEqual(['NAMESPACE', 'TENANT', 'NAME', 'AGE']);
        expect(parseTable(all.stdout).rows.map((r) => [r['TENANT'], r['NAME']]).sort()).toEqual([
          ['t1', 'g1'],
          ['t2', 'g1'],
        ]);
        const watched = await allSpaces.api.request('GET', '/tenants/all/apis/shared.example.com/v1/gadgets?watch=true&timeoutSeconds=1');
        const events = watched.body.trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { metadata: { tenant: string }; spec: { owner: string } } });
        expect(events.map((e) => [e.type, e.object.metadata.tenant, e.object.spec.owner]).sort()).toEqual([
          ['ADDED', 't1', 't1'],
          ['ADDED', 't2', 't2'],
        ]);
        // A tenant's watch of the kind sees its own only.
        const mine = await bob.api.request('GET', `${gadgets}?watch=true&timeoutSeconds=1`);
        expect(mine.body.trim().split('\n').map((line) => (JSON.parse(line) as { object: { spec: { owner: string } } }).object.spec.owner)).toEqual(['t2']);
      });

      it('is listed read-only in every space: no shadowing, changing or deleting it from a tenant', async () => {
        const got = await kubectl.run(['get', 'crd', SHARED, '-o', 'jsonpath={.metadata.name}'], { kubeconfig: alice.kubeconfig, version: '1.33' });
        expect(got.stdout).toBe(SHARED);
        expect((await alice.api.request('GET', CRDS)).json<{ items: Array<{ metadata: { name: string } }> }>().items.map((i) => i.metadata.name)).toContain(SHARED);
        const shadow = await bob.api.request('POST', CRDS, { json: sharedCrd });
        expect(shadow.status).toBe(409);
        expect(shadow.json<{ message: string }>().message).toBe(`customresourcedefinitions.apiextensions.k8s.io "${SHARED}" already exists: a system CRD shared with every space holds this name`);
        for (const [method, json] of [['DELETE', undefined], ['PUT', sharedCrd]] as const) {
          const res = await alice.api.request(method, `${CRDS}/${SHARED}`, json ? { json } : {});
          expect(res.status, res.body).toBe(403);
        }
        const patched = await kubectl.run(['label', 'crd', SHARED, 'mine=yes'], { kubeconfig: alice.kubeconfig, version: '1.33' });
        expect(patched.code).toBe(1);
        expect(patched.stderr).toContain('is provided by the system and read-only in every space');
        const deleted = await kubectl.run(['delete', 'crd', SHARED], { kubeconfig: bob.kubeconfig, version: '1.33' });
        expect(deleted.code).toBe(1);
      });

      it('takes its custom resources in every space with it when the system deletes it', async () => {
        const deleted = await kubectl.run(['delete', 'crd', SHARED, '--wait=false'], { kubeconfig: cluster.server.adminKubeconfig, version: '1.33' });
        expect(deleted.code, deleted.stderr).toBe(0);
        await eventually('the shared CRD to be gone', async () => (await cluster.api.request('GET', `${CRDS}/${SHARED}`)).status === 404);
        for (const api of [alice.api, bob.api]) {
          expect((await api.request('GET', `${gadgets}/g1`)).status).toBe(404);
          expect((await api.request('GET', '/apis/shared.example.com/v1')).status).toBe(404);
        }
        expect((await allSpaces.api.request('GET', '/tenants/all/apis/shared.example.com/v1/gadgets')).status).toBe(404);
      });
    });

    describe('CRDs converting through a webhook', () => {
      let hooks: WebhookServer;
      const convertingCrd = (group: string, labels?: Record<string, string>) => {
        const version = (name: string, storage: boolean) => ({ name, served: true, storage, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } });
        return {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: `widgets.${group}`, ...(labels ? { labels } : {}) },
          spec: {
            group,
            scope: 'Namespaced',
            names: { plural: 'widgets', kind: 'Widget' },
            versions: [version('v1', true), version('v2', false)],
            conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: hooks.url('/convert'), caBundle: hooks.caBundle }, conversionReviewVersions: ['v1'] } },
          },
        };
      };
      const widget = (group: string, owner: string) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w1' }, spec: { cronSpec: owner } });
      /**
       * The spaces of the conversion reviews since `from`, each review's objects' spaces as one
       * text (`t1`, or `t1,t2` for a review that would mix them). The server's controllers read
       * widgets too (in their preferred version, v2), so reviews of their own come in between.
       */
      const reviewedSpaces = (from: number) =>
        new Set(hooks.reviews.slice(from).map((r) => [...new Set((r.request['objects'] as Array<{ metadata: { tenant: string } }>).map((o) => o.metadata.tenant))].sort().join(',')));

      beforeAll(async () => {
        hooks = await startWebhookServer();
      });

      afterAll(async () => {
        await hooks?.close();
      });

      it('sends a t1 CRD’s webhook t1’s objects only, though t2 has the same CRD and webhook', async () => {
        const group = 'conv.example.com';
        const path = `/apis/${group}/v2/namespaces/default/widgets`;
        for (const [user, owner] of [[alice, 't1'], [bob, 't2']] as const) {
          expect((await user.api.request('POST', CRDS, { json: convertingCrd(group) })).status).toBe(201);
          await eventually(`${owner} to serve widgets`, async () => (await user.api.request('GET', path)).status === 200);
          expect((await user.api.request('POST', `/apis/${group}/v1/namespaces/default/widgets`, { json: widget(group, owner) })).status).toBe(201);
        }
        for (const [user, owner] of [[alice, 't1'], [bob, 't2']] as const) {
          const from = hooks.reviews.length;
          const listed = (await user.api.request('GET', path)).json<{ items: Array<{ apiVersion: string; spec: { schedule: string } }> }>();
          expect(listed.items.map((i) => [i.apiVersion, i.spec.schedule])).toEqual([[`${group}/v2`, owner]]);
          expect((await user.api.request('GET', `${path}/w1`)).json<{ spec: { schedule: string } }>().spec.schedule).toBe(owner);
          expect(reviewedSpaces(from)).toContain(owner);
          expect([...reviewedSpaces(0)].every((spaces) => !spaces.includes(','))).toBe(true);
        }
      });

      it('converts a shared system CRD’s objects in one review per space when the system admin lists them across spaces', async () => {
        const group = 'convshared.example.com';
        expect((await cluster.api.request('POST', CRDS, { json: convertingCrd(group, { 'arktos.futurewei.com/crd-sharing-policy': 'forced' }) })).status).toBe(201);
        for (const [user, owner] of [[alice, 't1'], [bob, 't2']] as const) {
          await eventually(`${owner} to serve the shared widgets`, async () => (await user.api.request('GET', `/apis/${group}/v2/namespaces/default/widgets`)).status === 200);
          expect((await user.api.request('POST', `/apis/${group}/v1/namespaces/default/widgets`, { json: widget(group, owner) })).status).toBe(201);
        }
        const from = hooks.reviews.length;
        const all = (await allSpaces.api.request('GET', `/tenants/all/apis/${group}/v2/widgets`)).json<{ items: Array<{ metadata: { tenant: string }; spec: { schedule: string } }> }>();
        expect(all.items.map((i) => [i.metadata.tenant, i.spec.schedule]).sort()).toEqual([
          ['t1', 't1'],
          ['t2', 't2'],
        ]);
        expect([...reviewedSpaces(from)].sort()).toEqual(['t1', 't2']);
      });
    });
  });
});
