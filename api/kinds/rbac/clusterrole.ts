/**
 * rbac.authorization.k8s.io/v1 ClusterRole: rules granted across the space (cluster-wide in
 * Kubernetes), or in one namespace through a RoleBinding. With an aggregation rule its rules are
 * the union of the cluster roles its selectors match, maintained by a controller.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { aggregationRuleSchema, policyRuleSchema, rbacMetadata, RBAC_GROUP } from '../../schema/rbac-types.js';
import { define, described, list, object, string } from '../../schema/schema.js';
import { validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { createdAtColumn, validateRules, type RoleObject } from './rules.js';

export interface ClusterRole extends RoleObject {
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export const clusterRoleSchema = define(
  'io.k8s.api.rbac.v1.ClusterRole',
  object(
    'A set of rules granted across the space by ClusterRoleBindings, or in a namespace by RoleBindings.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: rbacMetadata,
      rules: list(policyRuleSchema, 'The rules of the role; managed by a controller when aggregationRule is set.', { listType: 'atomic' }),
      aggregationRule: described(aggregationRuleSchema, 'Builds the rules from other cluster roles.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: RBAC_GROUP, version: 'v1', kind: 'ClusterRole' }] },
  ),
);

export function validateClusterRole(obj: ClusterRole): FieldError[] {
  const errors = validateRules(obj, false);
  if (obj.aggregationRule) {
    const selectors = obj.aggregationRule.clusterRoleSelectors ?? [];
    const path = 'aggregationRule.clusterRoleSelectors';
    if (selectors.length === 0) errors.push(fieldErrors.required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((sel, i) => errors.push(...validateLabelSelector(sel, `${path}[${i}]`)));
  }
  return errors;
}

export const clusterRoles = defineKind<ClusterRole>({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'ClusterRole',
  resource: 'clusterroles',
  scope: 'space',
  schema: clusterRoleSchema,
  nameRule: 'path-segment',
  validate: validateClusterRole,
  allowCreateOnUpdate: true,
  columns: [nameColumn as PrinterColumn<ClusterRole>, createdAtColumn as PrinterColumn<ClusterRole>],
});
