/**
 * rbac.authorization.k8s.io/v1 Role: rules granted, through RoleBindings, within one namespace.
 */
import { defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { policyRuleSchema, rbacMetadata, RBAC_GROUP } from '../../schema/rbac-types.js';
import { define, list, object, string } from '../../schema/schema.js';
import { createdAtColumn, validateRules, type RoleObject } from './rules.js';

export type Role = RoleObject;

export const roleSchema = define(
  'io.k8s.api.rbac.v1.Role',
  object(
    'A set of rules granted within one namespace by RoleBindings.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: rbacMetadata,
      rules: list(policyRuleSchema, 'The rules of the role.', { listType: 'atomic' }),
    },
    { 'x-kubernetes-group-version-kind': [{ group: RBAC_GROUP, version: 'v1', kind: 'Role' }] },
  ),
);

export const roles = defineKind<Role>({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'Role',
  resource: 'roles',
  scope: 'namespace',
  schema: roleSchema,
  nameRule: 'path-segment',
  validate: (obj) => validateRules(obj, true),
  // RBAC objects are reconciled with PUT, which creates them when absent.
  allowCreateOnUpdate: true,
  columns: [nameColumn as PrinterColumn<Role>, createdAtColumn as PrinterColumn<Role>],
});
