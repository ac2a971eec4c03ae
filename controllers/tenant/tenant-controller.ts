/**
 * The tenant controller: one instance over every Tenant. A new tenant gets its space laid out and
 * turns Active once the space holds its `kubernetes` Service (kept by the server); a deleted one
 * (Terminating) has its namespaces deleted (the namespace controller empties each), then the
 * space's other objects, then its finalizer released so the Tenant goes. Level-based: each
 * reconcile reads the Tenant as it is now, so restarts and repeats are harmless. Event-driven:
 * the Service appearing and each namespace going enqueue the tenant again, so no space waits on a
 * timer and no worker polls. A client of the API, as `system:controller:tenant-controller`.
 */
import { TENANT_FINALIZER, type Tenant } from '../../api/kinds/core/tenant.js';
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
  /** Every space's namespaces: which initial ones exist, and a Terminating space's cue to go on when one goes. */
  namespaces: Informer;
  /** Every space's Services: `default/kubernetes` appearing is a new space's cue to turn Active. */
  services: Informer;
  log: { error(obj: object, msg: string): void };
}

/** The Service kube-apiserver keeps in every cluster (here: every space), made by the server's kubernetes-service controller. */
const KUBERNETES_SERVICE = { namespace: 'default', name: 'kubernetes' };

/**
 * How soon a Terminating space is looked at again while objects of its own are held by others'
 * finalizers (nothing announces their release to this controller), or when its namespaces list
 * was behind the informer.
 */
const RETRY_MS = 200;

const tenantKey = (name: string): ObjectKey => ({ tenant: '', namespace: '', name });

async function activate(deps: TenantControllerDeps, tenant: Tenant): Promise<ReconcileResult> {
  const name = tenant.metadata.name!;
  // The system space is laid out by the server itself, before it answers (leader election needs its kube-system).
  if (name !== SYSTEM_TENANT) await ensureSpaceLayout(deps.client.space(name), (ns) => deps.namespaces.get({ tenant: name, namespace: '', name: ns }) !== undefined);
  if (tenant.status?.phase === 'Active') return done;
  // Not there yet: its arrival enqueues this tenant again (see tenantController).
  if (!deps.services.get({ tenant: name, ...KUBERNETES_SERVICE })) return done;
  await deps.client.resource(tenants).patch(name, 'merge', { status: { phase: 'Active' } }, { subresource: 'status' });
  return done;
}

/**
 * What a space's teardown waits for: namespaces still emptying whose going the namespaces
 * informer has yet to see (its event enqueues the tenant), namespaces it has seen go though the
 * list still had them (a list a moment behind: look again), objects held by finalizers, or nothing.
 */
type TearDownState = 'namespaces-going' | 'list-behind' | 'held' | 'empty';

/** Deletes the space's content; answers what is left. */
async function tearDown(deps: TenantControllerDeps, name: string): Promise<TearDownState> {
  const space = deps.client.space(name);
  const { items } = await space.resource(namespaces).list();
  if (items.length > 0) {
    // Each namespace empties on its own (the namespace controller's workers): mark them all at once.
    await Promise.all(items.filter((ns) => !ns.metadata.deletionTimestamp).map((ns) => space.resource(namespaces).delete(ns.metadata.name!).catch(ignoreNotFound)));
    return items.some((ns) => deps.namespaces.get({ tenant: name, namespace: '', name: ns.metadata.name! })) ? 'namespaces-going' : 'list-behind';
  }
  // Namespaces gone: now the space's own objects (resources above spaces are not writable from a space, so never deletable here).
  const served = (await space.preferredResources()).filter((r) => !r.namespaced && r.verbs.includes('deletecollection') && r.resource !== 'namespaces');
  const held = await Promise.all(
    served.map(async (r) => {
      const resource = space.resource(r);
      const deleted = await resource.deleteCollection({ propagationPolicy: 'Background' });
      // A space's list also shows the system space's shared objects (the default roles): only its own count.
      return deleted.items.some(lingers) && (await resource.list()).items.some((obj) => obj.metadata.tenant === name);
    }),
  );
  return held.includes(true) ? 'held' : 'empty';
}

function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}

async function finalize(deps: TenantControllerDeps, tenant: Tenant): Promise<ReconcileResult> {
  const { client } = deps;
  const name = tenant.metadata.name!;
  const left = await tearDown(deps, name);
  // Each namespace's deletion enqueues this tenant again (see tenantController).
  if (left === 'namespaces-going') return done;
  if (left !== 'empty') return requeueAfter(RETRY_MS);
  const current = await client.resource(tenants).get(name);
  const finalizers = (current.spec?.finalizers ?? []).filter((f) => f !== TENANT_FINALIZER);
  await client.resource(tenants).finalize({ ...current, spec: { ...current.spec, finalizers } });
  return done;
}

/** Brings one Tenant's space to where its Tenant says: laid out and Active, or torn down and released. */
export async function reconcileTenant(deps: TenantControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const tenant = deps.tenants.get(key) as Tenant | undefined;
  if (!tenant) return done;
  try {
    return tenant.metadata.deletionTimestamp ? await finalize(deps, tenant) : await activate(deps, tenant);
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
  deps.services.onChange((key, obj) => {
    if (obj && key.namespace === KUBERNETES_SERVICE.namespace && key.name === KUBERNETES_SERVICE.name && (deps.tenants.get(tenantKey(key.tenant)) as Tenant | undefined)?.status?.phase !== 'Active') {
      controller.enqueue(tenantKey(key.tenant));
    }
  });
  deps.namespaces.onChange((key, obj) => {
    if (!obj && deps.tenants.get(tenantKey(key.tenant))?.metadata.deletionTimestamp) controller.enqueue(tenantKey(key.tenant));
  });
  return controller;
}
