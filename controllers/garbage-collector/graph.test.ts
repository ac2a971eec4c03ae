import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../../api/kinds/index.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { keyOf } from '../../src/client/object-key.js';
import type { CollectedResource } from './collected-kinds.js';
import { groupOf, OwnerGraph, referenceMatches } from './graph.js';

function kind(group: string, resource: string): CollectedResource {
  const def = builtinKinds.find((d) => d.group === group && d.resource === resource);
  if (!def) throw new Error(`no kind ${group}/${resource}`);
  return { group, version: def.version, resource, kind: def.kind, namespaced: def.scope === 'namespace' };
}

const apiVersionOf = (r: CollectedResource) => (r.group === '' ? r.version : `${r.group}/${r.version}`);

const configMaps = kind('', 'configmaps');
const replicaSets = kind('apps', 'replicasets');
const clusterRoles = kind('rbac.authorization.k8s.io', 'clusterroles');

interface Placed {
  tenant: string;
  namespace?: string;
  name: string;
  uid: string;
  owners?: OwnerReference[];
}

function object(def: CollectedResource, p: Placed): KubeObject {
  return { apiVersion: apiVersionOf(def), kind: def.kind, metadata: { name: p.name, namespace: p.namespace, tenant: p.tenant, uid: p.uid, ownerReferences: p.owners } };
}

const ref = (def: CollectedResource, name: string, uid: string, blockOwnerDeletion?: boolean): OwnerReference => ({ apiVersion: apiVersionOf(def), kind: def.kind, name, uid, blockOwnerDeletion });

describe('OwnerGraph', () => {
  it('indexes dependents by their owner, and owners by their dependents', () => {
    const graph = new OwnerGraph();
    const owner = graph.observe(replicaSets, object(replicaSets, { tenant: 't1', namespace: 'ns', name: 'web', uid: 'u-rs' })).node;
    const dep = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'cm', uid: 'u-cm', owners: [ref(replicaSets, 'web', 'u-rs', true)] })).node;
    expect(graph.dependentsOf(owner)).toEqual([{ node: dep, ref: ref(replicaSets, 'web', 'u-rs', true) }]);
    expect(graph.ownersOf(dep)).toEqual([owner]);
    expect(graph.size).toBe(2);
  });

  it('never matches a uid of another space, even at the same name', () => {
    const graph = new OwnerGraph();
    const t2Owner = graph.observe(configMaps, object(configMaps, { tenant: 't2', namespace: 'ns', name: 'owner', uid: 'u-t2' })).node;
    const t1Owner = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'owner', uid: 'u-t1' })).node;
    const t1Dep = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'dep', uid: 'u-dep', owners: [ref(configMaps, 'owner', 'u-t2', true)] })).node;
    expect(graph.dependentsOf(t2Owner)).toEqual([]);
    expect(graph.dependentsOf(t1Owner)).toEqual([]);
    expect(graph.ownersOf(t1Dep)).toEqual([]);
    expect(referenceMatches(ref(configMaps, 'owner', 'u-t2'), t1Dep, t2Owner)).toBe(false);
  });

  it.each<[string, OwnerReference, Placed]>([
    ['another namespace', ref(configMaps, 'owner', 'u-o'), { tenant: 't1', namespace: 'other', name: 'd', uid: 'u-d' }],
    ['another kind', ref(replicaSets, 'owner', 'u-o'), { tenant: 't1', namespace: 'ns', name: 'd', uid: 'u-d' }],
    ['another name', ref(configMaps, 'renamed', 'u-o'), { tenant: 't1', namespace: 'ns', name: 'd', uid: 'u-d' }],
    ['a group that is not the owner’s', { ...ref(configMaps, 'owner', 'u-o'), apiVersion: 'apps/v1' }, { tenant: 't1', namespace: 'ns', name: 'd', uid: 'u-d' }],
  ])('does not take a reference naming %s for the owner', (_case, r, placed) => {
    const graph = new OwnerGraph();
    const owner = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'owner', uid: 'u-o' })).node;
    graph.observe(configMaps, object(configMaps, { ...placed, owners: [r] }));
    expect(graph.dependentsOf(owner)).toEqual([]);
  });

  it('lets a space-scoped owner own namespaced objects of its space', () => {
    const graph = new OwnerGraph();
    const role = graph.observe(clusterRoles, object(clusterRoles, { tenant: 't1', name: 'admin', uid: 'u-cr' })).node;
    const dep = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'cm', uid: 'u-cm', owners: [ref(clusterRoles, 'admin', 'u-cr')] })).node;
    expect(graph.dependentsOf(role).map((e) => e.node)).toEqual([dep]);
  });

  it('follows changed references, deletions and replacements', () => {
    const graph = new OwnerGraph();
    const a = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'a', uid: 'u-a' })).node;
    const b = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'b', uid: 'u-b' })).node;
    const depObj = object(configMaps, { tenant: 't1', namespace: 'ns', name: 'dep', uid: 'u-dep', owners: [ref(configMaps, 'a', 'u-a')] });
    graph.observe(configMaps, depObj);
    const moved = graph.observe(configMaps, { ...depObj, metadata: { ...depObj.metadata, ownerReferences: [ref(configMaps, 'b', 'u-b')] } });
    expect(moved.previous?.object.metadata.ownerReferences).toEqual([ref(configMaps, 'a', 'u-a')]);
    expect(graph.dependentsOf(a)).toEqual([]);
    expect(graph.dependentsOf(b).map((e) => e.node.uid)).toEqual(['u-dep']);

    // Deleted: gone from the graph, but its dependents can still be found from its last state.
    expect(graph.forget(configMaps, keyOf(b.object))).toBe(b);
    expect(graph.at(configMaps, keyOf(b.object))).toBeUndefined();
    expect(graph.dependentsOf(b).map((e) => e.node.uid)).toEqual(['u-dep']);

    // Replaced by a new object of the same name: the old one is reported, the new one is not its owner.
    const replaced = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'a', uid: 'u-a2' }));
    expect(replaced.previous).toBe(a);
    expect(graph.dependentsOf(replaced.node)).toEqual([]);
    expect(graph.forget(configMaps, { tenant: 't1', namespace: 'ns', name: 'dep' })?.uid).toBe('u-dep');
    expect(graph.dependentsOf(b)).toEqual([]);
    expect(graph.size).toBe(1);
  });

  it('forgets what one watch observed, leaving a same-named resource of another space', () => {
    const graph = new OwnerGraph();
    // Two spaces' own CRDs of the same resource name, each watched in its space.
    const t1Widgets: CollectedResource = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };
    const t2Widgets: CollectedResource = { ...t1Widgets };
    const w1 = graph.observe(t1Widgets, object(t1Widgets, { tenant: 't1', namespace: 'ns', name: 'w', uid: 'u-w1' })).node;
    const w2 = graph.observe(t2Widgets, object(t2Widgets, { tenant: 't2', namespace: 'ns', name: 'w', uid: 'u-w2' })).node;
    const dep = graph.observe(configMaps, object(configMaps, { tenant: 't1', namespace: 'ns', name: 'cm', uid: 'u-cm', owners: [ref(t1Widgets, 'w', 'u-w1')] })).node;
    expect(graph.forgetResource(t1Widgets)).toEqual([w1]);
    expect(graph.at(t1Widgets, keyOf(w1.object))).toBeUndefined();
    expect(graph.at(t2Widgets, keyOf(w2.object))).toBe(w2);
    // Its dependents are still found from its last state, to be judged again.
    expect(graph.dependentsOf(w1).map((e) => e.node)).toEqual([dep]);
    expect(graph.size).toBe(2);
  });

  it.each([
    ['v1', ''],
    ['apps/v1', 'apps'],
    ['rbac.authorization.k8s.io/v1', 'rbac.authorization.k8s.io'],
  ])('groupOf(%s) is "%s"', (apiVersion, group) => {
    expect(groupOf(apiVersion)).toBe(group);
  });
});
