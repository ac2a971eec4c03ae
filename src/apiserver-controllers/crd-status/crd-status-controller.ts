/**
 * The CRD status controller: one instance over every space does what kube-apiserver's naming,
 * establishing and finalizer controllers do for CustomResourceDefinitions
 * (`apiextensions-apiserver/pkg/controller/status/naming_controller.go`, `establish/`, `finalizer/`).
 *
 * - Names: each name a CRD asks for is accepted unless another CRD of the same group **in the same
 *   space**, or a system CRD shared with every space, has accepted it already (the space serves
 *   the shared kinds too); a conflict leaves the name out of `status.acceptedNames` and sets
 *   `NamesAccepted` False with kube's reason (`PluralConflict`, `ShortNamesConflict`, ...).
 * - `Established` turns True once the names are accepted, and stays True. Kubernetes goes through
 *   a short `Installing` state while every API server catches up; one server needs none.
 * - A deleted CRD (Terminating, held by `customresourcecleanup.apiextensions.k8s.io`) has its
 *   custom resources in its space deleted (a shared system CRD's: in every space), and is released
 *   once none is left.
 * - The registry's view of each space serves the kinds of its Established CRDs that are not
 *   being deleted (`ResourceRegistry.setSpaceKinds`), kept in step on every CRD change.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import { nowTimestamp } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceRegistry } from '../../../api/registry/registry.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { CustomResourceKinds } from '../../../api/kinds/apiextensions/custom-resource.js';
import type { ResolveSpaceService } from '../../../api/kinds/apiextensions/conversion-webhook.js';
import { semanticEqual } from '../../../api/validation/equality.js';
import {
  conditionOf,
  CUSTOM_RESOURCE_CLEANUP_FINALIZER,
  isSharedCrd,
  withCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
} from '../../../api/kinds/apiextensions/types.js';
import { ApiError } from '../../../api/status.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../../../api/spaces.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../../../controllers/runtime/controller.js';
import type { Informer } from '../../../controllers/runtime/informer.js';
import type { ObjectKey } from '../../client/object-key.js';

export interface CrdStatusControllerDeps {
  generic: GenericStore;
  crds: Informer;
  crdDef: ResourceDefinition;
  registry: ResourceRegistry;
  log: { error(obj: object, msg: string): void };
  /** Told of custom kinds no CRD serves any more (their watch caches end). */
  onKindsRetired?: (defs: readonly ResourceDefinition[]) => void;
  /** Where a conversion webhook's service reference answers, in the space of its CRD. */
  resolveService?: ResolveSpaceService;
}

/** What reconciling reads: the dependencies, the informer's CRDs indexed by space, and the kinds they serve. */
interface CrdStatusState extends CrdStatusControllerDeps {
  bySpace: CrdsBySpace;
  kinds: CustomResourceKinds;
}

export interface NamesAndConditions {
  acceptedNames: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
}

/** The names other CRDs of the group have accepted: resource names, and kind names. */
function namesInUse(others: readonly CustomResourceDefinition[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of others) {
    const accepted = other.status?.acceptedNames ?? {};
    for (const name of [accepted.plural, accepted.singular, ...(accepted.shortNames ?? [])]) if (name) resources.add(name);
    for (const name of [accepted.kind, accepted.listKind]) if (name) kinds.add(name);
  }
  return { resources, kinds };
}

/** Kubernetes' equalToAcceptedOrFresh: a name is fine if it is already ours or nobody else's. */
function conflict(requested: string | undefined, accepted: string | undefined, inUse: Set<string>): string | undefined {
  if (requested === accepted || !requested || !inUse.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/**
 * The accepted names and the NamesAccepted and Established conditions of `crd`, given the other
 * CRDs of its space and group. Each name is decided on its own, so a conflict on one name still
 * accepts the others; the last conflict found names the reason, as in Kubernetes.
 */
export function namesAndConditions(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): NamesAndConditions {
  const { resources, kinds } = namesInUse(others);
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const names: CustomResourceDefinitionNames = { ...accepted };
  let failure: { reason: string; message: string } | undefined;

  const decide = (field: 'plural' | 'singular' | 'kind' | 'listKind', inUse: Set<string>, reason: string): void => {
    const problem = conflict(requested[field], accepted[field], inUse);
    if (problem) failure = { reason, message: problem };
    else if (requested[field] !== undefined) names[field] = requested[field];
    else delete names[field];
  };
  decide('plural', resources, 'PluralConflict');
  decide('singular', resources, 'SingularConflict');
  if (!semanticEqual(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const problems = (requested.shortNames ?? []).filter((s) => !mine.has(s)).flatMap((s) => conflict(s, '', resources) ?? []);
    // apimachinery's aggregate error: one message alone, several in brackets.
    if (problems.length > 0) failure = { reason: 'ShortNamesConflict', message: problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]` };
    else if (requested.shortNames) names.shortNames = requested.shortNames;
    else delete names.shortNames;
  }
  decide('kind', kinds, 'KindConflict');
  decide('listKind', kinds, 'ListKindConflict');
  if (requested.categories) names.categories = requested.categories;
  else delete names.categories;

  const namesAccepted: CustomResourceDefinitionCondition = failure
    ? { type: 'NamesAccepted', status: 'False', ...failure }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const old = conditionOf(crd, 'Established');
  const established: CustomResourceDefinitionCondition =
    old?.status === 'True'
      ? old
      : failure
        ? (old ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' })
        : { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  return { acceptedNames: names, namesAccepted, established };
}

/**
 * The informer's CRDs by space, then name: every decision here concerns one space, and scanning
 * every space's CRDs on each change made 10,000 CRDs cost minutes (`npm run bench:crds`).
 */
export class CrdsBySpace {
  private readonly spaces = new Map<string, Map<string, CustomResourceDefinition>>();

  apply(key: ObjectKey, obj: KubeObject | undefined): void {
    let space = this.spaces.get(key.tenant);
    if (obj) {
      if (!space) this.spaces.set(key.tenant, (space = new Map()));
      space.set(key.name, obj as CustomResourceDefinition);
    } else if (space) {
      space.delete(key.name);
      if (space.size === 0) this.spaces.delete(key.tenant);
    }
  }

  get(key: ObjectKey): CustomResourceDefinition | undefined {
    return this.spaces.get(key.tenant)?.get(key.name);
  }

  /** The CRDs of a space. */
  in(tenant: string): Iterable<CustomResourceDefinition> {
    return this.spaces.get(tenant)?.values() ?? [];
  }

  /** The CRDs of every space. */
  *all(): Iterable<CustomResourceDefinition> {
    for (const crds of this.spaces.values()) yield* crds.values();
  }

  /** The spaces with a CRD of this name. */
  spacesWith(name: string): string[] {
    return [...this.spaces].filter(([, crds]) => crds.has(name)).map(([tenant]) => tenant);
  }
}

/**
 * The CRDs whose names `crd` must not take: the others of its space and group and, outside the
 * system space, the shared system CRDs of its group (a shared one wins even its own name).
 */
export function rivalCrds(bySpace: CrdsBySpace, crd: CustomResourceDefinition): CustomResourceDefinition[] {
  const group = crd.spec?.group;
  const tenant = crd.metadata.tenant ?? '';
  const own = [...bySpace.in(tenant)].filter((o) => o.metadata.name !== crd.metadata.name && o.spec?.group === group);
  if (tenant === SYSTEM_TENANT) return own;
  return [...own, ...[...bySpace.in(SYSTEM_TENANT)].filter((o) => isSharedCrd(o) && o.spec?.group === group)];
}

/** Deletes the custom resources of a deleted CRD in its space; answers whether none is left. */
async function deleteCustomResources(deps: CrdStatusState, key: ObjectKey, crd: CustomResourceDefinition): Promise<boolean> {
  // Every version shares one storage: deleting through the first deletes them all.
  const def = deps.kinds.of(crd)[0];
  if (!def) return true;
  // A shared system CRD's custom resources are in every space, but for spaces with a CRD of their own by that name.
  const ownersOfName = isSharedCrd(crd) ? new Set(deps.bySpace.spacesWith(crd.metadata.name ?? '').filter((t) => t !== SYSTEM_TENANT)) : undefined;
  const scope = { tenant: ownersOfName ? ALL_TENANTS : key.tenant };
  const query = ownersOfName ? { fieldMatch: (obj: KubeObject) => !ownersOfName.has(obj.metadata.tenant ?? '') } : {};
  await deps.generic.deleteCollection(def, scope, query, { propagationPolicy: 'Background' });
  // Objects held by finalizers stay until their owners release them.
  return (await deps.generic.list(def, scope, { ...query, limit: 1 })).items.length === 0;
}

async function releaseFinalizer(deps: CrdStatusControllerDeps, key: ObjectKey): Promise<void> {
  await deps.generic.mutate(deps.crdDef, { tenant: key.tenant, name: key.name }, (current) => {
    current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    return current;
  });
}

async function updateStatus(deps: CrdStatusState, key: ObjectKey, crd: CustomResourceDefinition): Promise<void> {
  const { acceptedNames, namesAccepted, established } = namesAndConditions(crd, rivalCrds(deps.bySpace, crd));
  const now = nowTimestamp();
  const conditions = withCondition(withCondition(crd.status?.conditions ?? [], namesAccepted, now), established, now);
  if (semanticEqual(acceptedNames, crd.status?.acceptedNames ?? {}) && semanticEqual(conditions, crd.status?.conditions ?? [])) return;
  await deps.generic.mutate(
    deps.crdDef,
    { tenant: key.tenant, name: key.name },
    (current: KubeObject) => {
      const status = (current as CustomResourceDefinition).status;
      current.status = { ...status, acceptedNames, conditions };
      return current;
    },
    { subresource: 'status' },
  );
}

async function reconcileCrd(deps: CrdStatusState, key: ObjectKey): Promise<ReconcileResult> {
  const crd = deps.crds.get(key) as CustomResourceDefinition | undefined;
  if (!crd) return done;
  try {
    if (crd.metadata.deletionTimestamp) {
      if (!crd.metadata.finalizers?.includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER)) return done;
      if (!(await deleteCustomResources(deps, key, crd))) return requeueAfter(1000);
      await releaseFinalizer(deps, key);
    } else {
      await updateStatus(deps, key, crd);
    }
  } catch (err) {
    // Gone meanwhile: nothing left to do.
    if (err instanceof ApiError && err.reason === 'NotFound') return done;
    throw err;
  }
  return done;
}

/**
 * Serves, in `tenant`, the kinds of its Established CRDs that are not being deleted; for the
 * system space, also in every space the kinds of its shared CRDs.
 */
function servedKindsChanged(deps: CrdStatusState, tenant: string): void {
  const live = [...deps.bySpace.in(tenant)].filter((o) => !o.metadata.deletionTimestamp);
  const served = live.map((crd) => ({ crd, kinds: deps.kinds.of(crd) }));
  deps.registry.setSpaceKinds(tenant, served.flatMap((s) => s.kinds));
  if (tenant === SYSTEM_TENANT) deps.registry.setSharedKinds(served.filter((s) => isSharedCrd(s.crd)).flatMap((s) => s.kinds));
}

export function crdStatusController(options: CrdStatusControllerDeps): Controller {
  const deps: CrdStatusState = { ...options, bySpace: new CrdsBySpace(), kinds: new CustomResourceKinds(options.onKindsRetired, options.resolveService) };
  const controller = new Controller({ name: 'crd-status', reconcile: (key) => reconcileCrd(deps, key), log: deps.log });
  deps.crds.onChange((key, obj) => {
    const previous = deps.bySpace.get(key);
    deps.bySpace.apply(key, obj);
    // A CRD gone uses its kinds no more; one changed moves to its new spec's in servedKindsChanged.
    if (!obj) deps.kinds.release(key.tenant, key.name);
    servedKindsChanged(deps, key.tenant);
    if (obj) controller.enqueue(key);
    // Names one CRD gives up or takes may change what the others of its group can have: in its
    // space, and for a shared system CRD in every space.
    const group = ((obj ?? previous) as CustomResourceDefinition | undefined)?.spec?.group;
    const shared = (obj !== undefined && isSharedCrd(obj)) || (previous !== undefined && isSharedCrd(previous));
    for (const other of shared ? deps.bySpace.all() : deps.bySpace.in(key.tenant)) {
      const sameCrd = other.metadata.tenant === key.tenant && other.metadata.name === key.name;
      if (!sameCrd && (group === undefined || other.spec?.group === group)) controller.enqueue({ tenant: other.metadata.tenant ?? key.tenant, namespace: '', name: other.metadata.name ?? '' });
    }
  });
  return controller;
}
