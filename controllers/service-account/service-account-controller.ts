/**
 * The service-account controller: one instance over every space makes sure each namespace has a
 * `default` ServiceAccount, when the namespace appears and again if someone deletes the account.
 * Namespaces and tenants being deleted are left alone, so the namespace controller and the tenant
 * teardown, which delete every account, converge. Queue keys are namespaces (tenant included).
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { ObjectKey } from '../../src/client/object-key.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export interface ServiceAccountControllerDeps {
  generic: GenericStore;
  tenants: Informer;
  namespaces: Informer;
  serviceAccounts: Informer;
  serviceAccountDef: ResourceDefinition;
  log: { error(obj: object, msg: string): void };
}

/** Ensures `default` in the namespace `key` names; a no-op for a namespace or tenant on its way out. */
export async function reconcileDefaultServiceAccount(deps: ServiceAccountControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const namespace = deps.namespaces.get(key);
  if (!namespace || namespace.metadata.deletionTimestamp) return done;
  const tenant = deps.tenants.get({ tenant: '', namespace: '', name: key.tenant });
  if (!tenant || tenant.metadata.deletionTimestamp) return done;
  // Before the first list the cache would claim every account is missing.
  await deps.serviceAccounts.waitForSync();
  if (deps.serviceAccounts.get({ tenant: key.tenant, namespace: key.name, name: DEFAULT_SERVICE_ACCOUNT })) return done;
  try {
    await deps.generic.create(
      deps.serviceAccountDef,
      { tenant: key.tenant, namespace: key.name },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: key.name } },
    );
  } catch (err) {
    // Made meanwhile (AlreadyExists), or the namespace or tenant started going away (Forbidden, NotFound):
    // either way there is nothing left to do, and the next event brings us back if needed.
    if (err instanceof ApiError && (err.reason === 'AlreadyExists' || err.reason === 'Forbidden' || err.reason === 'NotFound')) return done;
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
