/**
 * Test support for the garbage collector: a generic store over SQLite in a temporary directory with
 * the built-in kinds, ConfigMaps to own and depend, and collector dependencies whose graph the test
 * fills from storage, so each reconcile step can be run by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinKinds } from '../../api/kinds/index.js';
import { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { ResourceRegistry } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ApiError } from '../../api/status.js';
import { keyOf } from '../../src/client/object-key.js';
import { ownerKindResolver } from './collected-kinds.js';
import { OwnerGraph, type GraphNode } from './graph.js';
import type { CollectorDeps } from './steps.js';

export interface Fixture {
  store: Store;
  generic: GenericStore;
  registry: ResourceRegistry;
  kind(group: string, resource: string): ResourceDefinition;
  close(): Promise<void>;
}

export async function openFixture(): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'garbage-collector-'));
  const store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
  const registry = new ResourceRegistry(builtinKinds);
  return {
    store,
    generic: new GenericStore(store),
    registry,
    kind(group, resource) {
      const def = registry.all().find((d) => d.group === group && d.resource === resource);
      if (!def) throw new Error(`no kind ${group}/${resource}`);
      return def;
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A ConfigMap in `tenant`/`namespace`, owned by whatever `owners` name. */
export function configMap(name: string, owners: OwnerReference[] = [], finalizers?: string[]): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences: owners.length > 0 ? owners : undefined, finalizers }, data: { k: 'v' } };
}

/** A reference to `owner` as a controller would write it. */
export function ownerRef(owner: KubeObject, block = false): OwnerReference {
  return { apiVersion: owner.apiVersion!, kind: owner.kind!, name: owner.metadata.name!, uid: owner.metadata.uid!, ...(block ? { blockOwnerDeletion: true } : {}) };
}

/** Reads an object back, or undefined once it is gone. */
export async function read(generic: GenericStore, def: ResourceDefinition, obj: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await generic.get(def, { tenant: obj.metadata.tenant!, namespace: obj.metadata.namespace, name: obj.metadata.name! });
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
    throw err;
  }
}

/** Collector dependencies over a hand-fed graph; `enqueued` records what the steps queued. */
export interface ManualCollector extends CollectorDeps {
  enqueued: GraphNode[];
  /** Puts the stored state of each object into the graph (forgets those gone); returns their nodes. */
  observe(...objs: Array<[ResourceDefinition, KubeObject]>): Promise<GraphNode[]>;
}

export function manualCollector(fixture: Fixture): ManualCollector {
  const graph = new OwnerGraph();
  const enqueued: GraphNode[] = [];
  return {
    graph,
    generic: fixture.generic,
    ownerKind: ownerKindResolver(fixture.registry),
    enqueued,
    enqueue: (node) => enqueued.push(node),
    async observe(...objs) {
      const nodes: GraphNode[] = [];
      for (const [def, obj] of objs) {
        const current = await read(fixture.generic, def, obj);
        if (current) nodes.push(graph.observe(def, current).node);
        else graph.forget(def, keyOf(obj));
      }
      return nodes;
    },
  };
}
