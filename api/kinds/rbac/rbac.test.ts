import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { clusterRoles, type ClusterRole } from './clusterrole.js';
import { clusterRoleBindings } from './clusterrolebinding.js';
import { roles, type Role } from './role.js';
import { roleBindings, type RoleBinding } from './rolebinding.js';
import type { PolicyRule } from './rules.js';

const role = (rules: PolicyRule[]): Role => ({ metadata: { name: 'pod-reader' }, rules });

describe('Role and ClusterRole', () => {
  it.each<[string, PolicyRule, string[]]>([
    ['a rule without verbs', { apiGroups: [''], resources: ['pods'] }, ['rules[0].verbs: Required value: verbs must contain at least one value']],
    [
      'a resource rule without groups or resources',
      { verbs: ['get'] },
      ['rules[0].apiGroups: Required value: resource rules must supply at least one api group', 'rules[0].resources: Required value: resource rules must supply at least one resource'],
    ],
    ['a namespaced rule on URLs', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, ['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs']],
  ])('a Role refuses %s', async (_what, rule, want) => {
    expect(messages((await create(roles, role([rule]))).errors)).toEqual(want);
  });

  it('lets cluster roles grant URLs, but not with resources', async () => {
    const urls: ClusterRole = { metadata: { name: 'healthz' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz'] }] };
    expect((await create(clusterRoles, urls)).errors).toEqual([]);
    const mixed: ClusterRole = { metadata: { name: 'mixed' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }] };
    expect(messages((await create(clusterRoles, mixed)).errors)).toEqual(['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs']);
  });

  it('checks aggregation selectors', async () => {
    const aggregated: ClusterRole = { metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] } };
    expect((await create(clusterRoles, aggregated)).errors).toEqual([]);
    expect(messages((await create(clusterRoles, { metadata: { name: 'empty' }, aggregationRule: {} })).errors)).toEqual([
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
  });

  it('names roles as URL path segments and prints NAME CREATED AT', async () => {
    const { object } = await create(roles, role([{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]));
    expect([roles.nameRule, clusterRoles.nameRule, clusterRoles.scope]).toEqual(['path-segment', 'path-segment', 'space']);
    expect(headers(clusterRoles)).toEqual(['NAME', 'CREATED AT']);
    expect(cells(roles, object)).toEqual(['pod-reader', '2024-05-01T10:00:00Z']);
  });
});

const binding = (over: Partial<RoleBinding> = {}): RoleBinding => ({
  metadata: { name: 'read-pods' },
  subjects: [
    { kind: 'User', name: 'jane' },
    { kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
  ],
  roleRef: { kind: 'Role', name: 'pod-reader' },
  ...over,
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('defaults the API groups of the role and subjects', async () => {
    const { object, errors } = await create(roleBindings, binding());
    expect(errors).toEqual([]);
    expect(object.roleRef).toEqual({ kind: 'Role', name: 'pod-reader', apiGroup: 'rbac.authorization.k8s.io' });
    expect(object.subjects?.map((s) => s.apiGroup)).toEqual(['rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', undefined]);
  });

  it.each<[string, Partial<RoleBinding>, string[]]>([
    ['an unknown role kind', { roleRef: { kind: 'Policy', name: 'x' } }, ['roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"']],
    ['a role in another group', { roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'x' } }, ['roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"']],
    ['an unknown subject kind', { subjects: [{ kind: 'Robot', name: 'r2' }] }, ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"']],
    ['a subject without a name', { subjects: [{ kind: 'User' }] }, ['subjects[0].name: Required value']],
  ])('a RoleBinding refuses %s', async (_what, over, want) => {
    expect(messages((await create(roleBindings, binding(over))).errors)).toEqual(want);
  });

  it('makes cluster bindings grant cluster roles and name service account namespaces', async () => {
    const cluster = { ...binding({ subjects: [{ kind: 'ServiceAccount', name: 'builder' }] }), metadata: { name: 'builders' } };
    expect(messages((await create(clusterRoleBindings, cluster)).errors)).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });

  it('refuses to change the role it grants', async () => {
    const { object } = await create(roleBindings, binding());
    expect(messages(update(roleBindings, { ...object, roleRef: { ...object.roleRef, name: 'admin' } }, object))).toEqual([
      'roleRef: Invalid value: {"kind":"Role","name":"admin","apiGroup":"rbac.authorization.k8s.io"}: cannot change roleRef',
    ]);
    expect(update(roleBindings, { ...object, subjects: [] }, object)).toEqual([]);
  });

  it('prints ROLE, and the subjects when wide', async () => {
    const { object } = await create(roleBindings, binding());
    expect(headers(roleBindings, true)).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    expect(cells(roleBindings, object)).toEqual(['read-pods', 'Role/pod-reader', '10m', 'jane', 'devs', 'ci/builder']);
    expect([roleBindings.allowCreateOnUpdate, clusterRoleBindings.scope]).toEqual([true, 'space']);
  });
});
