/**
 * rbac.authorization.k8s.io/v1 ClusterRoleBinding: grants a ClusterRole to subjects across the
 * whole space (never beyond it). Its roleRef is fixed at creation.
 */
import { defineKind } from '../../registry/resource-definition.js';
import { rbacMetadata, RBAC_GROUP, roleRefSchema, subjectSchema } from '../../schema/rbac-types.js';
import { define, described, list, object, string } from '../../schema/schema.js';
import { bindingColumns, defaultBinding, validateBinding, validateBindingUpdate, type BindingObject } from './rules.js';

export type ClusterRoleBinding = BindingObject;

export const clusterRoleBindingSchema = define(
  'io.k8s.api.rbac.v1.ClusterRoleBinding',
  object(
    'Grants a cluster role to subjects across the space.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: rbacMetadata,
      subjects: list(subjectSchema, 'Who the role is granted to.', { listType: 'atomic' }),
      roleRef: described(roleRefSchema, 'A ClusterRole. Immutable.'),
    },
    { required: ['roleRef'], 'x-kubernetes-group-version-kind': [{ group: RBAC_GROUP, version: 'v1', kind: 'ClusterRoleBinding' }] },
  ),
);

export const clusterRoleBindings = defineKind<ClusterRoleBinding>({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'ClusterRoleBinding',
  resource: 'clusterrolebindings',
  scope: 'space',
  schema: clusterRoleBindingSchema,
  nameRule: 'path-segment',
  defaults: defaultBinding,
  validate: (obj) => validateBinding(obj, ['ClusterRole'], false),
  validateUpdate: validateBindingUpdate,
  allowCreateOnUpdate: true,
  columns: bindingColumns<ClusterRoleBinding>('clusterRoleBinding'),
});
