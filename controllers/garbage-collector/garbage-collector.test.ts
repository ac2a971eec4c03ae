/**
 * The whole collector against the server in process (`controllers: { enableGarbageCollector: false }`, so this collector is the
 * only one), on the client as its own least-privilege user: what discovery makes it watch, the
 * three propagation policies, spaces kept apart, and a space's own CRD: watched in that space once
 * it is served, its custom resources owning ConfigMaps, the watch stopped when the CRD goes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { customResourceDefinition } from '../../e2e/harness/manifests.js';
import { startInProcessServer } from '../../src/testing/in-process-server.js';
import type { CollectedResource } from './collected-kinds.js';
import { GarbageCollector } from './garbage-collector.js';
import { configMap, configMapResource, openFixture, ownerRef, read, secretResource, type Fixture } from './testing.js';

const log = { info: vi.fn(), error: vi.fn() };

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const widgets: CollectedResource = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };
const widgetCrd = customResourceDefinition('example.com', 'Widget', 'widgets');

describe('GarbageCollector (on the client, over every space)', () => {
  let fx: Fixture;
  let admin: KubeClient;
  let gc: GarbageCollector | undefined;
  const create = (obj: KubeObject, tenant = 't1') => fx.objects(configMapResource, tenant).create(obj);
  const remove = (obj: KubeObject, propagationPolicy?: 'Foreground' | 'Orphan') => fx.objects(configMapResource, obj.metadata.tenant).delete(obj.metadata.name!, { propagationPolicy });
  const readCm = (obj: KubeObject) => read(admin, configMapResource, obj);
  const eventually = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

  beforeAll(async () => {
    fx = await openFixture(await startInProcessServer({ controllers: { enableGarbageCollector: false } }));
    admin = fx.admin;
  });
  afterAll(async () => {
    await gc?.stop();
    await fx?.close();
  });

  it('collects what was left behind before it started (level-based: it lists, then acts)', async () => {
    const owner = await create(configMap('before-owner'));
    const dep = await create(configMap('before-dep', [ownerRef(owner)]));
    await remove(owner);
    gc = new GarbageCollector({ client: fx.collector, log });
    gc.start();
    await gc.ready();
    await eventually(async () => expect(await readCm(dep)).toBeUndefined());
  });

  it('watches every kind discovery lists with list, watch and delete, over every space, but events and the kinds above the spaces', () => {
    expect(gc!.watches).toEqual(expect.arrayContaining(['secrets/v1@all', 'replicasets.apps/v1@all', 'customresourcedefinitions.apiextensions.k8s.io/v1@all']));
    for (const ignored of ['events', 'events.events.k8s.io', 'tenants', 'nodes', 'apiservices.apiregistration.k8s.io']) {
      expect(gc!.watches.filter((w) => w.startsWith(`${ignored}/`))).toEqual([]);
    }
    // Reviews are created only: nothing to list.
    expect(gc!.watches.filter((w) => w.includes('review'))).toEqual([]);
  });

  it('background: deleting an owner removes its dependents, down a chain and across kinds', async () => {
    const owner = await create(configMap('bg-owner'));
    const child = await create(configMap('bg-child', [ownerRef(owner)]));
    const grandchild = await fx.objects(secretResource).create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bg-grandchild', ownerReferences: [ownerRef(child)] } });
    await remove(owner);
    await eventually(async () => {
      expect(await readCm(child)).toBeUndefined();
      expect(await read(admin, secretResource, grandchild)).toBeUndefined();
    });
  });

  it('foreground: the owner stays until its blocking dependents are gone, then goes', async () => {
    const owner = await create(configMap('fg-owner'));
    const dep = await create(configMap('fg-dep', [ownerRef(owner, true)], ['example.com/hold']));
    await remove(owner, 'Foreground');
    // The dependent is deleted (marked: its own finalizer holds it), so the owner keeps waiting.
    await eventually(async () => expect((await readCm(dep))?.metadata.deletionTimestamp).toBeDefined());
    expect((await readCm(owner))?.metadata.finalizers).toEqual(['foregroundDeletion']);
    await fx.objects(configMapResource).patch('fg-dep', 'merge', { metadata: { finalizers: null } });
    await eventually(async () => expect(await readCm(owner)).toBeUndefined());
    expect(await readCm(dep)).toBeUndefined();
  });

  it('foreground with no dependents: the finalizer goes promptly', async () => {
    const owner = await create(configMap('fg-alone'));
    await remove(owner, 'Foreground');
    await eventually(async () => expect(await readCm(owner)).toBeUndefined());
  });

  it('orphan: dependents stay, without the reference, and the owner goes', async () => {
    const owner = await create(configMap('or-owner'));
    const dep = await create(configMap('or-dep', [ownerRef(owner, true)]));
    await remove(owner, 'Orphan');
    await eventually(async () => expect(await readCm(owner)).toBeUndefined());
    const kept = await readCm(dep);
    expect(kept).toBeDefined();
    expect(kept?.metadata.ownerReferences).toBeUndefined();
  });

  it('deletes an object created with a reference to an owner that never existed', async () => {
    const dep = await create(configMap('dangling', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: randomUUID() }]));
    await eventually(async () => expect(await readCm(dep)).toBeUndefined());
  });

  it('keeps spaces apart: a reference to another space’s uid never matches there', async () => {
    const t2Owner = await create(configMap('x-owner'), 't2');
    const t2Dep = await create(configMap('x-dep', [ownerRef(t2Owner, true)]), 't2');
    const t1Keeper = await create(configMap('x-keeper'));
    const t1Dep = await create(configMap('x-dep', [ownerRef(t1Keeper), ownerRef(t2Owner, true)]));
    // In t1 the t2 uid names nothing: the reference is dropped there; t1's own owner keeps the object.
    await eventually(async () => expect((await readCm(t1Dep))?.metadata.ownerReferences).toEqual([ownerRef(t1Keeper)]));
    // t2's foreground deletion waits for t2's dependent only and never reaches into t1.
    await remove(t2Owner, 'Foreground');
    await eventually(async () => expect(await readCm(t2Owner)).toBeUndefined());
    expect(await readCm(t2Dep)).toBeUndefined();
    expect(await readCm(t1Dep)).toBeDefined();
    expect(await readCm(t1Keeper)).toBeDefined();
  });

  describe('a CRD of one space', () => {
    const widget = (name: string): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name } });
    const widgetsIn = (tenant: string) => admin.space(tenant).namespace('ns').resource(widgets);

    it('is watched in that space once served, and its custom resources own objects there only', async () => {
      // t2 has a ConfigMap of the same name owned by a Widget-named reference it cannot serve.
      const t2Dep = await create(configMap('w-dep', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w1', uid: randomUUID() }]), 't2');
      await admin.space('t1').resource(CRDS).create(widgetCrd);
      await eventually(() => expect(gc!.watches).toContain('widgets.example.com/v1@t1'));
      expect(gc!.watches.filter((w) => w.startsWith('widgets.example.com/'))).toEqual(['widgets.example.com/v1@t1']);

      const owner = await widgetsIn('t1').create(widget('w1'));
      const dep = await create(configMap('w-dep', [ownerRef(owner)]));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await readCm(dep)).toBeDefined();
      await widgetsIn('t1').delete('w1');
      await eventually(async () => expect(await readCm(dep)).toBeUndefined());
      // In t2 the kind is not served: the reference is unknown there, never judged dangling.
      expect((await readCm(t2Dep))?.metadata.resourceVersion).toBe(t2Dep.metadata.resourceVersion);
    });

    it('stops being watched when the CRD goes', async () => {
      await admin.space('t1').resource(CRDS).delete('widgets.example.com');
      await eventually(() => expect(gc!.watches.filter((w) => w.startsWith('widgets.example.com/'))).toEqual([]));
    });
  });

  it('watches a system CRD shared with every space once, over every space, and collects in each space apart', async () => {
    const gadgets: CollectedResource = { group: 'shared.example.com', version: 'v1', resource: 'gadgets', kind: 'Gadget', namespaced: true };
    await admin.space('system').resource(CRDS).create(customResourceDefinition('shared.example.com', 'Gadget', 'gadgets', { 'arktos.futurewei.com/crd-sharing-policy': 'forced' }));
    await eventually(() => expect(gc!.watches.filter((w) => w.startsWith('gadgets.shared.example.com/'))).toEqual(['gadgets.shared.example.com/v1@all']));
    const deps: KubeObject[] = [];
    for (const tenant of ['t1', 't2']) {
      const gadget = await admin.space(tenant).namespace('ns').resource(gadgets).create({ apiVersion: 'shared.example.com/v1', kind: 'Gadget', metadata: { name: 'g' } });
      deps.push(await create(configMap('g-dep', [ownerRef(gadget)]), tenant));
    }
    await admin.space('t1').namespace('ns').resource(gadgets).delete('g');
    await eventually(async () => expect(await readCm(deps[0]!)).toBeUndefined());
    expect((await readCm(deps[1]!))?.metadata.resourceVersion).toBe(deps[1]!.metadata.resourceVersion);
  });

  it('logged no errors', () => {
    expect(log.error).not.toHaveBeenCalled();
  });
});
