/**
 * rbac.authorization.k8s.io/v1 RoleBinding: grants a Role, or a ClusterRole, to subjects within
 * the binding's namespace. Its roleRef is fixed at creation.
 */
import { defineKind } from '../../registry/resource-definition.js';
import { rbacMetadata, RBAC_GROUP, roleRefSchema, subjectSchema } from '../../schema/rbac-types.js';
import { define, described, list, object, string } from '../../schema/schema.js';
import { bindingColumns, defaultBinding, validateBinding, validateBindingUpdate, type BindingObject } from './rules.js';

export type RoleBinding = BindingObject;

export const roleBindingSchema = define(
  'io.k8s.api.rbac.v1.RoleBinding',
  object(
    'Grants a role to subjects within one namespace.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: rbacMetadata,
      subjects: list(subjectSchema, 'Who the role is granted to.', { listType: 'atomic' }),
      roleRef: described(roleRefSchema, 'A Role of the namespace, or a ClusterRole. Immutable.'),
    },
    { required: ['roleRef'], 'x-kubernetes-group-version-kind': [{ group: RBAC_GROUP, version: 'v1', kind: 'RoleBinding' }] },
  ),
);

export const roleBindings = defineKind<RoleBinding>({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'RoleBinding',
  resource: 'rolebindings',
  scope: 'namespace',
  schema: roleBindingSchema,
  nameRule: 'path-segment',
  defaults: defaultBinding,
  validate: (obj) => validateBinding(obj, ['Role', 'ClusterRole'], true),
  validateUpdate: validateBindingUpdate,
  allowCreateOnUpdate: true,
  columns: bindingColumns<RoleBinding>('roleBinding'),
});
