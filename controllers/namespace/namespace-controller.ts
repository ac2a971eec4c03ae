/**
 * The namespace controller: a namespace marked for deletion (Terminating) has its content deleted,
 * resource by resource as its space's discovery lists them (its own CRDs included), within its own
 * space only; then the `kubernetes` finalizer is removed through the finalize subresource and the
 * namespace goes. One instance watches the namespaces of every space. A client of the API: it runs
 * inside `serve` or in `kube-spaces controllers`, as `system:controller:namespace-controller`.
 */
import type { KubeObject } from '../../api/registry/object.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import { namespaces } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

export const NAMESPACE_FINALIZER = 'kubernetes';

export interface NamespaceControllerDeps {
  /** Acts as the namespace controller. */
  client: KubeClient;
  namespaces: Informer;
  tenants: Informer;
  log: { error(obj: object, msg: string): void };
}

/** Whether a deleted object stays a while: until others release it (finalizers), or a pod's kubelet ends it (grace period). */
export function lingers(obj: KubeObject): boolean {
  return (obj.metadata.finalizers ?? []).length > 0 || (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
}

/**
 * Deletes everything in one namespace of one space; answers how many resources still hold objects.
 * `spaceGoing`: the whole space is being deleted, so pods go at once (grace period 0): a pod on a
 * node with nobody to end it (no kubelet, no simulator) would otherwise hold the space for ever.
 */
async function deleteContent(client: KubeClient, key: ObjectKey, spaceGoing: boolean): Promise<number> {
  const space = client.space(key.tenant);
  let remaining = 0;
  for (const served of await space.preferredResources()) {
    if (!served.namespaced || !served.verbs.includes('deletecollection')) continue;
    const resource = space.namespace(key.name).resource(served);
    const deleted = await resource.deleteCollection({ propagationPolicy: 'Background', ...(spaceGoing ? { gracePeriodSeconds: 0 } : {}) });
    // Only lingering objects can still be there (nothing new can be made in a namespace being deleted).
    if (deleted.items.some(lingers) && (await resource.list({ limit: 1 })).items.length > 0) remaining += 1;
  }
  return remaining;
}

async function reconcileNamespace(deps: NamespaceControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const cached = deps.namespaces.get(key);
  if (!cached?.metadata.deletionTimestamp) return done;
  const spaceGoing = deps.tenants.get({ tenant: '', namespace: '', name: key.tenant })?.metadata.deletionTimestamp !== undefined;
  if ((await deleteContent(deps.client, key, spaceGoing)) > 0) return requeueAfter(1000);
  const space = deps.client.space(key.tenant).resource(namespaces);
  try {
    const current = await space.get(key.name);
    const finalizers = (current.spec?.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER);
    await space.finalize({ ...current, spec: { ...current.spec, finalizers } });
  } catch (err) {
    if (isNotFound(err)) return done;
    // Changed between our read and write: read again.
    if (isConflict(err)) return requeue;
    throw err;
  }
  return done;
}

export function namespaceController(deps: NamespaceControllerDeps): Controller {
  // Namespaces empty independently (a deleted space's all at once): kube-controller-manager's --concurrent-namespace-syncs.
  const controller = new Controller({ name: 'namespace', reconcile: (key) => reconcileNamespace(deps, key), log: deps.log, workers: 10 });
  deps.namespaces.onChange((key, obj) => {
    if (obj?.metadata.deletionTimestamp) controller.enqueue(key);
  });
  return controller;
}
