/**
 * The namespace controller: a namespace marked for deletion (Terminating) has its content deleted,
 * kind by kind as the registry lists them, within its own space only; then the `kubernetes`
 * finalizer is removed through the finalize subresource and the namespace goes. One instance
 * watches the namespaces of every space.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceRegistry } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { ObjectKey } from '../../src/client/object-key.js';

export const NAMESPACE_FINALIZER = 'kubernetes';

export interface NamespaceControllerDeps {
  generic: GenericStore;
  registry: ResourceRegistry;
  namespaces: Informer;
  namespaceDef: ResourceDefinition;
  log: { error(obj: object, msg: string): void };
}

/** Deletes everything in one namespace of one space; answers how many objects still remain. */
async function deleteContent(deps: NamespaceControllerDeps, key: ObjectKey): Promise<number> {
  let remaining = 0;
  for (const def of deps.registry.view(key.tenant).all()) {
    if (def.scope !== 'namespace' || !def.verbs.includes('deletecollection')) continue;
    const scope = { tenant: key.tenant, namespace: key.name };
    await deps.generic.deleteCollection(def, scope, {}, { propagationPolicy: 'Background' });
    // Objects held by finalizers stay until their owners release them.
    remaining += (await deps.generic.list(def, scope, { limit: 1 })).items.length;
  }
  return remaining;
}

async function reconcileNamespace(deps: NamespaceControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const ns: KubeObject | undefined = deps.namespaces.get(key);
  if (!ns?.metadata.deletionTimestamp) return done;
  const remaining = await deleteContent(deps, key);
  if (remaining > 0) return requeueAfter(1000);
  try {
    await deps.generic.mutate(
      deps.namespaceDef,
      { tenant: key.tenant, name: key.name },
      (current) => {
        const spec = (current.spec ?? {}) as { finalizers?: string[] };
        current.spec = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) };
        return current;
      },
      { subresource: 'finalize' },
    );
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'NotFound') return done;
    throw err;
  }
  return done;
}

export function namespaceController(deps: NamespaceControllerDeps): Controller {
  const controller = new Controller({ name: 'namespace', reconcile: (key) => reconcileNamespace(deps, key), log: deps.log });
  deps.namespaces.onChange((key, obj) => {
    if (obj?.metadata.deletionTimestamp) controller.enqueue(key);
  });
  return controller;
}
