/**
 * The service-account controller: one instance over every space makes sure each namespace has a
 * `default` ServiceAccount, when the namespace appears and again if someone deletes the account.
 * Namespaces and tenants being deleted are left alone, so the namespace controller and the tenant
 * teardown, which delete every account, converge. Queue keys are namespaces (tenant included).
 * Its informers must have synced before it starts: an empty cache would claim every account missing.
 * A client of the API, as `system:controller:service-account-controller`.
 */
import { isAlreadyExists, isForbidden, isNotFound } from '../../src/client/api-status.js';
import { serviceAccounts } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export interface ServiceAccountControllerDeps {
  /** Acts as the service-account controller. */
  client: KubeClient;
  tenants: Informer;
  namespaces: Informer;
  serviceAccounts: Informer;
  log: { error(obj: object, msg: string): void };
}

/** Ensures `default` in the namespace `key` names; a no-op for a namespace or tenant on its way out. */
export async function reconcileDefaultServiceAccount(deps: ServiceAccountControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const namespace = deps.namespaces.get(key);
  if (!namespace || namespace.metadata.deletionTimestamp) return done;
  const tenant = deps.tenants.get({ tenant: '', namespace: '', name: key.tenant });
  if (!tenant || tenant.metadata.deletionTimestamp) return done;
  if (deps.serviceAccounts.get({ tenant: key.tenant, namespace: key.name, name: DEFAULT_SERVICE_ACCOUNT })) return done;
  try {
    await deps.client
      .space(key.tenant)
      .namespace(key.name)
      .resource(serviceAccounts)
      .create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } });
  } catch (err) {
    // Made meanwhile (AlreadyExists), or the namespace or tenant started going away (Forbidden, NotFound):
    // either way there is nothing left to do, and the next event brings us back if needed.
    if (isAlreadyExists(err) || isForbidden(err) || isNotFound(err)) return done;
    throw err;
  }
  return done;
}

export function serviceAccountController(deps: ServiceAccountControllerDeps): Controller {
  const controller = new Controller({ name: 'service-account', reconcile: (key) => reconcileDefaultServiceAccount(deps, key), log: deps.log });
  deps.namespaces.onChange((key, obj) => {
    if (obj && !obj.metadata.deletionTimestamp) controller.enqueue(key);
  });
  deps.serviceAccounts.onChange((key, obj) => {
    if (!obj && key.name === DEFAULT_SERVICE_ACCOUNT) controller.enqueue({ tenant: key.tenant, namespace: '', name: key.namespace });
  });
  return controller;
}
