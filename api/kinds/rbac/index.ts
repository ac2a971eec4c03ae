/** rbac.authorization.k8s.io/v1: roles and the bindings that grant them. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { clusterRoles } from './clusterrole.js';
import { clusterRoleBindings } from './clusterrolebinding.js';
import { roles } from './role.js';
import { roleBindings } from './rolebinding.js';

export { clusterRoleBindings, clusterRoles, roleBindings, roles };

export const rbacKinds: ResourceDefinition[] = [roles, roleBindings, clusterRoles, clusterRoleBindings];
