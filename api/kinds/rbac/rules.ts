/**
 * Rules the four RBAC kinds share: policy rules, subjects, role references, their defaults, and
 * the columns roles and bindings print. Kubernetes' behaviour: `pkg/apis/rbac/validation`,
 * `pkg/apis/rbac/v1/defaults.go`, `pkg/apis/rbac/helpers.go` (`SubjectsStrings`).
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { LabelSelectorObject } from '../../selection/label-selector.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { RBAC_GROUP } from '../../schema/rbac-types.js';
import { semanticEqual } from '../../validation/equality.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../validation/names.js';
import { isRecord } from '../apps/workload.js';

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

/** What Role and ClusterRole share. */
export interface RoleObject extends KubeObject {
  rules?: PolicyRule[];
  /** ClusterRoles only: the roles whose rules this one aggregates. */
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] };
}

/** What RoleBinding and ClusterRoleBinding share. */
export interface BindingObject extends KubeObject {
  subjects?: Subject[];
  roleRef?: RoleRef;
}

const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

/** A rule needs verbs, and either resources (with their groups) or non-resource URLs, never both. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) errors.push(fieldErrors.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) errors.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if ((rule.apiGroups ?? []).length + (rule.resources ?? []).length + (rule.resourceNames ?? []).length > 0) {
      errors.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if ((rule.apiGroups ?? []).length === 0) errors.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if ((rule.resources ?? []).length === 0) errors.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errors;
}

export function validateRules(obj: RoleObject, namespaced: boolean): FieldError[] {
  return (obj.rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));
}

/** A subject of a binding; service accounts of cluster bindings must name their namespace. */
export function validateSubject(subject: Subject, namespaced: boolean, path: string): FieldError[] {
  const name = subject.name ?? '';
  const errors: FieldError[] = name === '' ? [fieldErrors.required(`${path}.name`)] : [];
  const apiGroup = subject.apiGroup ?? '';
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') errors.push(...isDNS1123Subdomain(name).map((msg) => fieldErrors.invalid(`${path}.name`, name, msg)));
      if (apiGroup !== '') errors.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !subject.namespace) errors.push(fieldErrors.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errors.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errors.push(fieldErrors.notSupported(`${path}.kind`, subject.kind ?? '', SUBJECT_KINDS));
  }
  return errors;
}

/** A binding's role reference and subjects; `roleKinds` are the kinds it may grant. */
export function validateBinding(obj: BindingObject, roleKinds: string[], namespaced: boolean): FieldError[] {
  const ref = obj.roleRef ?? {};
  const errors: FieldError[] = [];
  if (ref.apiGroup !== RBAC_GROUP) errors.push(fieldErrors.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  if (!roleKinds.includes(ref.kind ?? '')) errors.push(fieldErrors.notSupported('roleRef.kind', ref.kind ?? '', roleKinds));
  const name = ref.name ?? '';
  if (name === '') errors.push(fieldErrors.required('roleRef.name'));
  else errors.push(...isValidPathSegmentName(name).map((msg) => fieldErrors.invalid('roleRef.name', name, msg)));
  (obj.subjects ?? []).forEach((subject, i) => errors.push(...validateSubject(subject, namespaced, `subjects[${i}]`)));
  return errors;
}

/** A binding grants one role for its lifetime; to change it, delete and recreate the binding. */
export function validateBindingUpdate(obj: BindingObject, old: BindingObject): FieldError[] {
  return semanticEqual(obj.roleRef, old.roleRef) ? [] : [fieldErrors.invalid('roleRef', obj.roleRef ?? null, 'cannot change roleRef')];
}

/** Roles, users and groups belong to the RBAC group (service accounts to the core group, written as no group). */
export function defaultBinding(obj: BindingObject): void {
  if (!isRecord(obj.roleRef)) obj.roleRef = {};
  obj.roleRef.apiGroup ||= RBAC_GROUP;
  for (const subject of obj.subjects ?? []) {
    if (isRecord(subject) && !subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
  }
}

/** Roles print as Kubernetes' default table does: name and creation time. */
export const createdAtColumn: PrinterColumn = {
  name: 'Created At',
  type: 'date',
  description: 'When the object was created.',
  priority: 0,
  cell: (obj) => obj.metadata.creationTimestamp ?? '',
};

/** `SubjectsStrings`: users, groups and `namespace/name` of service accounts. */
function subjectNames(obj: BindingObject, kind: string): string {
  return (obj.subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name ?? ''}` : (s.name ?? '')))
    .join(', ');
}

export function bindingColumns<T extends BindingObject>(kindWord: string): PrinterColumn<T>[] {
  return [
    nameColumn,
    { name: 'Role', type: 'string', description: 'The role granted.', priority: 0, cell: (obj) => `${obj.roleRef?.kind ?? ''}/${obj.roleRef?.name ?? ''}` },
    ageColumn,
    { name: 'Users', type: 'string', description: `Users in the ${kindWord}.`, priority: 1, cell: (obj) => subjectNames(obj, 'User') },
    { name: 'Groups', type: 'string', description: `Groups in the ${kindWord}.`, priority: 1, cell: (obj) => subjectNames(obj, 'Group') },
    { name: 'ServiceAccounts', type: 'string', description: `Service accounts in the ${kindWord}.`, priority: 1, cell: (obj) => subjectNames(obj, 'ServiceAccount') },
  ];
}
