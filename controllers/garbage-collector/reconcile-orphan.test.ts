import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import { startInProcessServer } from '../../src/testing/in-process-server.js';
import { done } from '../runtime/controller.js';
import { reconcileOrphan } from './reconcile-orphan.js';
import { configMap, configMapResource as configMaps, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileOrphan (as the collector’s user, against the server in process)', () => {
  let fx: Fixture;
  const create = (tenant: string, obj: KubeObject) => fx.objects(configMaps, tenant).create(obj);
  const deleteOrphan = (obj: KubeObject) => fx.objects(configMaps, obj.metadata.tenant).delete(obj.metadata.name!, { propagationPolicy: 'Orphan' });

  beforeAll(async () => {
    fx = await openFixture(await startInProcessServer({ controllers: { enableGarbageCollector: false } }));
  });
  afterAll(() => fx.close());

  it('lets other steps act on an owner that is not orphaning', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('idle'));
    const [node] = await gc.observe([configMaps, owner]);
    expect(await reconcileOrphan(gc, node!)).toBe('continue');
  });

  it('removes its reference from every dependent, keeping their other owners, then goes', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('owner'));
    const other = await create('t1', configMap('other'));
    const only = await create('t1', configMap('only', [ownerRef(owner, true)]));
    const shared = await create('t1', configMap('shared', [ownerRef(other), ownerRef(owner)]));
    await deleteOrphan(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, other], [configMaps, only], [configMaps, shared]);
    expect(await reconcileOrphan(gc, node!)).toEqual(done);
    expect(await read(fx.admin, configMaps, owner)).toBeUndefined();
    expect((await read(fx.admin, configMaps, only))?.metadata.ownerReferences).toBeUndefined();
    expect((await read(fx.admin, configMaps, shared))?.metadata.ownerReferences).toEqual([ownerRef(other)]);
  });

  it('leaves a dependent alone that was replaced by another object of the same name', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('owner2'));
    const dep = await create('t1', configMap('dep2', [ownerRef(owner)]));
    await deleteOrphan(owner);
    await gc.observe([configMaps, owner], [configMaps, dep]);
    await fx.objects(configMaps).delete('dep2');
    const successor = await create('t1', configMap('dep2', [ownerRef(owner)]));
    const [node] = await gc.observe([configMaps, owner]);
    await reconcileOrphan(gc, node!);
    expect((await read(fx.admin, configMaps, successor))?.metadata.ownerReferences).toEqual([ownerRef(owner)]);
  });

  it('never edits an object of another space that names its uid', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t2', configMap('owner'));
    const intruder = await create('t1', configMap('intruder', [ownerRef(owner)]));
    await deleteOrphan(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, intruder]);
    expect(await reconcileOrphan(gc, node!)).toEqual(done);
    expect(await read(fx.admin, configMaps, owner)).toBeUndefined();
    const after = await read(fx.admin, configMaps, intruder);
    expect(after?.metadata.resourceVersion).toBe(intruder.metadata.resourceVersion);
    expect(after?.metadata.ownerReferences).toEqual([ownerRef(owner)]);
  });
});
