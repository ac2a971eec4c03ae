/**
 * What a new space starts with: the namespaces every cluster has, and an `admin-role`
 * ClusterRole bound to the tenant's user `admin` (Arktos' defaults), so the tenant's first user
 * can manage their own space. Creating these is idempotent: what exists is left alone.
 */
import type { KubeObject } from '../../api/registry/object.js';
import { clusterRoleBindings, clusterRoles } from '../../api/kinds/rbac/index.js';
import { isAlreadyExists } from '../../src/client/api-status.js';
import { namespaces } from '../../src/client/builtin-kinds.js';
import type { Scope } from '../../src/client/kube-client.js';
import type { ResourceClient } from '../../src/client/resource-client.js';

export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
export const ADMIN_ROLE = 'admin-role';
export const ADMIN_ROLE_BINDING = 'admin-role-binding';
export const TENANT_ADMIN_USER = 'admin';

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

export function initialNamespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

async function createIfAbsent<T extends KubeObject>(resource: ResourceClient<T>, obj: T): Promise<void> {
  try {
    await resource.create(obj);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

/**
 * Lays out a tenant's space (`space`: a client scope of that space): its initial namespaces, the
 * admin role and its binding. `namespaceExists` (a cache's answer) spares the creates of
 * namespaces already there; one it misses is created and answered AlreadyExists, harmlessly.
 */
export async function ensureSpaceLayout(space: Scope, namespaceExists: (name: string) => boolean): Promise<void> {
  // Independent writes: issued together, so a space costs one round of latency, not six.
  await Promise.all([
    ...INITIAL_NAMESPACES.filter((name) => !namespaceExists(name)).map((name) => createIfAbsent(space.resource(namespaces), initialNamespace(name))),
    createIfAbsent(space.resource(clusterRoles), adminRole()),
    createIfAbsent(space.resource(clusterRoleBindings), adminRoleBinding()),
  ]);
}
