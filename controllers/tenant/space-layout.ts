/**
 * What a new space starts with: the namespaces every cluster has, and an `admin-role`
 * ClusterRole bound to the tenant's user `admin` (Arktos' defaults), so the tenant's first user
 * can manage their own space. Creating these is idempotent: what exists is left alone.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';

export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
export const ADMIN_ROLE = 'admin-role';
export const ADMIN_ROLE_BINDING = 'admin-role-binding';
export const TENANT_ADMIN_USER = 'admin';

export interface SpaceKinds {
  namespaces: ResourceDefinition;
  clusterRoles: ResourceDefinition;
  clusterRoleBindings: ResourceDefinition;
}

const RBAC = 'rbac.authorization.k8s.io';

function adminRole(): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name: ADMIN_ROLE },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  };
}

function adminRoleBinding(): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: ADMIN_ROLE_BINDING },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: ADMIN_ROLE },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: TENANT_ADMIN_USER }],
  };
}

async function createIfAbsent(generic: GenericStore, def: ResourceDefinition, tenant: string, obj: KubeObject): Promise<void> {
  try {
    await generic.create(def, { tenant }, obj);
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
  }
}

/** Lays out a space: its initial namespaces, and for tenants other than `system` the admin role and binding. */
export async function ensureSpaceLayout(generic: GenericStore, kinds: SpaceKinds, tenant: string, withAdminRole: boolean): Promise<void> {
  // Independent writes: issued together, so a space costs one round of storage latency, not six.
  const writes = INITIAL_NAMESPACES.map((name) => createIfAbsent(generic, kinds.namespaces, tenant, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  if (withAdminRole) {
    writes.push(createIfAbsent(generic, kinds.clusterRoles, tenant, adminRole()), createIfAbsent(generic, kinds.clusterRoleBindings, tenant, adminRoleBinding()));
  }
  await Promise.all(writes);
}
