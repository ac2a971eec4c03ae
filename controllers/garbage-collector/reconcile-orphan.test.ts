import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { done } from '../runtime/controller.js';
import { reconcileOrphan } from './reconcile-orphan.js';
import { configMap, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileOrphan', () => {
  let fx: Fixture;
  let generic: GenericStore;
  let configMaps: ResourceDefinition;
  const t1 = { tenant: 't1', namespace: 'ns' };
  const t2 = { tenant: 't2', namespace: 'ns' };
  const create = (loc: { tenant: string; namespace: string }, obj: KubeObject) => generic.create(configMaps, loc, obj);
  const deleteOrphan = (obj: KubeObject) =>
    generic.delete(configMaps, { tenant: obj.metadata.tenant!, namespace: obj.metadata.namespace, name: obj.metadata.name! }, { propagationPolicy: 'Orphan' });

  beforeAll(async () => {
    fx = await openFixture();
    generic = fx.generic;
    configMaps = fx.kind('', 'configmaps');
  });
  afterAll(() => fx.close());

  it('lets other steps act on an owner that is not orphaning', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('idle'));
    const [node] = await gc.observe([configMaps, owner]);
    expect(await reconcileOrphan(gc, node!)).toBe('continue');
  });

  it('removes its reference from every dependent, keeping their other owners, then goes', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('owner'));
    const other = await create(t1, configMap('other'));
    const only = await create(t1, configMap('only', [ownerRef(owner, true)]));
    const shared = await create(t1, configMap('shared', [ownerRef(other), ownerRef(owner)]));
    await deleteOrphan(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, other], [configMaps, only], [configMaps, shared]);
    expect(await reconcileOrphan(gc, node!)).toEqual(done);
    expect(await read(generic, configMaps, owner)).toBeUndefined();
    expect((await read(generic, configMaps, only))?.metadata.ownerReferences).toBeUndefined();
    expect((await read(generic, configMaps, shared))?.metadata.ownerReferences).toEqual([ownerRef(other)]);
  });

  it('leaves a dependent alone that was replaced by another object of the same name', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t1, configMap('owner2'));
    const dep = await create(t1, configMap('dep2', [ownerRef(owner)]));
    await deleteOrphan(owner);
    await gc.observe([configMaps, owner], [configMaps, dep]);
    await generic.delete(configMaps, { ...t1, name: 'dep2' });
    const successor = await create(t1, configMap('dep2', [ownerRef(owner)]));
    const [node] = await gc.observe([configMaps, owner]);
    await reconcileOrphan(gc, node!);
    expect((await read(generic, configMaps, successor))?.metadata.ownerReferences).toEqual([ownerRef(owner)]);
  });

  it('never edits an object of another space that names its uid', async () => {
    const gc = manualCollector(fx);
    const owner = await create(t2, configMap('owner'));
    const intruder = await create(t1, configMap('intruder', [ownerRef(owner)]));
    await deleteOrphan(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, intruder]);
    expect(await reconcileOrphan(gc, node!)).toEqual(done);
    expect(await read(generic, configMaps, owner)).toBeUndefined();
    const after = await read(generic, configMaps, intruder);
    expect(after?.metadata.resourceVersion).toBe(intruder.metadata.resourceVersion);
    expect(after?.metadata.ownerReferences).toEqual([ownerRef(owner)]);
  });
});
