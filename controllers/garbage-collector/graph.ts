/**
 * The garbage collector's picture of ownership across every space: each observed object with the
 * owners its `metadata.ownerReferences` name, indexed from owner to dependents. An owner is found
 * by **tenant and uid** together: a reference is only ever read inside its dependent's space, so a
 * uid belonging to another space never matches (Kubernetes' graph is keyed by uid alone).
 *
 * @example
 *   const graph = new OwnerGraph();
 *   graph.observe(configMaps, owner);     // configMaps: the CollectedResource it was watched as
 *   graph.observe(configMaps, dependent); // ownerReferences: [{ kind: 'ConfigMap', name: 'owner', uid: owner's uid }]
 *   graph.dependentsOf(graph.at(configMaps, keyOf(owner))!); // [{ node: <dependent>, ref }]
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../api/registry/garbage-collection.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import type { CollectedResource } from './collected-kinds.js';
import { keyOf, keyString, type ObjectKey } from '../../src/client/object-key.js';

/** One object as last observed, with the resource it was observed as (the watch that saw it). */
export interface GraphNode {
  readonly resource: CollectedResource;
  readonly object: KubeObject;
  readonly key: ObjectKey;
  readonly uid: string;
}

/** A dependent of some owner, with the reference that makes it one. */
export interface DependentEdge {
  readonly node: GraphNode;
  readonly ref: OwnerReference;
}

/** What an observation replaced: the node that was at the same location before, if any. */
export interface Observation {
  readonly node: GraphNode;
  readonly previous: GraphNode | undefined;
}

/** The group of an ownerReference's `apiVersion` (`apps/v1` → `apps`, `v1` → core). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Whether `ref`, written on `dependent`, names `owner`: same space, same uid, the kind and name it
 * says, and, for a namespaced owner, the dependent's own namespace (Kubernetes treats a reference
 * across namespaces, or from a space-scoped object to a namespaced one, as naming nothing).
 */
export function referenceMatches(ref: OwnerReference, dependent: GraphNode, owner: GraphNode): boolean {
  return (
    owner.key.tenant === dependent.key.tenant &&
    ref.uid === owner.uid &&
    ref.kind === owner.resource.kind &&
    groupOf(ref.apiVersion) === owner.resource.group &&
    ref.name === owner.key.name &&
    (!owner.resource.namespaced || owner.key.namespace === dependent.key.namespace)
  );
}

/** Marked for deletion, with dependents to delete first (foreground). */
export function isDeletingDependents(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER);
}

/** Marked for deletion, with dependents to orphan first. */
export function isOrphaning(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && (obj.metadata.finalizers ?? []).includes(ORPHAN_FINALIZER);
}

function kindId(resource: CollectedResource): string {
  return `${resource.resource}.${resource.group}`;
}

function uidId(tenant: string, uid: string): string {
  return `${tenant}/${uid}`;
}

export class OwnerGraph {
  /** Every node, by tenant/uid. */
  private readonly nodes = new Map<string, GraphNode>();
  /** Node ids by kind and tenant/namespace/name: informers report a deletion by location only. */
  private readonly locations = new Map<string, string>();
  /** tenant/owner-uid → ids of the nodes whose references name that uid in that tenant. */
  private readonly referrers = new Map<string, Set<string>>();

  /** Records the object's current state; returns it with whatever was at its location before. */
  observe(resource: CollectedResource, obj: KubeObject): Observation {
    const key = keyOf(obj);
    const location = `${kindId(resource)}|${keyString(key)}`;
    const previousId = this.locations.get(location);
    const previous = previousId === undefined ? undefined : this.nodes.get(previousId);
    if (previous) this.unlink(previous);
    const node: GraphNode = { resource, object: obj, key, uid: obj.metadata.uid ?? '' };
    const id = uidId(key.tenant, node.uid);
    this.nodes.set(id, node);
    this.locations.set(location, id);
    for (const ref of obj.metadata.ownerReferences ?? []) {
      const owner = uidId(key.tenant, ref.uid);
      let set = this.referrers.get(owner);
      if (!set) this.referrers.set(owner, (set = new Set()));
      set.add(id);
    }
    return { node, previous };
  }

  /** Forgets the object at a location (it was deleted); returns its last known state. */
  forget(resource: CollectedResource, key: ObjectKey): GraphNode | undefined {
    const location = `${kindId(resource)}|${keyString(key)}`;
    const id = this.locations.get(location);
    const node = id === undefined ? undefined : this.nodes.get(id);
    if (node) this.unlink(node);
    return node;
  }

  /** The object of this kind at this location, as last observed. */
  at(resource: CollectedResource, key: ObjectKey): GraphNode | undefined {
    const id = this.locations.get(`${kindId(resource)}|${keyString(key)}`);
    return id === undefined ? undefined : this.nodes.get(id);
  }

  /** The dependents `owner` has (also after it is forgotten: their references outlive it). */
  dependentsOf(owner: GraphNode): DependentEdge[] {
    const edges: DependentEdge[] = [];
    for (const id of this.referrers.get(uidId(owner.key.tenant, owner.uid)) ?? []) {
      const node = this.nodes.get(id);
      const ref = node?.object.metadata.ownerReferences?.find((r) => r.uid === owner.uid);
      if (node && ref && referenceMatches(ref, node, owner)) edges.push({ node, ref });
    }
    return edges;
  }

  /** The owners of `dependent` that are in the graph and really are what its references name. */
  ownersOf(dependent: GraphNode): GraphNode[] {
    const owners: GraphNode[] = [];
    for (const ref of dependent.object.metadata.ownerReferences ?? []) {
      const owner = this.nodes.get(uidId(dependent.key.tenant, ref.uid));
      if (owner && referenceMatches(ref, dependent, owner)) owners.push(owner);
    }
    return owners;
  }

  /** Forgets every object observed as `resource` (its watch stopped: the kind is no longer served); returns them. */
  forgetResource(resource: CollectedResource): GraphNode[] {
    const gone = [...this.nodes.values()].filter((node) => node.resource === resource);
    for (const node of gone) this.unlink(node);
    return gone;
  }

  /** How many objects the graph holds. */
  get size(): number {
    return this.nodes.size;
  }

  private unlink(node: GraphNode): void {
    const id = uidId(node.key.tenant, node.uid);
    if (this.nodes.get(id) === node) this.nodes.delete(id);
    this.locations.delete(`${kindId(node.resource)}|${keyString(node.key)}`);
    for (const ref of node.object.metadata.ownerReferences ?? []) {
      const owner = uidId(node.key.tenant, ref.uid);
      const set = this.referrers.get(owner);
      set?.delete(id);
      if (set?.size === 0) this.referrers.delete(owner);
    }
  }
}
