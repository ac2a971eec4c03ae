/**
 * What a tenant's space sees of the kinds above the spaces that spaces may read (DESIGN.md
 * section 2; `readableFromSpaces` in a kind's definition). System users see them all. A tenant:
 *
 * - Nodes: only the nodes that run a pod of its own space (vcluster's choice), so `kubectl get
 *   nodes` shows where its pods are and nothing of the machines of other spaces; with no pod
 *   placed, an empty list. A node it does not see is "not found", like one that does not exist.
 * - APIServices: the local ones (the built-in groups, served by this server itself); those of
 *   aggregated servers belong to the system.
 *
 * Writes to these kinds are refused to tenants by authorization (403), before any of this runs.
 * The node filter reads `NodeUsage`, kept by an informer of every pod, so list, get and watch
 * decide alike and without reading storage. A watch shows the nodes visible as each event
 * arrives; a node that becomes visible because a pod was placed on it shows at its next change.
 */
import type { KubeObject } from '../../../api/registry/object.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../../../api/spaces.js';
import { notFound } from '../../../api/registry/api-errors.js';
import type { ResourceRequest } from './resolve-resource.js';

/** Which nodes run pods of which space, from the pods' `spec.nodeName`. */
export class NodeUsage {
  /** The node of each placed pod, by `tenant/namespace/name`. */
  private readonly podNodes = new Map<string, { tenant: string; node: string }>();
  /** Per space, how many of its pods each node runs. */
  private readonly counts = new Map<string, Map<string, number>>();

  /** Records a pod's current state (undefined once it is gone). */
  apply(key: { tenant: string; namespace: string; name: string }, pod: KubeObject | undefined): void {
    const id = `${key.tenant}/${key.namespace}/${key.name}`;
    const node = (pod?.spec as { nodeName?: string } | undefined)?.nodeName;
    const before = this.podNodes.get(id);
    if (before?.node === node) return;
    if (before) this.add(before.tenant, before.node, -1);
    if (node) {
      this.podNodes.set(id, { tenant: key.tenant, node });
      this.add(key.tenant, node, 1);
    } else {
      this.podNodes.delete(id);
    }
  }

  /** Whether a pod of the space runs on the node. */
  runsPodsOf(tenant: string, node: string): boolean {
    return (this.counts.get(tenant)?.get(node) ?? 0) > 0;
  }

  private add(tenant: string, node: string, delta: number): void {
    const nodes = this.counts.get(tenant) ?? new Map<string, number>();
    const count = (nodes.get(node) ?? 0) + delta;
    if (count > 0) nodes.set(node, count);
    else nodes.delete(node);
    if (nodes.size > 0) this.counts.set(tenant, nodes);
    else this.counts.delete(tenant);
  }
}

/** Whether the request reads a kind above the spaces from inside a tenant's space, and so sees only part of it. */
export function seesPartAboveSpaces(req: ResourceRequest): boolean {
  return req.def.scope === 'cluster' && req.def.readableFromSpaces && req.tenant !== SYSTEM_TENANT && req.tenant !== ALL_TENANTS;
}

/** The objects of the request's kind that its space sees. */
export function visibleInSpace(req: ResourceRequest, nodeUsage: NodeUsage | undefined): (obj: KubeObject) => boolean {
  const tenant = req.tenant;
  if (req.def.group === '' && req.def.resource === 'nodes') return (node) => nodeUsage?.runsPodsOf(tenant, node.metadata.name!) ?? false;
  if (req.def.group === 'apiregistration.k8s.io' && req.def.resource === 'apiservices') return (apiService) => !(apiService.spec as { service?: unknown } | undefined)?.service;
  return () => false;
}

/** A field filter narrowed to what the space sees. */
export function narrowedToSpace(req: ResourceRequest, nodeUsage: NodeUsage | undefined, fieldMatch: ((obj: KubeObject) => boolean) | undefined): (obj: KubeObject) => boolean {
  const visible = visibleInSpace(req, nodeUsage);
  return fieldMatch ? (obj) => visible(obj) && fieldMatch(obj) : visible;
}

/** A GET of an object the space does not see is answered as for one that does not exist. */
export function assertVisible(req: ResourceRequest, nodeUsage: NodeUsage | undefined, obj: KubeObject): KubeObject {
  if (visibleInSpace(req, nodeUsage)(obj)) return obj;
  throw notFound(req.def, req.name!);
}
