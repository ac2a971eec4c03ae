/**
 * Which resources the garbage collector watches, and which kind an ownerReference names. Both come
 * from discovery (every space at once, and each space with CRDs of its own), so a kind added to the
 * server, or a CRD created in a space, is collected without code changes here.
 *
 * @example
 *   const everySpace = new ServedKinds(await client.allSpaces().preferredResources());
 *   const t1 = new ServedKinds(await client.space('t1').preferredResources(), everySpace);
 *   t1.collected;                                                   // t1's own CRDs' resources only
 *   t1.ownerKind({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid }); // { kind: 'collected', resource }
 */
import type { OwnerReference } from '../../api/registry/object.js';
import type { ServedResource } from '../../src/client/discovery.js';
import type { GroupVersionResource } from '../../src/client/paths.js';
import { groupOf } from './graph.js';

/** A resource the collector watches: one kind, at its group's preferred version. */
export interface CollectedResource extends GroupVersionResource {
  kind: string;
  namespaced: boolean;
}

/**
 * The kind an ownerReference names: one the collector watches, one it leaves alone (tenants,
 * events: such a reference can never be judged), or none the space serves.
 */
export type OwnerKind = { kind: 'collected'; resource: CollectedResource } | { kind: 'outside' } | { kind: 'unknown' };

/**
 * Served, but never collected: events (as Kubernetes' `DefaultIgnoredResources`), and the kinds
 * above the spaces, whose objects belong to no space while ownerReferences never leave one
 * (discovery does not tell a space-scoped kind from one above the spaces, so they are named).
 */
export const IGNORED_RESOURCES: ReadonlySet<string> = new Set([
  'events',
  'events.events.k8s.io',
  'tenants',
  'nodes',
  'apiservices.apiregistration.k8s.io',
  'flowschemas.flowcontrol.apiserver.k8s.io',
  'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
]);

/** The verbs the collector needs on a resource: to build its graph and to delete. */
const NEEDED_VERBS = ['list', 'watch', 'delete'];

function groupKind(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/** The resource's name for logs and informers: `configmaps`, `widgets.example.com`. */
export function resourceName(r: GroupVersionResource): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

/** The kinds a space serves, as the collector sees them; kinds of `inherited` (every space's) are left to it. */
export class ServedKinds {
  /** Once per group and kind, so one stored object is never two nodes. */
  readonly collected: readonly CollectedResource[];
  private readonly byKind = new Map<string, CollectedResource>();
  private readonly served = new Set<string>();

  constructor(
    resources: readonly ServedResource[],
    private readonly inherited?: ServedKinds,
  ) {
    const collected: CollectedResource[] = [];
    for (const r of resources) {
      const id = groupKind(r.group, r.kind);
      if (inherited?.serves(id) || this.served.has(id)) continue;
      this.served.add(id);
      if (IGNORED_RESOURCES.has(resourceName(r)) || !NEEDED_VERBS.every((v) => r.verbs.includes(v))) continue;
      const resource: CollectedResource = { group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced };
      this.byKind.set(id, resource);
      collected.push(resource);
    }
    this.collected = collected;
  }

  /**
   * Resolves a reference by group and kind, whatever its version, as Kubernetes' REST mapper does.
   *
   * @example
   *   kinds.ownerKind({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid }) // { kind: 'collected', resource: <replicasets> }
   */
  ownerKind(ref: OwnerReference): OwnerKind {
    const id = groupKind(groupOf(ref.apiVersion), ref.kind);
    const resource = this.byKind.get(id);
    if (resource) return { kind: 'collected', resource };
    if (this.served.has(id)) return { kind: 'outside' };
    return this.inherited?.ownerKind(ref) ?? { kind: 'unknown' };
  }

  private serves(id: string): boolean {
    return this.served.has(id) || (this.inherited?.serves(id) ?? false);
  }
}

