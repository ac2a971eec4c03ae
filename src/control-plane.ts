/**
 * The control plane behind the HTTP server: the registry of kinds, the generic store with its
 * admission plugins, and the in-process controllers. `serve` builds one; tests build one over a
 * temporary store.
 *
 * @example
 *   const plane = await startControlPlane(store, { serviceClusterIpRange: '10.96.0.0/12', log });
 *   const app = buildApp({ ...plane, store, ... });
 *   await plane.stop();
 */
import { ClusterIpAllocator, clusterIpAdmission, parseIpv4Range } from '../api/admission/cluster-ip.js';
import { namespaceLifecycle } from '../api/admission/namespace-lifecycle.js';
import { builtinKinds } from '../api/kinds/index.js';
import { ApiError } from './server/status.js';
import { GenericStore } from '../api/registry/generic-store.js';
import { ResourceRegistry } from '../api/registry/registry.js';
import type { ResourceDefinition } from '../api/registry/resource-definition.js';
import { namespaceController } from '../controllers/namespace/namespace-controller.js';
import type { Controller } from '../controllers/runtime/controller.js';
import { inProcessSource } from '../controllers/runtime/in-process-source.js';
import { Informer } from '../controllers/runtime/informer.js';
import { SYSTEM_TENANT } from '../authz/resolve-tenant.js';
import type { Store } from '../storage/store.js';

export interface ControlPlaneOptions {
  /** The service IP range every space allocates cluster IPs from. */
  serviceClusterIpRange: string;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface ControlPlane {
  registry: ResourceRegistry;
  generic: GenericStore;
  stop(): Promise<void>;
}

/** The namespaces every space has from its start. */
export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

function requireKind(registry: ResourceRegistry, group: string, version: string, resource: string): ResourceDefinition {
  const def = registry.lookup(group, version, resource);
  if (!def) throw new Error(`built-in kind ${group}/${version}/${resource} is missing`);
  return def;
}

/** Creates the initial namespaces of a space that lacks them (idempotent, restart-safe). */
export async function ensureInitialNamespaces(generic: GenericStore, namespaces: ResourceDefinition, tenant: string): Promise<void> {
  for (const name of INITIAL_NAMESPACES) {
    try {
      await generic.create(namespaces, { tenant }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
    }
  }
}

export async function startControlPlane(store: Store, options: ControlPlaneOptions): Promise<ControlPlane> {
  const registry = new ResourceRegistry(builtinKinds);
  const namespaceDef = requireKind(registry, '', 'v1', 'namespaces');
  // The generic store reads namespaces for admission through itself; it is set right below.
  let generic: GenericStore;
  const readNamespace = async (tenant: string, name: string) => {
    try {
      return await generic.get(namespaceDef, { tenant, name });
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const allocator = new ClusterIpAllocator(store, parseIpv4Range(options.serviceClusterIpRange));
  generic = new GenericStore(store, [namespaceLifecycle(readNamespace), clusterIpAdmission(allocator)]);

  await ensureInitialNamespaces(generic, namespaceDef, SYSTEM_TENANT);

  const onInformerError = (err: Error) => options.log.error({ err }, 'informer error');
  const namespaces = new Informer('namespaces', inProcessSource(generic, store, namespaceDef), onInformerError);
  const controllers: Controller[] = [namespaceController({ generic, registry, namespaces, namespaceDef, log: options.log })];
  namespaces.start();
  for (const c of controllers) c.start();

  return {
    registry,
    generic,
    async stop() {
      namespaces.stop();
      await Promise.all(controllers.map((c) => c.stop()));
    },
  };
}
