import { randomUUID } from 'node:crypto';
import { WatchCaches } from '../../api/registry/watch-cache.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { InformerFactory } from '../runtime/informer-factory.js';
import { inProcessSource } from '../runtime/in-process-source.js';
import { collectedKinds } from './collected-kinds.js';
import { GarbageCollector } from './garbage-collector.js';
import { configMap, openFixture, ownerRef, read, type Fixture } from './testing.js';

const log = { error: vi.fn() };

describe('GarbageCollector (informers over every space, in-process)', () => {
  let fx: Fixture;
  let generic: GenericStore;
  let configMaps: ResourceDefinition;
  let gc: GarbageCollector;
  let informers: InformerFactory<ResourceDefinition> | undefined;
  let watchCaches: WatchCaches | undefined;
  const t1 = { tenant: 't1', namespace: 'ns' };
  const t2 = { tenant: 't2', namespace: 'ns' };
  const create = (obj: KubeObject, loc = t1) => generic.create(configMaps, loc, obj);
  const locOf = (obj: KubeObject) => ({ tenant: obj.metadata.tenant!, namespace: obj.metadata.namespace, name: obj.metadata.name! });
  const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 5000, interval: 20 });
  const startCollector = async () => {
    const caches = new WatchCaches(generic, fx.store);
    watchCaches = caches;
    informers = new InformerFactory<ResourceDefinition>((def) => inProcessSource(caches, def), (err) => log.error({ err }, 'informer error'));
    const collector = new GarbageCollector({ generic, registry: fx.registry, informers, log });
    informers.start();
    collector.start();
    await collector.ready();
    return collector;
  };

  beforeAll(async () => {
    fx = await openFixture();
    generic = fx.generic;
    configMaps = fx.kind('', 'configmaps');
  });
  afterAll(async () => {
    await gc?.stop();
    informers?.stop();
    await watchCaches?.stop();
    await fx.close();
  });

  it('collects what was left behind before it started (level-based: it lists, then acts)', async () => {
    const owner = await create(configMap('before-owner'));
    const dep = await create(configMap('before-dep', [ownerRef(owner)]));
    await generic.delete(configMaps, locOf(owner));
    gc = await startCollector();
    await eventually(async () => expect(await read(generic, configMaps, dep)).toBeUndefined());
  });

  it('watches every kind of the registry but events and tenants', () => {
    const resources = collectedKinds(fx.registry).map((d) => `${d.resource}.${d.group}`);
    expect(resources).toContain('secrets.');
    expect(resources).toContain('replicasets.apps');
    expect(resources).not.toContain('events.');
    expect(resources).not.toContain('events.events.k8s.io');
    expect(resources).not.toContain('tenants.');
  });

  it('background: deleting an owner removes its dependents, down a chain and across kinds', async () => {
    const secrets = fx.kind('', 'secrets');
    const owner = await create(configMap('bg-owner'));
    const child = await create(configMap('bg-child', [ownerRef(owner)]));
    const grandchild = await generic.create(secrets, t1, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bg-grandchild', ownerReferences: [ownerRef(child)] } });
    await generic.delete(configMaps, locOf(owner));
    await eventually(async () => {
      expect(await read(generic, configMaps, child)).toBeUndefined();
      expect(await read(generic, secrets, grandchild)).toBeUndefined();
    });
  });

  it('foreground: the owner stays until its blocking dependents are gone, then goes', async () => {
    const owner = await create(configMap('fg-owner'));
    const dep = await create(configMap('fg-dep', [ownerRef(owner, true)], ['example.com/hold']));
    await generic.delete(configMaps, locOf(owner), { propagationPolicy: 'Foreground' });
    // The dependent is deleted (marked: its own finalizer holds it), so the owner keeps waiting.
    await eventually(async () => expect((await read(generic, configMaps, dep))?.metadata.deletionTimestamp).toBeDefined());
    expect((await read(generic, configMaps, owner))?.metadata.finalizers).toEqual(['foregroundDeletion']);
    await generic.mutate(configMaps, locOf(dep), (cur) => ({ ...cur, metadata: { ...cur.metadata, finalizers: [] } }));
    await eventually(async () => expect(await read(generic, configMaps, owner)).toBeUndefined());
    expect(await read(generic, configMaps, dep)).toBeUndefined();
  });

  it('foreground with no dependents: the finalizer goes promptly', async () => {
    const owner = await create(configMap('fg-alone'));
    await generic.delete(configMaps, locOf(owner), { propagationPolicy: 'Foreground' });
    await eventually(async () => expect(await read(generic, configMaps, owner)).toBeUndefined());
  });

  it('orphan: dependents stay, without the reference, and the owner goes', async () => {
    const owner = await create(configMap('or-owner'));
    const dep = await create(configMap('or-dep', [ownerRef(owner, true)]));
    await generic.delete(configMaps, locOf(owner), { propagationPolicy: 'Orphan' });
    await eventually(async () => expect(await read(generic, configMaps, owner)).toBeUndefined());
    const kept = await read(generic, configMaps, dep);
    expect(kept).toBeDefined();
    expect(kept?.metadata.ownerReferences).toBeUndefined();
  });

  it('deletes an object created with a reference to an owner that never existed', async () => {
    const dep = await create(configMap('dangling', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: randomUUID() }]));
    await eventually(async () => expect(await read(generic, configMaps, dep)).toBeUndefined());
  });

  it('keeps spaces apart: a reference to another space’s uid never matches there', async () => {
    const t2Owner = await create(configMap('x-owner'), t2);
    const t2Dep = await create(configMap('x-dep', [ownerRef(t2Owner, true)]), t2);
    const t1Keeper = await create(configMap('x-keeper'));
    const t1Dep = await create(configMap('x-dep', [ownerRef(t1Keeper), ownerRef(t2Owner, true)]));
    // In t1 the t2 uid names nothing: the reference is dropped there; t1's own owner keeps the object.
    await eventually(async () => expect((await read(generic, configMaps, t1Dep))?.metadata.ownerReferences).toEqual([ownerRef(t1Keeper)]));
    // t2's foreground deletion waits for t2's dependent only and never reaches into t1.
    await generic.delete(configMaps, locOf(t2Owner), { propagationPolicy: 'Foreground' });
    await eventually(async () => expect(await read(generic, configMaps, t2Owner)).toBeUndefined());
    expect(await read(generic, configMaps, t2Dep)).toBeUndefined();
    expect(await read(generic, configMaps, t1Dep)).toBeDefined();
    expect(await read(generic, configMaps, t1Keeper)).toBeDefined();
  });

  it('logged no errors', () => {
    expect(log.error).not.toHaveBeenCalled();
  });
});
