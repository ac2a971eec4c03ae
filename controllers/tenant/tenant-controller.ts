/**
 * The tenant controller: one instance over every Tenant. A new tenant gets its space laid out and
 * turns Active; a deleted one (Terminating) has its space emptied, then its finalizer released so
 * the Tenant goes. Level-based: each reconcile reads the Tenant as it is now, so restarts and
 * repeats are harmless.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { TENANT_FINALIZER, type Tenant } from '../../api/kinds/core/tenant.js';
import { SYSTEM_TENANT } from '../../api/admission/tenant-lifecycle.js';
import { ApiError } from '../../api/status.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { ensureSpaceLayout, type SpaceKinds } from './space-layout.js';
import { tearDownSpace } from './space-teardown.js';

export interface TenantControllerDeps {
  generic: GenericStore;
  registry: ResourceRegistry;
  tenants: Informer;
  tenantDef: ResourceDefinition;
  kinds: SpaceKinds;
  /** Objects a space's own controllers keep, made here first so they exist before the space is Active (the `kubernetes` Service takes the first IP). */
  ensureSpaceDefaults(tenant: string): Promise<void>;
  log: { error(obj: object, msg: string): void };
}

async function activate(deps: TenantControllerDeps, tenant: Tenant): Promise<ReconcileResult> {
  const name = tenant.metadata.name!;
  await ensureSpaceLayout(deps.generic, deps.kinds, name, name !== SYSTEM_TENANT);
  await deps.ensureSpaceDefaults(name);
  if (tenant.status?.phase !== 'Active') {
    await deps.generic.mutate(deps.tenantDef, { tenant: '', name }, (current) => ({ ...current, status: { ...(current.status as object), phase: 'Active' } }), {
      subresource: 'status',
    });
  }
  return done;
}

async function finalize(deps: TenantControllerDeps, tenant: Tenant): Promise<ReconcileResult> {
  const name = tenant.metadata.name!;
  const remaining = await tearDownSpace(deps.generic, deps.registry, deps.kinds.namespaces, name);
  if (remaining > 0) return requeueAfter(1000);
  await deps.generic.mutate(
    deps.tenantDef,
    { tenant: '', name },
    (current) => {
      const spec = (current.spec ?? {}) as { finalizers?: string[] };
      return { ...current, spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== TENANT_FINALIZER) } };
    },
    { subresource: 'finalize' },
  );
  return done;
}

async function reconcileTenant(deps: TenantControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const tenant = deps.tenants.get(key) as Tenant | undefined;
  if (!tenant) return done;
  try {
    return tenant.metadata.deletionTimestamp ? await finalize(deps, tenant) : await activate(deps, tenant);
  } catch (err) {
    // The tenant went away while we worked: nothing left to do.
    if (err instanceof ApiError && err.reason === 'NotFound' && err.details?.kind === 'tenants') return done;
    throw err;
  }
}

export function tenantController(deps: TenantControllerDeps): Controller {
  // Tenants are independent of each other: several workers lay out (or tear down) spaces at once.
  const controller = new Controller({ name: 'tenant', reconcile: (key) => reconcileTenant(deps, key), log: deps.log, workers: 8 });
  deps.tenants.onChange((key, obj) => {
    if (obj) controller.enqueue(key);
  });
  return controller;
}
