/**
 * The authorization decision, in one place, for real requests and for access reviews alike
 * (`kubectl auth can-i` must agree with what the server does). DESIGN.md section 5, in order:
 * the tenant gate (a tenant's user acts only in its own space; only system users reach objects
 * above the spaces), then RBAC over the roles and bindings of the caller's space (see
 * `rbac/rbac-index.ts` for which bindings count where). `system:masters` of the system space may
 * do anything, as in Kubernetes; in a tenant's space that group is only what the shared
 * `cluster-admin` binding makes it: everything inside that space.
 */
import { ApiError } from '../api/status.js';
import { SYSTEM_TENANT } from '../api/spaces.js';
import { ruleAllows, type PolicyRule } from './rbac/policy-rule.js';
import type { BindingEntry, RbacIndex } from './rbac/rbac-index.js';
import type { AccessAttributes, AccessDecision, UserInfo } from '../api/access.js';

export const MASTERS_GROUP = 'system:masters';
const RBAC_GROUP = 'rbac.authorization.k8s.io';
const APIEXTENSIONS_GROUP = 'apiextensions.k8s.io';

/** A kind that sits above every space (Tenants, Nodes), which only system users change. */
export interface KindAboveSpaces {
  group: string;
  resource: string;
  /** Spaces may read it (get, list, watch), seeing what the server lets each see (nodes, APIServices). */
  readableFromSpaces: boolean;
}

const READS = new Set(['get', 'list', 'watch']);

const EVERYTHING: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const CHANGING_VERBS = new Set(['update', 'patch', 'delete']);

/**
 * Non-resource paths about the whole server, not a space: `/metrics` counts every space's
 * requests, so a space's own RBAC (its admin's `cluster-admin` holds `nonResourceURLs: ['*']`)
 * never grants it; only users of the system space, by the system space's RBAC.
 */
function isServerWidePath(path: string): boolean {
  return path === '/metrics' || path.startsWith('/metrics/');
}

/** An RBAC allowance, whose reason (only audit and reviews read it) is spelled out when read. */
class AllowedByRbac implements AccessDecision {
  readonly allowed = true;

  constructor(private readonly entry: BindingEntry) {}

  get reason(): string {
    const entry = this.entry;
    const binding = entry.namespace ? `${entry.name}/${entry.namespace}` : entry.name;
    return `RBAC: allowed by ${entry.kind} "${binding}" of ${entry.roleKind} "${entry.roleName}" to ${entry.subject}`;
  }
}

export class Authorizer {
  /** The kinds above the spaces, by resource name. */
  private readonly aboveSpaces = new Map<string, KindAboveSpaces>();

  constructor(
    private readonly rbac: RbacIndex,
    aboveSpaces: readonly KindAboveSpaces[],
    /** Whether a CRD of this name is a system CRD shared with every space (read-only in them). */
    private readonly isSharedCrd: (name: string) => boolean = () => false,
  ) {
    for (const kind of aboveSpaces) this.aboveSpaces.set(kind.resource, kind);
  }

  /** Whether the request reaches above the spaces beyond reading what spaces may read. A review may name the group as `*`. */
  private isAboveSpaces(attrs: AccessAttributes): boolean {
    if (attrs.path !== undefined) return isServerWidePath(attrs.path);
    if (attrs.resource === undefined) return false;
    const kind = this.aboveSpaces.get(attrs.resource);
    if (kind === undefined || (attrs.group !== kind.group && attrs.group !== '*')) return false;
    return !(kind.readableFromSpaces && READS.has(attrs.verb) && attrs.subresource === undefined);
  }

  authorize(user: UserInfo, attrs: AccessAttributes): AccessDecision {
    const system = user.tenant === SYSTEM_TENANT;
    if (!system && this.isAboveSpaces(attrs)) {
      // A path is refused as RBAC refuses one (kube's exact text, no reason); objects say why.
      return { allowed: false, denied: true, reason: attrs.path !== undefined ? '' : 'only users of the system tenant reach objects above the spaces' };
    }
    if (!system && attrs.tenant !== user.tenant) return { allowed: false, denied: true, reason: "access is limited to the user's own tenant" };
    if (attrs.tenant !== SYSTEM_TENANT && this.changesSharedDefault(attrs)) {
      return { allowed: false, denied: true, reason: `${attrs.resource} "${attrs.name}" is provided by the system and read-only in every space` };
    }
    if (system && user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: `allowed to the ${MASTERS_GROUP} group of the system tenant` };
    const found = this.rbac.find(user, attrs.tenant, attrs.namespace, (rule) => ruleAllows(rule, attrs));
    if (!found) return { allowed: false, reason: '' };
    return new AllowedByRbac(found.entry);
  }

  /** The rules that apply to the user in a space and namespace (space-wide when undefined). */
  rulesFor(user: UserInfo, tenant: string, namespace: string | undefined): PolicyRule[] {
    if (user.tenant === SYSTEM_TENANT && user.groups.includes(MASTERS_GROUP)) return EVERYTHING;
    return this.rbac.rulesFor(user, tenant, namespace);
  }

  /** The rules a binding to this role would grant in the space; undefined when the role does not exist. */
  roleRules(tenant: string, roleKind: string, namespace: string, name: string): PolicyRule[] | undefined {
    return this.rbac.roleRules(tenant, roleKind, namespace, name);
  }

  /** Whether a ClusterRole or ClusterRoleBinding of this name is a shared default, read-only outside the system space. */
  isSharedDefault(kind: 'ClusterRole' | 'ClusterRoleBinding', name: string): boolean {
    return this.rbac.isShared(kind, name);
  }

  private changesSharedDefault(attrs: AccessAttributes): boolean {
    if (attrs.name === undefined || attrs.subresource !== undefined || !CHANGING_VERBS.has(attrs.verb)) return false;
    if (attrs.group === APIEXTENSIONS_GROUP && attrs.resource === 'customresourcedefinitions') return this.isSharedCrd(attrs.name);
    if (attrs.group !== RBAC_GROUP) return false;
    if (attrs.resource === 'clusterroles') return this.rbac.isShared('ClusterRole', attrs.name);
    if (attrs.resource === 'clusterrolebindings') return this.rbac.isShared('ClusterRoleBinding', attrs.name);
    return false;
  }
}

/**
 * kube-apiserver's Forbidden for a refused request:
 * `pods "web" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns1"`.
 */
export function forbidden(user: UserInfo, attrs: AccessAttributes, reason: string): ApiError {
  const suffix = reason ? `: ${reason}` : '';
  if (attrs.path !== undefined) {
    return new ApiError(403, 'Forbidden', `forbidden: User "${user.name}" cannot ${attrs.verb} path "${attrs.path}"${suffix}`, {});
  }
  const group = attrs.group ?? '';
  const resource = attrs.resource ?? '';
  const asked = attrs.subresource ? `${resource}/${attrs.subresource}` : resource;
  const where = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
  const qualified = group ? `${resource}.${group}` : resource;
  const subject = attrs.name ? `${qualified} "${attrs.name}"` : qualified;
  const details: Record<string, unknown> = { group, kind: resource };
  if (attrs.name) details.name = attrs.name;
  return new ApiError(403, 'Forbidden', `${subject} is forbidden: User "${user.name}" cannot ${attrs.verb} resource "${asked}" in API group "${group}" ${where}${suffix}`, details);
}
