/**
 * The tenant-aware client (`src/client`) against the built server on both backends: the
 * kubeconfigs `kube-spaces kubeconfig` issues, same-named objects of two spaces kept apart in
 * every-space lists and watches, the server's refusal of a tenant user's every-space list,
 * paging, a watch resumed across a server restart and relisted after compaction (etcd), and the
 * example controller of docs/controller-authors.md.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMaps, isForbidden, KubeClient, namespaces, type ConfigMap, type KubeObject, type ResourceClient, type WatchEvent } from '../src/client/index.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { dataDigest, isSummary, SUMMARY_NAME, summaryData } from './examples/config-map-summary-controller.js';
import { startNodeChild } from './harness/node-child.js';
import { REPO_ROOT, type ExitStatus } from './harness/server.js';
import { certificateKubeconfig, createTenants, eventually, grantAndWait, userKubeconfig } from './harness/spaces.js';

const events = { group: '', version: 'v1', resource: 'events' };

function configMap(name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

function event(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'Tested', message: name };
}

/** The next `count` events that are not bookmarks, as `TYPE tenant/name`. */
async function nextEvents<T extends KubeObject>(watch: AsyncGenerator<WatchEvent<T>>, count: number): Promise<string[]> {
  const seen: string[] = [];
  while (seen.length < count) {
    const { value, done } = await watch.next();
    if (done) throw new Error(`the watch ended after ${seen.join(', ')}`);
    if (value.type === 'BOOKMARK') continue;
    if (value.type === 'RELISTED') seen.push(`RELISTED ${value.objects.map((o) => `${o.metadata.tenant}/${o.metadata.name}`).sort().join(' ')}`);
    else seen.push(`${value.type} ${value.object.metadata.tenant}/${value.object.metadata.name}`);
  }
  return seen;
}

/**
 * The example controller as a child process of this test (node itself, no shell between, so
 * `pid` is the controller's own), from the build (`dist/e2e/examples/`).
 */
function startSummaryController(kubeconfig: string): { pid: number; loggedPid: () => Promise<number>; kill9: () => Promise<ExitStatus>; stop: () => Promise<ExitStatus> } {
  const child = startNodeChild([join(REPO_ROOT, 'dist/e2e/examples/run-config-map-summary.js'), kubeconfig]);
  const loggedPid = async (): Promise<number> => {
    await eventually(`the controller to start; output:\n${child.output()}`, async () => child.output().includes('"pid"') || child.exited(), 30_000);
    return (JSON.parse(child.output().split('\n')[0]!) as { pid: number }).pid;
  };
  return { pid: child.pid, loggedPid, kill9: () => child.signal('SIGKILL'), stop: () => child.signal('SIGTERM') };
}

describe('docs/controller-authors.md', () => {
  it('shows the example controller exactly as it is tested here', async () => {
    const doc = await readFile(new URL('../docs/controller-authors.md', import.meta.url), 'utf8');
    const example = await readFile(new URL('./examples/config-map-summary-controller.ts', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});

describe.each(backendCases())('the tenant-aware client on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let admin: KubeClient;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      admin = await KubeClient.fromKubeconfig({ path: cluster.server.adminKubeconfig });
    });
    afterAll(async () => {
      admin?.close();
      await cluster?.cleanup();
    });

    it("works with a tenant user's kubeconfigs from `kube-spaces kubeconfig`, and with the /tenants/<t> server form", async () => {
      const alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'edit', user: 'alice' }, alice.api, '/api/v1/namespaces/default/configmaps');
      const byToken = await KubeClient.fromKubeconfig({ path: alice.kubeconfig });
      const created = await byToken.namespace('default').resource(configMaps).create(configMap('alices', { a: '1' }));
      expect(created.metadata.tenant).toBe('t1');
      byToken.close();

      // The certificate kubeconfig (the command's default) points at the space by the prefix form.
      const byCertificate = await certificateKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      expect(await readFile(byCertificate.kubeconfig, 'utf8')).toContain(`server: ${cluster.server.url}/tenants/t1`);
      const inSpace = await KubeClient.fromKubeconfig({ path: byCertificate.kubeconfig });
      expect(inSpace.target).toEqual({ kind: 'space', tenant: 't1' });
      const read = await inSpace.namespace('default').resource(configMaps).get('alices');
      expect(read).toMatchObject({ metadata: { tenant: 't1', name: 'alices' }, data: { a: '1' } });
      inSpace.close();

      // A system user's kubeconfig for one space (`--space t1`): the space is the client's default.
      const root = await userKubeconfig(cluster, { tenant: 'system', user: 'root', groups: ['system:masters'], space: 't1' });
      const rootClient = await KubeClient.fromKubeconfig({ path: root.kubeconfig });
      expect((await rootClient.namespace('default').resource(configMaps).get('alices')).metadata.tenant).toBe('t1');
      rootClient.close();
    });

    it("lists and watches same-named objects of two spaces apart, each with its tenant, and writes each back to its space", async () => {
      for (const tenant of ['t1', 't2']) await admin.space(tenant).namespace('default').resource(configMaps).create(configMap('dup', { from: tenant }));
      const dups = admin.allSpaces().namespace('default').resource(configMaps);
      const { items } = await dups.listAll({ fieldSelector: 'metadata.name=dup' });
      expect(items.map((cm) => [cm.metadata.tenant, cm.data?.from]).sort()).toEqual([
        ['t1', 't1'],
        ['t2', 't2'],
      ]);

      const watch = dups.watch({ fieldSelector: 'metadata.name=dup' });
      try {
        expect(await nextEvents(watch, 1)).toEqual(['RELISTED t1/dup t2/dup']);
        for (const cm of items) await dups.update({ ...cm, data: { from: cm.metadata.tenant!, changed: 'yes' } });
        expect(await nextEvents(watch, 2)).toEqual(['MODIFIED t1/dup', 'MODIFIED t2/dup']);
      } finally {
        await watch.return(undefined);
      }
      expect((await admin.space('t2').namespace('default').resource(configMaps).get('dup')).data).toEqual({ from: 't2', changed: 'yes' });
    });

    it("refuses a tenant user's allSpaces() as the server refuses it: Forbidden", async () => {
      const bob = await userKubeconfig(cluster, { tenant: 't1', user: 'bob' });
      const raw = await bob.api.request('GET', '/api/v1/tenants/all/configmaps');
      expect(raw.status).toBe(403);
      const client = await KubeClient.fromKubeconfig({ path: bob.kubeconfig });
      const listed = await client.allSpaces().resource(configMaps).list().catch((err: unknown) => err);
      expect(isForbidden(listed)).toBe(true);
      expect(listed).toMatchObject({ code: 403, message: raw.json<{ message: string }>().message });
      const watched = await client.allSpaces().resource(configMaps).watch({ resourceVersion: '1' }).next().catch((err: unknown) => err);
      expect(isForbidden(watched)).toBe(true);
      client.close();
    });

    it("resolves a kind from the space's own discovery: a space's CRD serves there and nowhere else", async () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        },
      };
      await admin.space('t1').resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create(crd);
      const widgetType = { apiVersion: 'example.com/v1', kind: 'Widget' };
      // Served once Established; until then discovery does not list it.
      let widgets: ResourceClient | undefined;
      await eventually('widgets to be served in t1', async () => {
        widgets = await admin.space('t1').namespace('default').resourceFor(widgetType).catch(() => undefined);
        return widgets !== undefined;
      });
      expect(widgets!.resource).toEqual({ group: 'example.com', version: 'v1', resource: 'widgets' });
      const created = await widgets!.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } });
      expect(created.metadata.tenant).toBe('t1');
      await expect(admin.space('t2').namespace('default').resourceFor(widgetType)).rejects.toThrow(/no resource serves Widget/);
    });

    it('streams the initial state as ADDED events ended by a bookmark (sendInitialEvents)', async () => {
      const cms = admin.space('t1').namespace('default').resource(configMaps);
      await cms.create(configMap('streamed', {}, { streamed: 'yes' }));
      const watch = cms.watch({ labelSelector: 'streamed=yes', sendInitialEvents: true });
      try {
        expect((await watch.next()).value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'streamed', tenant: 't1' } } });
        let next = (await watch.next()).value;
        while (next?.type === 'BOOKMARK' && !next.initialEventsEnd) next = (await watch.next()).value;
        expect(next).toMatchObject({ type: 'BOOKMARK', initialEventsEnd: true });
      } finally {
        await watch.return(undefined);
      }
    });

    it('pages a list: every page at the first page’s resourceVersion, as an iterator and in one call', async () => {
      await admin.space('t1').resource(namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } });
      const cms = admin.space('t1').namespace('paging').resource(configMaps);
      for (let i = 0; i < 7; i += 1) await cms.create(configMap(`cm-${i}`, {}, { paging: 'yes' }));
      const pages = [];
      for await (const page of cms.pages({ labelSelector: 'paging=yes', pageSize: 3 })) pages.push(page);
      expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
      expect(new Set(pages.map((p) => p.metadata.resourceVersion)).size).toBe(1);
      const names = [];
      for await (const cm of cms.iterate({ labelSelector: 'paging=yes', pageSize: 2 })) names.push(`${cm.metadata.tenant}/${cm.metadata.name}`);
      expect(names).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `t1/cm-${i}`));
      expect((await cms.listAll({ labelSelector: 'paging=yes' })).items).toHaveLength(7);
    });

    it('resumes a watch across a server restart from the last resourceVersion it saw', async () => {
      const cms: ResourceClient<ConfigMap> = admin.space('t2').namespace('default').resource(configMaps);
      const watch = cms.watch({ labelSelector: 'resume=yes' });
      try {
        expect(await nextEvents(watch, 1)).toEqual(['RELISTED ']);
        await cms.create(configMap('before', {}, { resume: 'yes' }));
        expect(await nextEvents(watch, 1)).toEqual(['ADDED t2/before']);
        await cluster.server.restart();
        await cms.create(configMap('after', {}, { resume: 'yes' }));
        expect(await nextEvents(watch, 1)).toEqual(['ADDED t2/after']);
      } finally {
        await watch.return(undefined);
      }
    });

    it.skipIf(backend !== 'etcd')('relists when its resourceVersion was compacted away (410 Gone)', async () => {
      // Events: a kind no controller watches, so no watch cache holds the old revision. The
      // revisions come from the writes: a read would start the kind's cache (consistent reads
      // come from it), whose window would then answer the watch as kube-apiserver's does.
      const spaceEvents = admin.space('t1').namespace('default').resource(events);
      const old = (await spaceEvents.create(event('e1'))).metadata.resourceVersion!;
      const now = (await spaceEvents.create(event('e2'))).metadata.resourceVersion!;
      const res = await fetch(`${cluster.etcd!.endpoint}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision: now, physical: true }) });
      expect(res.status).toBe(200);
      const watch = spaceEvents.watch({ resourceVersion: old });
      try {
        expect(await nextEvents(watch, 1)).toEqual(['RELISTED t1/e1 t1/e2']);
        await spaceEvents.create(event('e3'));
        expect(await nextEvents(watch, 1)).toEqual(['ADDED t1/e3']);
      } finally {
        await watch.return(undefined);
      }
    });

    it('runs the example controller as a process of its own over 100 spaces: right after creates, updates and deletes, and after a kill -9 and a restart', async () => {
      const spaces = Array.from({ length: 100 }, (_, i) => `many-${i}`);
      // Together, in batches: each space is ready in well under a second, one at a time would take minutes.
      for (let i = 0; i < spaces.length; i += 25) await createTenants(cluster, ...spaces.slice(i, i + 25));
      const inDefault = (tenant: string) => admin.space(tenant).namespace('default').resource(configMaps);
      const inBatches = async (work: (tenant: string, index: number) => Promise<unknown>): Promise<void> => {
        for (let i = 0; i < spaces.length; i += 25) await Promise.all(spaces.slice(i, i + 25).map((tenant, j) => work(tenant, i + j)));
      };
      const wrongSummaries = async (): Promise<string[]> => {
        const { items } = await admin.allSpaces().resource(configMaps).listAll();
        const digests = new Map<string, Map<string, string>>(spaces.map((tenant) => [tenant, new Map()]));
        const summaries = new Map<string, ConfigMap>();
        for (const cm of items) {
          const tenant = cm.metadata.tenant!;
          if (isSummary(cm)) summaries.set(tenant, cm);
          else digests.set(tenant, (digests.get(tenant) ?? new Map()).set(`${cm.metadata.namespace}/${cm.metadata.name}`, dataDigest(cm)));
        }
        return [...digests].filter(([tenant, byKey]) => !isDeepStrictEqual(summaries.get(tenant)?.data, summaryData(byKey))).map(([tenant]) => tenant);
      };
      const converged = async (what: string): Promise<void> => {
        let wrong: string[] = [];
        await eventually(`${what} (wrong: ${wrong.slice(0, 5).join(' ')})`, async () => (wrong = await wrongSummaries()).length === 0, 60_000);
      };

      // The same names in every space, different data in each.
      let controller = startSummaryController(cluster.server.adminKubeconfig);
      expect(await controller.loggedPid()).toBe(controller.pid);
      await inBatches((tenant, i) => inDefault(tenant).create(configMap('same', { n: String(i) })));
      await inBatches((tenant) => inDefault(tenant).create(configMap('other', { n: '0' })));
      await converged('every space summarised after creates');
      const before = (await inDefault('many-7').get(SUMMARY_NAME)).data!;
      await inBatches((tenant, i) => inDefault(tenant).patch('same', 'merge', { data: { n: String(i * 2), extra: 'yes' } }));
      await converged('every space summarised after updates');
      const after = (await inDefault('many-7').get(SUMMARY_NAME)).data!;
      expect(after.count).toBe(before.count);
      expect(after.digest).not.toBe(before.digest);

      // Killed mid-way through a round of changes; more changes while it is down; then restarted.
      const changes = inBatches(async (tenant, i) => {
        if (i % 3 === 0) await inDefault(tenant).delete('other');
        else await inDefault(tenant).patch('other', 'merge', { data: { n: String(i) } });
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await controller.kill9()).toEqual({ code: null, signal: 'SIGKILL' });
      await changes;
      await inBatches((tenant, i) => (i % 2 === 0 ? inDefault(tenant).create(configMap('while-down', { n: String(i) })) : Promise.resolve()));
      expect((await wrongSummaries()).length).toBeGreaterThan(0);
      controller = startSummaryController(cluster.server.adminKubeconfig);
      await converged('the restarted controller to converge');
      expect(await controller.stop()).toEqual({ code: 0, signal: null });
    }, 240_000);
  });
});
