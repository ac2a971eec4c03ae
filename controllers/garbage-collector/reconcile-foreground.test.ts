import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import { startInProcessServer } from '../../src/testing/in-process-server.js';
import { done } from '../runtime/controller.js';
import { reconcileForeground } from './reconcile-foreground.js';
import { configMap, configMapResource as configMaps, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileForeground (as the collector’s user, against the server in process)', () => {
  let fx: Fixture;
  const create = (tenant: string, obj: KubeObject) => fx.objects(configMaps, tenant).create(obj);
  const deleteForeground = (obj: KubeObject) => fx.objects(configMaps, obj.metadata.tenant).delete(obj.metadata.name!, { propagationPolicy: 'Foreground' });

  beforeAll(async () => {
    fx = await openFixture(await startInProcessServer({ controllers: { enableGarbageCollector: false } }));
  });
  afterAll(() => fx.close());

  it('lets other steps act on an owner not being deleted in the foreground', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('idle'));
    const [node] = await gc.observe([configMaps, owner]);
    expect(await reconcileForeground(gc, node!)).toBe('continue');
  });

  it('removes the finalizer at once when nothing blocks, and the owner goes', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('lonely'));
    const loose = await create('t1', configMap('loose', [ownerRef(owner)]));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, loose]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(await read(fx.admin, configMaps, owner)).toBeUndefined();
    // Not blocking, so not waited for: it is collected in the background once its owner is gone.
    expect(await read(fx.admin, configMaps, loose)).toBeDefined();
  });

  it('waits for blocking dependents, queueing them, and finishes once they are gone', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('parent'));
    const child = await create('t1', configMap('child', [ownerRef(owner, true)]));
    const marked = await deleteForeground(owner);
    const [node, childNode] = await gc.observe([configMaps, owner], [configMaps, child]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(gc.enqueued).toEqual([childNode]);
    expect((await read(fx.admin, configMaps, owner))?.metadata.resourceVersion).toBe(marked.metadata.resourceVersion);

    await fx.objects(configMaps).delete('child');
    const [again] = await gc.observe([configMaps, owner], [configMaps, child]);
    expect(await reconcileForeground(gc, again!)).toEqual(done);
    expect(await read(fx.admin, configMaps, owner)).toBeUndefined();
  });

  it('keeps other finalizers: the owner stays marked until they go', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t1', configMap('guarded', [], ['example.com/hold']));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner]);
    await reconcileForeground(gc, node!);
    expect((await read(fx.admin, configMaps, owner))?.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('is never blocked by, and never queues, an object of another space naming its uid', async () => {
    const gc = await manualCollector(fx);
    const owner = await create('t2', configMap('owner'));
    await create('t1', configMap('owner'));
    const intruder = await create('t1', configMap('intruder', [ownerRef(owner, true)]));
    await deleteForeground(owner);
    const [node] = await gc.observe([configMaps, owner], [configMaps, intruder]);
    expect(await reconcileForeground(gc, node!)).toEqual(done);
    expect(gc.enqueued).toEqual([]);
    expect(await read(fx.admin, configMaps, owner)).toBeUndefined();
    expect((await read(fx.admin, configMaps, intruder))?.metadata.resourceVersion).toBe(intruder.metadata.resourceVersion);
  });
});
