/**
 * RBAC's escalation prevention, as an admission plugin on the four RBAC kinds (Kubernetes'
 * policy-based RBAC storage): a user may write a role only with rules it already holds where the
 * role applies (or with `escalate` on it), and a binding only to a role whose rules it holds (or
 * with `bind` on that role). A space's own roles cannot take a shared default's name. Writes by
 * the server itself (no user) are not checked.
 */
import type { AdmissionAttributes, AdmissionPlugin } from '../../api/registry/generic-store.js';
import type { BindingObject, RoleObject } from '../../api/kinds/rbac/rules.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { ApiError } from '../../api/status.js';
import type { Authorizer } from '../authorize.js';
import type { UserInfo } from '../../api/access.js';
import { compactRules, formatRule, uncoveredRules, type PolicyRule } from './policy-rule.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** What `aggregationRule` needs: full authority, since the rules it gathers are not known up front. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function forbidden(attrs: AdmissionAttributes, message: string): ApiError {
  const name = attrs.object.metadata.name ?? '';
  return new ApiError(403, 'Forbidden', `${attrs.def.resource}.${RBAC_GROUP} "${name}" is forbidden: ${message}`, { group: RBAC_GROUP, kind: attrs.def.resource, name });
}

/** kube-apiserver's wording: `user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant …`. */
function escalationMessage(user: UserInfo, missing: PolicyRule[]): string {
  const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]`;
  const lines = [...new Set(compactRules(missing).map(formatRule))].sort();
  return `user ${JSON.stringify(user.name)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
}

export function rbacEscalationAdmission(authorizer: Authorizer): AdmissionPlugin {
  /** The namespace a role or binding applies in; undefined for cluster-wide kinds. */
  const scopeOf = (attrs: AdmissionAttributes): string | undefined => (attrs.def.scope === 'namespace' ? attrs.namespace : undefined);

  const checkRole = (attrs: AdmissionAttributes, user: UserInfo): void => {
    const role = attrs.object as RoleObject & { aggregationRule?: unknown };
    const old = attrs.old as (RoleObject & { aggregationRule?: unknown }) | undefined;
    if (old && semanticEqual(old.rules, role.rules) && semanticEqual(old.aggregationRule, role.aggregationRule)) return;
    const namespace = scopeOf(attrs);
    const escalate = { verb: 'escalate', group: RBAC_GROUP, resource: attrs.def.resource, namespace, name: role.metadata.name, tenant: attrs.tenant };
    if (authorizer.authorize(user, escalate).allowed) return;
    const owned = authorizer.rulesFor(user, attrs.tenant, namespace);
    if (role.aggregationRule !== undefined) {
      if (uncoveredRules(owned, FULL_AUTHORITY).length > 0) throw forbidden(attrs, 'must have cluster-admin privileges to use the aggregationRule');
      return;
    }
    const missing = uncoveredRules(owned, role.rules ?? []);
    if (missing.length > 0) throw forbidden(attrs, escalationMessage(user, missing));
  };

  const checkBinding = (attrs: AdmissionAttributes, user: UserInfo): void => {
    const binding = attrs.object as BindingObject;
    const old = attrs.old as BindingObject | undefined;
    if (old && semanticEqual(old.subjects, binding.subjects) && semanticEqual(old.roleRef, binding.roleRef)) return;
    const namespace = scopeOf(attrs);
    const roleKind = binding.roleRef?.kind ?? '';
    const roleName = binding.roleRef?.name ?? '';
    const roleResource = roleKind === 'Role' ? 'roles' : 'clusterroles';
    const bind = { verb: 'bind', group: RBAC_GROUP, resource: roleResource, namespace, name: roleName, tenant: attrs.tenant };
    if (authorizer.authorize(user, bind).allowed) return;
    const rules = authorizer.roleRules(attrs.tenant, roleKind, namespace ?? '', roleName);
    if (rules === undefined) throw new ApiError(404, 'NotFound', `${roleResource}.${RBAC_GROUP} "${roleName}" not found`, { group: RBAC_GROUP, kind: roleResource, name: roleName });
    const missing = uncoveredRules(authorizer.rulesFor(user, attrs.tenant, namespace), rules);
    if (missing.length > 0) throw forbidden(attrs, escalationMessage(user, missing));
  };

  return {
    admit(attrs) {
      if (attrs.def.group !== RBAC_GROUP || attrs.operation === 'delete') return;
      const kind = attrs.def.kind;
      const name = attrs.object.metadata.name ?? '';
      if (attrs.operation === 'create' && attrs.tenant !== SYSTEM_TENANT && (kind === 'ClusterRole' || kind === 'ClusterRoleBinding') && authorizer.isSharedDefault(kind, name)) {
        throw new ApiError(409, 'AlreadyExists', `${attrs.def.resource}.${RBAC_GROUP} "${name}" already exists`, { group: RBAC_GROUP, kind: attrs.def.resource, name });
      }
      if (!attrs.user) return;
      if (kind === 'Role' || kind === 'ClusterRole') checkRole(attrs, attrs.user);
      else checkBinding(attrs, attrs.user);
    },
  };
}
