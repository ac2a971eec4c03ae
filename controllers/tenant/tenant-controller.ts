/**
 * The tenant controller: one instance over every Tenant. A new tenant gets its space laid out and
 * turns Active once the space holds its `kubernetes` Service (kept by the server); a deleted one
 * (Terminating) has its namespaces deleted (the namespace controller empties each), then the
 * space's other objects, then its finalizer released so the Tenant goes. Level-based: each
 * reconcile reads the Tenant as it is now, so restarts and repeats are harmless. A client of the
 * API, as `system:controller:tenant-controller`.
 */
import { TENANT_FINALIZER, type Tenant } from '../../api/kinds/core/tenant.js';
import { services } from '../../api/kinds/core/service.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import { namespaces, tenants } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import { changedOnlyStatus } from '../runtime/status-change.js';
import { lingers } from '../namespace/namespace-controller.js';
import { ensureSpaceLayout } from './space-layout.js';

export interface TenantControllerDeps {
  /** Acts as the tenant controller. */
  client: KubeClient;
  tenants: Informer;
  log: { error(obj: object, msg: string): void };
}

/** How soon a space is looked at again while its `kubernetes` Service or its teardown is under way. */
const WAIT_MS = 200;

async function activate(client: KubeClient, tenant: Tenant): Promise<ReconcileResult> {
  const name = tenant.metadata.name!;
  // The system space is laid out by the server itself, before it answers (leader election needs its kube-system).
  if (name !== SYSTEM_TENANT) await ensureSpaceLayout(client.space(name));
  if (tenant.status?.phase === 'Active') return done;
  try {
    await client.space(name).namespace('default').resource(services).get('kubernetes');
  } catch (err) {
    if (isNotFound(err)) return requeueAfter(WAIT_MS);
    throw err;
  }
  await client.resource(tenants).patch(name, 'merge', { status: { phase: 'Active' } }, { subresource: 'status' });
  return done;
}

/** Deletes the space's content; answers whether any is left (held by finalizers, or namespaces still emptying). */
async function tearDown(client: KubeClient, name: string): Promise<boolean> {
  const space = client.space(name);
  const { items } = await space.resource(namespaces).list();
  if (items.length > 0) {
    for (const ns of items) if (!ns.metadata.deletionTimestamp) await space.resource(namespaces).delete(ns.metadata.name!).catch(ignoreNotFound);
    return true;
  }
  // Namespaces gone: now the space's own objects (resources above spaces are not writable from a space, so never deletable here).
  let remaining = false;
  for (const served of await space.preferredResources()) {
    if (served.namespaced || !served.verbs.includes('deletecollection') || served.resource === 'namespaces') continue;
    const resource = space.resource(served);
    const deleted = await resource.deleteCollection({ propagationPolicy: 'Background' });
    // A space's list also shows the system space's shared objects (the default roles): only its own count.
    if (deleted.items.some(lingers) && (await resource.list()).items.some((obj) => obj.metadata.tenant === name)) remaining = true;
  }
  return remaining;
}

function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}

async function finalize(client: KubeClient, tenant: Tenant): Promise<ReconcileResult> {
  const name = tenant.metadata.name!;
  if (await tearDown(client, name)) return requeueAfter(WAIT_MS);
  const current = await client.resource(tenants).get(name);
  const finalizers = (current.spec?.finalizers ?? []).filter((f) => f !== TENANT_FINALIZER);
  await client.resource(tenants).finalize({ ...current, spec: { ...current.spec, finalizers } });
  return done;
}

async function reconcileTenant(deps: TenantControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const tenant = deps.tenants.get(key) as Tenant | undefined;
  if (!tenant) return done;
  try {
    return tenant.metadata.deletionTimestamp ? await finalize(deps.client, tenant) : await activate(deps.client, tenant);
  } catch (err) {
    // The tenant went away while we worked (nothing left to do), or changed between a read and a write (read again).
    if (isNotFound(err) && err.details?.kind === 'tenants') return done;
    if (isConflict(err)) return requeue;
    throw err;
  }
}

export function tenantController(deps: TenantControllerDeps): Controller {
  // Tenants are independent of each other: several workers lay out (or tear down) spaces at once.
  const controller = new Controller({ name: 'tenant', reconcile: (key) => reconcileTenant(deps, key), log: deps.log, workers: 8 });
  // Status-only changes (the phase it wrote, quota usage charged by every create in the space) ask for nothing new.
  deps.tenants.onChange((key, obj, previous) => {
    if (obj && !changedOnlyStatus(obj, previous)) controller.enqueue(key);
  });
  return controller;
}
