/**
 * The authorization decision, in one place, for real requests and for access reviews alike
 * (`kubectl auth can-i` must agree with what the server does). Today it is the tenant gate beyond
 * path resolution (DESIGN.md section 5, step 1): inside its own space a user may do anything, and
 * only system users reach cluster-scoped kinds (Tenants). RBAC inside each space (step 2) plugs in
 * here.
 */
import { ApiError } from '../src/server/status.js';
import { SYSTEM_TENANT } from './resolve-tenant.js';
import type { UserInfo } from './user.js';

export interface AccessAttributes {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** For non-resource requests (`/healthz`, `/api`). */
  path?: string;
  /** The resource sits above every space (Tenants). */
  clusterScoped?: boolean;
}

export interface AccessDecision {
  allowed: boolean;
  /** Set when the answer is a definite no (not merely "no rule allows it"). */
  denied?: boolean;
  reason: string;
}

export function authorize(user: UserInfo, attributes: AccessAttributes): AccessDecision {
  if (attributes.clusterScoped && user.tenant !== SYSTEM_TENANT) {
    return { allowed: false, denied: true, reason: 'only users of the system tenant reach objects above the spaces' };
  }
  return { allowed: true, reason: "the user's own space (no RBAC rules are enforced yet)" };
}

/** Refuses a request the decision does not allow, worded as kube-apiserver's RBAC refusals. */
export function assertAuthorized(user: UserInfo, attributes: AccessAttributes): void {
  if (authorize(user, attributes).allowed) return;
  const resource = attributes.resource ?? '';
  const where = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  throw new ApiError(403, 'Forbidden', `${resource} is forbidden: User "${user.name}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.group ?? ''}" ${where}`, {
    group: attributes.group,
    kind: resource,
  });
}
