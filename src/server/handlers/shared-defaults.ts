/**
 * The default ClusterRoles and ClusterRoleBindings, and the shared system CRDs, live once, in the
 * system space, and every space sees them beside its own (DESIGN.md section 5): a GET of `view` in
 * space t1 finds the system's, a LIST shows both, and a WATCH streams both. They are read-only
 * there: authorization refuses changing them and admission refuses creating a space's own of the
 * same name.
 */
import type { KubeObject } from '../../../api/registry/object.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../../../api/spaces.js';
import { CRD_SHARING_FORCED, CRD_SHARING_LABEL } from '../../../api/kinds/apiextensions/types.js';
import { BOOTSTRAP_LABEL, BOOTSTRAP_LABEL_VALUE } from '../../../authz/rbac/bootstrap-policy.js';
import type { HandlerDeps } from './handler-deps.js';
import { ApiError } from '../../../api/status.js';
import type { ResourceRequest } from './resolve-resource.js';
import { parseLabelSelector, type LabelSelector } from '../../../api/selection/label-selector.js';

/** The label that marks the system space's objects every space sees, by group/resource. */
const bootstrapped = parseLabelSelector(`${BOOTSTRAP_LABEL}=${BOOTSTRAP_LABEL_VALUE}`);
const SHARED_BY: ReadonlyMap<string, LabelSelector> = new Map([
  ['rbac.authorization.k8s.io/clusterroles', bootstrapped],
  ['rbac.authorization.k8s.io/clusterrolebindings', bootstrapped],
  ['apiextensions.k8s.io/customresourcedefinitions', parseLabelSelector(`${CRD_SHARING_LABEL}=${CRD_SHARING_FORCED}`)],
]);

const sharedSelector = (req: ResourceRequest): LabelSelector => SHARED_BY.get(`${req.def.group}/${req.def.resource}`)!;

/** Whether the request reads a kind the shared defaults belong to, from inside a tenant's space. */
export function seesSharedDefaults(req: ResourceRequest): boolean {
  return SHARED_BY.has(`${req.def.group}/${req.def.resource}`) && req.tenant !== SYSTEM_TENANT && !req.acrossSpaces;
}

function isShared(req: ResourceRequest, obj: KubeObject): boolean {
  return sharedSelector(req).matches(obj.metadata.labels);
}

/** The shared default of this name, when the space has no object of its own by that name. */
export async function sharedDefault(deps: HandlerDeps, req: ResourceRequest, notFound: ApiError): Promise<KubeObject> {
  try {
    const obj = await deps.generic.get(req.def, { tenant: SYSTEM_TENANT, name: req.name! });
    if (isShared(req, obj)) return obj;
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
  }
  throw notFound;
}

/** The shared defaults that meet a list's selectors. */
export async function sharedDefaults(deps: HandlerDeps, req: ResourceRequest, labelSelector: LabelSelector | undefined, fieldMatch: ((obj: KubeObject) => boolean) | undefined): Promise<KubeObject[]> {
  const result = await deps.generic.list(req.def, { tenant: SYSTEM_TENANT }, { labelSelector: sharedSelector(req), fieldMatch });
  return labelSelector ? result.items.filter((obj) => labelSelector.matches(obj.metadata.labels)) : result.items;
}

/**
 * A watch that shows the shared defaults beside the space's own objects: one stream over the
 * kind in every space (so events stay in revision order), keeping the space's objects and the
 * system's shared ones. Roles, bindings and CRDs change rarely, so the filtering costs little.
 */
export function sharedDefaultsWatch(req: ResourceRequest, fieldMatch: ((obj: KubeObject) => boolean) | undefined): { tenant: string; fieldMatch: (obj: KubeObject) => boolean } {
  const tenant = req.tenant;
  const visible = (obj: KubeObject): boolean => obj.metadata.tenant === tenant || (obj.metadata.tenant === SYSTEM_TENANT && isShared(req, obj));
  return { tenant: ALL_TENANTS, fieldMatch: fieldMatch ? (obj) => visible(obj) && fieldMatch(obj) : visible };
}
