import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { startInProcessServer } from '../../src/testing/in-process-server.js';
import { done, requeue } from '../runtime/controller.js';
import { reconcileBackground } from './reconcile-background.js';
import { clusterRoleResource, configMap, configMapResource, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileBackground (as the collector’s user, against the server in process)', () => {
  let fx: Fixture;
  let admin: KubeClient;
  let n = 0;
  const unique = (prefix: string) => `${prefix}-${(n += 1)}`;
  const create = (obj: KubeObject, tenant = 't1') => fx.objects(configMapResource, tenant).create(obj);
  const remove = (obj: KubeObject, propagationPolicy?: 'Foreground') => fx.objects(configMapResource, obj.metadata.tenant).delete(obj.metadata.name!, { propagationPolicy });
  const readCm = (obj: KubeObject) => read(admin, configMapResource, obj);

  /** Observes `dependent` (and `others`) and runs the step on the dependent. */
  async function collect(dependent: KubeObject, ...others: KubeObject[]) {
    const gc = await manualCollector(fx);
    const [node] = await gc.observe([configMapResource, dependent], ...others.map((o): [typeof configMapResource, KubeObject] => [configMapResource, o]));
    return reconcileBackground(gc, node!);
  }

  beforeAll(async () => {
    fx = await openFixture(await startInProcessServer({ controllers: { enableGarbageCollector: false } }));
    admin = fx.admin;
  });
  afterAll(() => fx.close());

  it('keeps an object whose owner exists, writing nothing', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner)]));
    expect(await collect(dep)).toEqual(done);
    expect((await readCm(dep))?.metadata.resourceVersion).toBe(dep.metadata.resourceVersion);
  });

  it.each([
    ['is gone', async (owner: KubeObject) => void (await remove(owner))],
    ['was replaced by another object of the same name', async (owner: KubeObject) => {
      await remove(owner);
      await create(configMap(owner.metadata.name!));
    }],
  ])('deletes an object whose only owner %s', async (_case, change) => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner)]));
    await change(owner);
    expect(await collect(dep)).toEqual(done);
    expect(await readCm(dep)).toBeUndefined();
  });

  it('deletes an object whose owner never existed, once the API confirms it', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    expect(await collect(dep)).toEqual(done);
    expect(await readCm(dep)).toBeUndefined();
  });

  it('drops dangling and waiting references while another owner keeps the object', async () => {
    const keeper = await create(configMap(unique('keeper')));
    const gone = await create(configMap(unique('gone')));
    const waiting = await create(configMap(unique('waiting')));
    const dep = await create(configMap(unique('dep'), [ownerRef(keeper), ownerRef(gone), ownerRef(waiting, true)]));
    await remove(gone);
    await remove(waiting, 'Foreground');
    expect(await collect(dep)).toEqual(done);
    expect((await readCm(dep))?.metadata.ownerReferences).toEqual([ownerRef(keeper)]);
  });

  it('deletes a dependent of an owner waiting in the foreground', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner, true)]));
    await remove(owner, 'Foreground');
    expect(await collect(dep)).toEqual(done);
    expect(await readCm(dep)).toBeUndefined();
  });

  it('deletes in the foreground a dependent that has dependents of its own, when its owner waits', async () => {
    const owner = await create(configMap(unique('owner')));
    const middle = await create(configMap(unique('middle'), [ownerRef(owner, true)]));
    const leaf = await create(configMap(unique('leaf'), [ownerRef(middle, true)]));
    await remove(owner, 'Foreground');
    expect(await collect(middle, leaf)).toEqual(done);
    const marked = await readCm(middle);
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    expect(marked?.metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('collects an object with the policy its own finalizers ask for', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner)], ['orphan']));
    await remove(owner);
    expect(await collect(dep)).toEqual(done);
    const marked = await readCm(dep);
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    expect(marked?.metadata.finalizers).toEqual(['orphan']);
  });

  it('leaves an object already being deleted to its finalizers', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }], ['example.com/hold']));
    const marked = await remove(dep);
    expect(await collect(dep)).toEqual(done);
    expect((await readCm(dep))?.metadata.resourceVersion).toBe(marked.metadata.resourceVersion);
  });

  it.each([
    ['a kind not served: judged again later', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w' }, requeue],
    ['a Tenant, which no space object can be owned by', { apiVersion: 'v1', kind: 'Tenant', name: 't1', uid: 'u-t' }, done],
  ])('never deletes an object naming %s', async (_case, ref, result) => {
    const dep = await create(configMap(unique('dep'), [ref]));
    expect(await collect(dep)).toEqual(result);
    expect((await readCm(dep))?.metadata.resourceVersion).toBe(dep.metadata.resourceVersion);
  });

  it('never deletes a space-scoped object naming a namespaced owner (unresolvable, as in Kubernetes)', async () => {
    const role = await admin.space('t1').resource(clusterRoleResource).create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: unique('role'), ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'absent', uid: randomUUID() }] },
    });
    const gc = await manualCollector(fx);
    const [node] = await gc.observe([clusterRoleResource, role]);
    expect(await reconcileBackground(gc, node!)).toEqual(done);
    expect(await read(admin, clusterRoleResource, role)).toBeDefined();
  });

  it('judges again, deleting nothing, when the references changed since they were observed', async () => {
    const keeper = await create(configMap(unique('keeper')));
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    const gc = await manualCollector(fx);
    const [node] = await gc.observe([configMapResource, dep]);
    await fx.objects(configMapResource).patch(dep.metadata.name!, 'merge', { metadata: { ownerReferences: [ownerRef(keeper)] } });
    expect(await reconcileBackground(gc, node!)).toEqual(requeue);
    expect(await readCm(dep)).toBeDefined();
  });

  it('deletes a newer version all the same when only other fields changed', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    const gc = await manualCollector(fx);
    const [node] = await gc.observe([configMapResource, dep]);
    await fx.objects(configMapResource).patch(dep.metadata.name!, 'merge', { data: { k: 'changed' } });
    expect(await reconcileBackground(gc, node!)).toEqual(done);
    expect(await readCm(dep)).toBeUndefined();
  });

  describe('across spaces', () => {
    it('never takes another space’s object for an owner, and never touches it', async () => {
      const t2Owner = await create(configMap('shared-name'), 't2');
      const t1Namesake = await create(configMap('shared-name'));
      const dep = await create(configMap(unique('dep'), [ownerRef(t2Owner, true)]));
      // Judged in its own space: the object at that name there has another uid, so the owner is absent.
      expect(await collect(dep, t1Namesake)).toEqual(done);
      expect(await readCm(dep)).toBeUndefined();
      expect((await readCm(t2Owner))?.metadata.resourceVersion).toBe(t2Owner.metadata.resourceVersion);
      expect((await readCm(t1Namesake))?.metadata.resourceVersion).toBe(t1Namesake.metadata.resourceVersion);
    });

    it('does not see another space’s foreground deletion as its owner waiting', async () => {
      const t2Owner = await create(configMap(unique('owner')), 't2');
      const keeper = await create(configMap(unique('keeper')));
      const dep = await create(configMap(unique('dep'), [ownerRef(keeper), ownerRef(t2Owner, true)]));
      await remove(t2Owner, 'Foreground');
      expect(await collect(dep)).toEqual(done);
      // The foreign reference is dangling in t1 and dropped there; t1's own owner keeps the object.
      expect((await readCm(dep))?.metadata.ownerReferences).toEqual([ownerRef(keeper)]);
      expect((await readCm(t2Owner))?.metadata.finalizers).toEqual(['foregroundDeletion']);
    });
  });
});
