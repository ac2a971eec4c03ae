import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { done, requeue } from '../runtime/controller.js';
import { reconcileBackground } from './reconcile-background.js';
import { configMap, manualCollector, openFixture, ownerRef, read, type Fixture } from './testing.js';

describe('reconcileBackground', () => {
  let fx: Fixture;
  let generic: GenericStore;
  let configMaps: ResourceDefinition;
  let clusterRoles: ResourceDefinition;
  let n = 0;
  const t1 = { tenant: 't1', namespace: 'ns' };
  const t2 = { tenant: 't2', namespace: 'ns' };
  const unique = (prefix: string) => `${prefix}-${(n += 1)}`;
  const create = (obj: KubeObject, loc = t1) => generic.create(configMaps, loc, obj);
  const remove = (obj: KubeObject) => generic.delete(configMaps, { tenant: obj.metadata.tenant!, namespace: obj.metadata.namespace, name: obj.metadata.name! });

  /** Observes `dependent` (and `others`) and runs the step on the dependent. */
  async function collect(dependent: KubeObject, ...others: KubeObject[]) {
    const gc = manualCollector(fx);
    const [node] = await gc.observe([configMaps, dependent], ...others.map((o): [ResourceDefinition, KubeObject] => [configMaps, o]));
    return reconcileBackground(gc, node!);
  }

  beforeAll(async () => {
    fx = await openFixture();
    generic = fx.generic;
    configMaps = fx.kind('', 'configmaps');
    clusterRoles = fx.kind('rbac.authorization.k8s.io', 'clusterroles');
  });
  afterAll(() => fx.close());

  it('keeps an object whose owner exists, writing nothing', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner)]));
    expect(await collect(dep)).toEqual(done);
    expect((await read(generic, configMaps, dep))?.metadata.resourceVersion).toBe(dep.metadata.resourceVersion);
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
    expect(await read(generic, configMaps, dep)).toBeUndefined();
  });

  it('deletes an object whose owner never existed, once storage confirms it', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    expect(await collect(dep)).toEqual(done);
    expect(await read(generic, configMaps, dep)).toBeUndefined();
  });

  it('drops dangling and waiting references while another owner keeps the object', async () => {
    const keeper = await create(configMap(unique('keeper')));
    const gone = await create(configMap(unique('gone')));
    const waiting = await create(configMap(unique('waiting')));
    const dep = await create(configMap(unique('dep'), [ownerRef(keeper), ownerRef(gone), ownerRef(waiting, true)]));
    await remove(gone);
    await generic.delete(configMaps, { ...t1, name: waiting.metadata.name! }, { propagationPolicy: 'Foreground' });
    expect(await collect(dep)).toEqual(done);
    expect((await read(generic, configMaps, dep))?.metadata.ownerReferences).toEqual([ownerRef(keeper)]);
  });

  it('deletes a dependent of an owner waiting in the foreground', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner, true)]));
    await generic.delete(configMaps, { ...t1, name: owner.metadata.name! }, { propagationPolicy: 'Foreground' });
    expect(await collect(dep)).toEqual(done);
    expect(await read(generic, configMaps, dep)).toBeUndefined();
  });

  it('deletes in the foreground a dependent that has dependents of its own, when its owner waits', async () => {
    const owner = await create(configMap(unique('owner')));
    const middle = await create(configMap(unique('middle'), [ownerRef(owner, true)]));
    const leaf = await create(configMap(unique('leaf'), [ownerRef(middle, true)]));
    await generic.delete(configMaps, { ...t1, name: owner.metadata.name! }, { propagationPolicy: 'Foreground' });
    expect(await collect(middle, leaf)).toEqual(done);
    const marked = await read(generic, configMaps, middle);
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    expect(marked?.metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('collects an object with the policy its own finalizers ask for', async () => {
    const owner = await create(configMap(unique('owner')));
    const dep = await create(configMap(unique('dep'), [ownerRef(owner)], ['orphan']));
    await remove(owner);
    expect(await collect(dep)).toEqual(done);
    const marked = await read(generic, configMaps, dep);
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    expect(marked?.metadata.finalizers).toEqual(['orphan']);
  });

  it('leaves an object already being deleted to its finalizers', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }], ['example.com/hold']));
    const { object } = await remove(dep);
    expect(await collect(dep)).toEqual(done);
    expect((await read(generic, configMaps, dep))?.metadata.resourceVersion).toBe(object.metadata.resourceVersion);
  });

  it.each([
    ['a kind not served: judged again later', { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u-w' }, requeue],
    ['a Tenant, which no space object can be owned by', { apiVersion: 'v1', kind: 'Tenant', name: 't1', uid: 'u-t' }, done],
  ])('never deletes an object naming %s', async (_case, ref, result) => {
    const dep = await create(configMap(unique('dep'), [ref]));
    expect(await collect(dep)).toEqual(result);
    expect((await read(generic, configMaps, dep))?.metadata.resourceVersion).toBe(dep.metadata.resourceVersion);
  });

  it('never deletes a space-scoped object naming a namespaced owner (unresolvable, as in Kubernetes)', async () => {
    const role = await generic.create(clusterRoles, { tenant: 't1' }, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: unique('role'), ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'absent', uid: randomUUID() }] },
    });
    const gc = manualCollector(fx);
    const [node] = await gc.observe([clusterRoles, role]);
    expect(await reconcileBackground(gc, node!)).toEqual(done);
    expect(await read(generic, clusterRoles, role)).toBeDefined();
  });

  it('judges again, deleting nothing, when the references changed since they were observed', async () => {
    const keeper = await create(configMap(unique('keeper')));
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    const gc = manualCollector(fx);
    const [node] = await gc.observe([configMaps, dep]);
    await generic.mutate(configMaps, { ...t1, name: dep.metadata.name! }, (cur) => ({ ...cur, metadata: { ...cur.metadata, ownerReferences: [ownerRef(keeper)] } }));
    expect(await reconcileBackground(gc, node!)).toEqual(requeue);
    expect(await read(generic, configMaps, dep)).toBeDefined();
  });

  it('deletes a newer version all the same when only other fields changed', async () => {
    const dep = await create(configMap(unique('dep'), [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: randomUUID() }]));
    const gc = manualCollector(fx);
    const [node] = await gc.observe([configMaps, dep]);
    await generic.mutate(configMaps, { ...t1, name: dep.metadata.name! }, (cur) => ({ ...cur, data: { k: 'changed' } }));
    expect(await reconcileBackground(gc, node!)).toEqual(done);
    expect(await read(generic, configMaps, dep)).toBeUndefined();
  });

  describe('across spaces', () => {
    it('never takes another space’s object for an owner, and never touches it', async () => {
      const t2Owner = await create(configMap('shared-name'), t2);
      const t1Namesake = await create(configMap('shared-name'));
      const dep = await create(configMap(unique('dep'), [ownerRef(t2Owner, true)]));
      // Judged in its own space: the object at that name there has another uid, so the owner is absent.
      expect(await collect(dep, t1Namesake)).toEqual(done);
      expect(await read(generic, configMaps, dep)).toBeUndefined();
      expect((await read(generic, configMaps, t2Owner))?.metadata.resourceVersion).toBe(t2Owner.metadata.resourceVersion);
      expect((await read(generic, configMaps, t1Namesake))?.metadata.resourceVersion).toBe(t1Namesake.metadata.resourceVersion);
    });

    it('does not see another space’s foreground deletion as its owner waiting', async () => {
      const t2Owner = await create(configMap(unique('owner')), t2);
      const keeper = await create(configMap(unique('keeper')));
      const dep = await create(configMap(unique('dep'), [ownerRef(keeper), ownerRef(t2Owner, true)]));
      await generic.delete(configMaps, { ...t2, name: t2Owner.metadata.name! }, { propagationPolicy: 'Foreground' });
      expect(await collect(dep)).toEqual(done);
      // The foreign reference is dangling in t1 and dropped there; t1's own owner keeps the object.
      expect((await read(generic, configMaps, dep))?.metadata.ownerReferences).toEqual([ownerRef(keeper)]);
      expect((await read(generic, configMaps, t2Owner))?.metadata.finalizers).toEqual(['foregroundDeletion']);
    });
  });
});
