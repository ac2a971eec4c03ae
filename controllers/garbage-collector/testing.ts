/**
 * Test support for the garbage collector, against a real server the test starts (in process, its
 * controller manager without a collector, so a test runs its own or its steps by hand): spaces t1
 * and t2 with a namespace `ns` each, an admin client to arrange objects, the collector's own client (its least-privilege role) for what is tested,
 * ConfigMaps to own and depend, and collector dependencies whose graph the test fills from the
 * API, so each reconcile step can be run by hand.
 *
 * @example
 *   const fx = await openFixture(await startInProcessServer({ controllers: { enableGarbageCollector: false } }));
 *   const owner = await fx.objects(configMapResource).create(configMap('owner'));
 */
import type { UserInfo } from '../../api/access.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { CONTROLLER_USERS } from '../../authz/rbac/bootstrap-policy.js';
import { isNotFound } from '../../src/client/api-status.js';
import { namespaces, tenants } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf } from '../../src/client/object-key.js';
import type { ResourceClient } from '../../src/client/resource-client.js';
import { sleep } from '../../src/client/sleep.js';
import { ServedKinds, type CollectedResource } from './collected-kinds.js';
import { OwnerGraph, type GraphNode } from './graph.js';
import { resourceAt } from './object-writes.js';
import type { CollectorDeps } from './steps.js';

export const configMapResource: CollectedResource = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
export const secretResource: CollectedResource = { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true };
export const clusterRoleResource: CollectedResource = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false };

/** The namespace every test object lives in, in t1 and t2. */
export const NAMESPACE = 'ns';
const SPACES = ['t1', 't2'];

/** The server a test started: clients as any identity. */
export interface TestServer {
  clientAs(identity: UserInfo): KubeClient;
  close(): Promise<void>;
}

export interface Fixture {
  /** A system admin (system:masters), to arrange and read back objects. */
  admin: KubeClient;
  /** Acts as the garbage collector. */
  collector: KubeClient;
  /** A resource's objects in namespace `ns` of a space (t1 by default), as the admin. */
  objects(resource: CollectedResource, tenant?: string): ResourceClient;
  close(): Promise<void>;
}

const systemUser = (name: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, tenant: 'system', extra: {} });

async function waitForActive(admin: KubeClient, name: string): Promise<void> {
  while ((await admin.resource(tenants).get(name)).status?.phase !== 'Active') await sleep(20, undefined);
}

export async function openFixture(server: TestServer): Promise<Fixture> {
  const admin = server.clientAs(systemUser('gc-test-admin', ['system:masters']));
  for (const tenant of SPACES) {
    await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: tenant } });
    await waitForActive(admin, tenant);
    await admin.space(tenant).resource(namespaces).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  }
  return {
    admin,
    collector: server.clientAs(systemUser(CONTROLLER_USERS.garbageCollector)),
    objects: (resource, tenant = 't1') => resourceAt(admin, resource, tenant, NAMESPACE),
    close: () => server.close(),
  };
}

/** A ConfigMap owned by whatever `owners` name. */
export function configMap(name: string, owners: OwnerReference[] = [], finalizers?: string[]): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences: owners.length > 0 ? owners : undefined, finalizers }, data: { k: 'v' } };
}

/** A reference to `owner` as a controller would write it. */
export function ownerRef(owner: KubeObject, block = false): OwnerReference {
  return { apiVersion: owner.apiVersion!, kind: owner.kind!, name: owner.metadata.name!, uid: owner.metadata.uid!, ...(block ? { blockOwnerDeletion: true } : {}) };
}

/** Reads an object back, or undefined once it is gone. */
export async function read(client: KubeClient, resource: CollectedResource, obj: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await resourceAt(client, resource, obj.metadata.tenant!, obj.metadata.namespace ?? '').get(obj.metadata.name!);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Collector dependencies over a hand-fed graph; `enqueued` records what the steps queued. */
export interface ManualCollector extends CollectorDeps {
  enqueued: GraphNode[];
  /** Puts the current state of each object into the graph (forgets those gone); returns their nodes. */
  observe(...objs: Array<[CollectedResource, KubeObject]>): Promise<GraphNode[]>;
}

/** Owner kinds come from every space's discovery, as the collector reads it. */
export async function manualCollector(fixture: Fixture): Promise<ManualCollector> {
  const graph = new OwnerGraph();
  const enqueued: GraphNode[] = [];
  const kinds = new ServedKinds(await fixture.collector.allSpaces().preferredResources());
  return {
    graph,
    client: fixture.collector,
    ownerKind: (_tenant, ref) => kinds.ownerKind(ref),
    enqueued,
    enqueue: (node) => enqueued.push(node),
    async observe(...objs) {
      const nodes: GraphNode[] = [];
      for (const [resource, obj] of objs) {
        const current = await read(fixture.admin, resource, obj);
        if (current) nodes.push(graph.observe(resource, current).node);
        else graph.forget(resource, keyOf(obj));
      }
      return nodes;
    },
  };
}
