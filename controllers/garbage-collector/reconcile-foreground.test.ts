import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { done } from '../runtime/controller.js';
import { reconcileForeground } from './reconcile-foreground.js';
import { configMap, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileForeground', () => {
  let fx: Fixture;
  let generic: GenericStore;
  let configMaps: ResourceDefinition;
  const t1 = { tenant: 't1', namespace: 'ns' };
  const t2 = { tenant: 't2', namespace: 'ns' };
  const create = (loc: { tenant: string; namespace: string }, obj: KubeObject) => generic.create(configMaps, loc, obj);
  const deleteForeground = (obj: KubeObject) =>
    generic.delete(configMaps, { tenant: obj.metadata.tenant!, namespace: obj.metadata.namespace, name: obj.metadata.name! }, { propagationPolicy: 'Foreground' });

  beforeAll(async () => {
    fx = await openFixture();
    generic = fx.generic;
    configMaps = fx.kind('', 'configmaps');
  });
  afterAll(() => fx.close());

  it('lets other steps act on an owner not being deleted in the foreground', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('idle'));
    const [node] = await gc.observe([configMaps, owner]);
    expect(await reconcileForeground(gc, node!)).toBe('continue');
  });

  it('removes the finalizer at once when nothing blocks, and the owner goes', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('lonely'));
    const loose = await create(t1, configMap('loose', [ownerRef(owner)]));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, loose]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(await read(generic, configMaps, owner)).toBeUndefined();
    // Not blocking, so not waited for: it is collected in the background once its owner is gone.
    expect(await read(generic, configMaps, loose)).toBeDefined();
  });

  it('waits for blocking dependents, queueing them, and finishes once they are gone', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('parent'));
    const child = await create(t1, configMap('child', [ownerRef(owner, true)]));
    const marked = await deleteForeground(owner);
    const [node, childNode] = await gc.observe([configMaps, owner], [configMaps, child]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(gc.enqueued).toEqual([childNode]);
    expect((await read(generic, configMaps, owner))?.metadata.resourceVersion).toBe(marked.object.metadata.resourceVersion);

    await generic.delete(configMaps, { ...t1, name: 'child' });
    const [again] = await gc.observe([configMaps, owner], [configMaps, child]);
    expect(await reconcileForeground(gc, again!)).toEqual(done);
    expect(await read(generic, configMaps, owner)).toBeUndefined();
  });

  it('keeps other finalizers: the owner stays marked until they go', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('guarded', [], ['example.com/hold']));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner]);
    await reconcileForeground(gc, node!);
    expect((await read(generic, configMaps, owner))?.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('is never blocked by, and never queues, an object of another space naming its uid', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t2, configMap('owner'));
    await create(t1, configMap('owner'));
    const intruder = await create(t1, configMap('intruder', [ownerRef(owner, true)]));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, intruder]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(gc.enqueued).toEqual([]);
    expect(await read(generic, configMaps, owner)).toBeUndefined();
    expect((await read(generic, configMaps, intruder))?.metadata.resourceVersion).toBe(intruder.metadata.resourceVersion);
  });
});
