/**
 * The tenant controller's reconcile against a recording client and informers fed fixed states:
 * what it writes for a new, an arriving and a going space, and that it waits for events (the
 * `kubernetes` Service appearing, a namespace going), never for a timer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import type { WatchEvent } from '../../src/client/watch-events.js';
import { done, requeueAfter, type Controller } from '../runtime/controller.js';
import { Informer } from '../runtime/informer.js';
import { reconcileTenant, tenantController, type TenantControllerDeps } from './tenant-controller.js';

const tenant = (name: string, extra: { phase?: string; deleting?: boolean } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Tenant',
  metadata: { name, uid: `uid-${name}`, resourceVersion: '1', ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { finalizers: ['kubernetes'] },
  ...(extra.phase ? { status: { phase: extra.phase } } : {}),
});
const namespace = (tenant: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { tenant, name, resourceVersion: '1' } });
const service = (tenant: string, name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { tenant, namespace: 'default', name, resourceVersion: '1' } });
const tenantKey = (name: string): ObjectKey => ({ tenant: '', namespace: '', name });

const started: Informer[] = [];
afterEach(() => {
  for (const informer of started.splice(0)) informer.stop();
});

/** An informer whose stream is the given states, one full listing each, in order. */
function informerOf(name: string, ...states: KubeObject[][]): Informer {
  return new Informer(name, (signal) =>
    (async function* (): AsyncGenerator<WatchEvent<KubeObject>> {
      for (const [i, objects] of states.entries()) yield { type: 'RELISTED', objects, resourceVersion: String(i + 1) };
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    })(),
  );
}

async function synced(informer: Informer): Promise<Informer> {
  started.push(informer);
  informer.start();
  await informer.waitForSync();
  return informer;
}

/** A client that records each write as `verb tenant resource name` and answers reads from `namespaces`. */
function recordingClient(namespaces: KubeObject[]): { client: KubeClient; writes: string[] } {
  const writes: string[] = [];
  const resourceIn = (space: string) => (def: { resource: string }) => ({
    create: async (obj: KubeObject) => (writes.push(`create ${space} ${def.resource} ${obj.metadata.name}`), obj),
    list: async () => ({ items: def.resource === 'namespaces' ? namespaces.filter((ns) => ns.metadata.tenant === space) : [] }),
    delete: async (name: string) => (writes.push(`delete ${space} ${def.resource} ${name}`), {}),
    deleteCollection: async () => (writes.push(`deletecollection ${space} ${def.resource}`), { items: [] }),
    patch: async (name: string, _type: string, body: unknown) => (writes.push(`patch ${def.resource} ${name} ${JSON.stringify(body)}`), {}),
    get: async (name: string) => tenant(name, { deleting: true }),
    finalize: async (obj: KubeObject) => (writes.push(`finalize ${def.resource} ${obj.metadata.name} ${JSON.stringify(obj.spec)}`), obj),
  });
  const spaceScoped = [{ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', namespaced: false, verbs: ['deletecollection'] }];
  const client = { space: (space: string) => ({ resource: resourceIn(space), preferredResources: async () => spaceScoped }), resource: resourceIn('') };
  return { client: client as unknown as KubeClient, writes };
}

/** `listed`: the namespaces the server lists, when not those the informer holds. */
async function depsFor(state: { tenants: KubeObject[]; namespaces?: KubeObject[]; listed?: KubeObject[]; services?: KubeObject[] }): Promise<{ deps: TenantControllerDeps; writes: string[] }> {
  const { client, writes } = recordingClient(state.listed ?? state.namespaces ?? []);
  const deps = {
    client,
    tenants: await synced(informerOf('tenants', state.tenants)),
    namespaces: await synced(informerOf('namespaces', state.namespaces ?? [])),
    services: await synced(informerOf('services', state.services ?? [])),
    log: { error: () => undefined },
  };
  return { deps, writes };
}

async function queued(controller: Controller, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) names.push((await controller.queue.get())!.name);
  return names.sort();
}

describe('tenant controller', () => {
  it('lays out a new space and leaves it Pending, requeueing nothing, until its kubernetes Service exists', async () => {
    const { deps, writes } = await depsFor({ tenants: [tenant('t1')] });
    expect(await reconcileTenant(deps, tenantKey('t1'))).toEqual(done);
    expect(writes.sort()).toEqual([
      'create t1 clusterrolebindings admin-role-binding',
      'create t1 clusterroles admin-role',
      'create t1 namespaces default',
      'create t1 namespaces kube-node-lease',
      'create t1 namespaces kube-public',
      'create t1 namespaces kube-system',
    ]);
  });

  it('turns a space Active once its Service is there, creating no namespace the cache already holds', async () => {
    const { deps, writes } = await depsFor({
      tenants: [tenant('t1')],
      namespaces: ['default', 'kube-system', 'kube-public', 'kube-node-lease'].map((name) => namespace('t1', name)),
      services: [service('t1', 'kubernetes')],
    });
    expect(await reconcileTenant(deps, tenantKey('t1'))).toEqual(done);
    expect(writes.sort()).toEqual([
      'create t1 clusterrolebindings admin-role-binding',
      'create t1 clusterroles admin-role',
      'patch tenants t1 {"status":{"phase":"Active"}}',
    ]);
  });

  it('does not take another space’s Service, or another Service of its own, for its own', async () => {
    const { deps, writes } = await depsFor({ tenants: [tenant('t1')], services: [service('t2', 'kubernetes'), service('t1', 'web')] });
    await reconcileTenant(deps, tenantKey('t1'));
    expect(writes.filter((w) => w.startsWith('patch'))).toEqual([]);
  });

  it('marks every namespace of a Terminating space at once and waits for them to go, not for a timer', async () => {
    const { deps, writes } = await depsFor({ tenants: [tenant('t1', { deleting: true })], namespaces: [namespace('t1', 'default'), namespace('t1', 'apps'), namespace('t2', 'default')] });
    expect(await reconcileTenant(deps, tenantKey('t1'))).toEqual(done);
    expect(writes.sort()).toEqual(['delete t1 namespaces apps', 'delete t1 namespaces default']);
  });

  it('looks again soon when the list still has namespaces the informer has seen go (no event would come)', async () => {
    const { deps, writes } = await depsFor({ tenants: [tenant('t1', { deleting: true })], namespaces: [], listed: [namespace('t1', 'default')] });
    expect(await reconcileTenant(deps, tenantKey('t1'))).toEqual(requeueAfter(200));
    expect(writes).toEqual(['delete t1 namespaces default']);
  });

  it('deletes the space’s own objects once its namespaces are gone, then releases the Tenant', async () => {
    const { deps, writes } = await depsFor({ tenants: [tenant('t1', { deleting: true })], namespaces: [namespace('t2', 'default')] });
    expect(await reconcileTenant(deps, tenantKey('t1'))).toEqual(done);
    expect(writes).toEqual(['deletecollection t1 clusterroles', 'finalize tenants t1 {"finalizers":[]}']);
  });

  it('is enqueued by its kubernetes Service appearing and by its namespaces going, never by another space’s', async () => {
    const tenants = await synced(informerOf('tenants', [tenant('new'), tenant('going', { deleting: true }), tenant('active', { phase: 'Active' }), tenant('live')]));
    // Handlers registered after the tenants' listing: only the events below enqueue.
    const namespaces = informerOf('namespaces', [namespace('going', 'default'), namespace('live', 'default')], []);
    const services = informerOf('services', [service('new', 'kubernetes'), service('active', 'kubernetes'), service('live', 'web')]);
    const controller = tenantController({ client: recordingClient([]).client, tenants, namespaces, services, log: { error: () => undefined } });
    await synced(namespaces);
    await synced(services);
    // The namespaces' second listing (without them) follows the first.
    await vi.waitFor(() => expect(namespaces.lister().list()).toEqual([]));
    expect(await queued(controller, controller.queue.length)).toEqual(['going', 'new']);
  });
});
