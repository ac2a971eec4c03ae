import { beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/registry/object.js';
import { Authorizer } from './authorize.js';
import type { AccessAttributes } from '../api/access.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './rbac/bootstrap-policy.js';
import { RbacIndex, type RbacKind } from './rbac/rbac-index.js';
import type { UserInfo } from '../api/access.js';

const user = (name: string, tenant: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups: [...groups, 'system:authenticated'], tenant, extra: {} });
const RBAC = 'rbac.authorization.k8s.io';

function put(rbac: RbacIndex, kind: RbacKind, tenant: string, obj: Omit<KubeObject, 'metadata'> & { metadata: { name: string; namespace?: string; labels?: Record<string, string> } }): void {
  rbac.apply(kind, tenant, obj.metadata.namespace ?? '', obj.metadata.name, { ...obj, metadata: { ...obj.metadata, tenant } } as KubeObject);
}

const clusterBinding = (name: string, role: string, subjects: object[]) => ({ metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects });

describe('Authorizer', () => {
  let rbac: RbacIndex;
  let authorizer: Authorizer;
  const alice = user('alice', 't1');
  const can = (u: UserInfo, attrs: Omit<AccessAttributes, 'tenant'> & { tenant?: string }) => authorizer.authorize(u, { tenant: u.tenant!, ...attrs }).allowed;

  beforeEach(() => {
    rbac = new RbacIndex();
    authorizer = new Authorizer(rbac, [{ group: '', resource: 'tenants', readableFromSpaces: false }]);
    for (const role of bootstrapClusterRoles()) put(rbac, 'ClusterRole', 'system', role as never);
    for (const binding of bootstrapClusterRoleBindings()) put(rbac, 'ClusterRoleBinding', 'system', binding as never);
    put(rbac, 'ClusterRole', 't1', { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] });
  });

  it('allows nothing to a tenant user without bindings but discovery and self-reviews (shared defaults)', () => {
    expect(can(alice, { verb: 'list', group: '', resource: 'pods', namespace: 'default' })).toBe(false);
    expect(can(alice, { verb: 'get', path: '/apis' })).toBe(true);
    expect(can(alice, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' })).toBe(true);
    expect(can(alice, { verb: 'get', path: '/metrics' })).toBe(false);
  });

  it('gives each controller user of the system space what its controller does, in every space, and no more', () => {
    const manager = user('system:kube-controller-manager', 'system');
    const namespaceController = user('system:controller:namespace-controller', 'system');
    const serviceAccountController = user('system:controller:service-account-controller', 'system');
    expect(can(manager, { verb: 'watch', group: '', resource: 'namespaces', tenant: 'all' })).toBe(true);
    expect(can(manager, { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: 'kube-controller-manager' })).toBe(true);
    expect(can(manager, { verb: 'impersonate', group: '', resource: 'users', name: 'system:controller:namespace-controller' })).toBe(true);
    expect(can(manager, { verb: 'impersonate', group: '', resource: 'users', name: 'admin' })).toBe(false);
    expect(can(manager, { verb: 'delete', group: '', resource: 'namespaces', tenant: 't1', name: 'x' })).toBe(false);
    expect(can(namespaceController, { verb: 'deletecollection', group: 'apps', resource: 'deployments', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(namespaceController, { verb: 'update', group: '', resource: 'namespaces', subresource: 'finalize', name: 'x', tenant: 't1' })).toBe(true);
    expect(can(namespaceController, { verb: 'create', group: '', resource: 'configmaps', namespace: 'x', tenant: 't1' })).toBe(false);
    expect(can(serviceAccountController, { verb: 'create', group: '', resource: 'serviceaccounts', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(serviceAccountController, { verb: 'delete', group: '', resource: 'serviceaccounts', namespace: 'x', tenant: 't1', name: 'default' })).toBe(false);
    const aggregationController = user('system:controller:clusterrole-aggregation-controller', 'system');
    expect(can(aggregationController, { verb: 'escalate', group: RBAC, resource: 'clusterroles', name: 'admin', tenant: 't1' })).toBe(true);
    expect(can(aggregationController, { verb: 'create', group: RBAC, resource: 'clusterrolebindings', tenant: 't1' })).toBe(false);
    const garbageCollector = user('system:controller:generic-garbage-collector', 'system');
    expect(can(garbageCollector, { verb: 'watch', group: 'example.com', resource: 'widgets', tenant: 'all' })).toBe(true);
    expect(can(garbageCollector, { verb: 'delete', group: 'apps', resource: 'replicasets', namespace: 'x', tenant: 't1', name: 'web' })).toBe(true);
    expect(can(garbageCollector, { verb: 'create', group: '', resource: 'configmaps', namespace: 'x', tenant: 't1' })).toBe(false);
    expect(can(garbageCollector, { verb: 'deletecollection', group: '', resource: 'configmaps', namespace: 'x', tenant: 't1' })).toBe(false);
    expect(can(serviceAccountController, { verb: 'patch', group: 'events.k8s.io', resource: 'events', namespace: 'x', tenant: 't1', name: 'e' })).toBe(true);
  });

  it('gives a tenant user named like a controller, the scheduler or the manager nothing of theirs in its own space', () => {
    for (const name of ['system:controller:namespace-controller', 'system:controller:generic-garbage-collector', 'system:kube-controller-manager', 'system:kube-scheduler', 'system:node-simulator']) {
      const lookalike = user(name, 't1');
      expect(can(lookalike, { verb: 'delete', group: 'apps', resource: 'replicasets', namespace: 'x', name: 'web' }), name).toBe(false);
      expect(can(lookalike, { verb: 'deletecollection', group: 'apps', resource: 'deployments', namespace: 'x' }), name).toBe(false);
      expect(can(lookalike, { verb: 'list', group: '', resource: 'secrets', namespace: 'x' }), name).toBe(false);
      expect(can(lookalike, { verb: 'create', group: '', resource: 'pods', subresource: 'binding', namespace: 'x', name: 'p' }), name).toBe(false);
      // What every user of the space gets through groups stays.
      expect(can(lookalike, { verb: 'get', path: '/apis' }), name).toBe(true);
    }
    // The shared bindings are still shared defaults (read-only in every space).
    expect(authorizer.isSharedDefault('ClusterRoleBinding', 'system:controller:namespace-controller')).toBe(true);
  });

  it('gives system:kube-scheduler kube’s scheduler role in every space: bind pods, write their status and events, read nodes', () => {
    const scheduler = user('system:kube-scheduler', 'system');
    const manager = user('system:kube-controller-manager', 'system');
    expect(can(manager, { verb: 'impersonate', group: '', resource: 'users', name: 'system:kube-scheduler' })).toBe(true);
    expect(can(manager, { verb: 'watch', group: '', resource: 'pods', tenant: 'all' })).toBe(true);
    expect(can(scheduler, { verb: 'create', group: '', resource: 'pods', subresource: 'binding', namespace: 'x', tenant: 't1', name: 'p' })).toBe(true);
    expect(can(scheduler, { verb: 'patch', group: '', resource: 'pods', subresource: 'status', namespace: 'x', tenant: 't1', name: 'p' })).toBe(true);
    expect(can(scheduler, { verb: 'create', group: 'events.k8s.io', resource: 'events', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(scheduler, { verb: 'create', group: '', resource: 'events', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(scheduler, { verb: 'list', group: '', resource: 'nodes' })).toBe(true);
    expect(can(scheduler, { verb: 'update', group: '', resource: 'pods', namespace: 'x', tenant: 't1', name: 'p' })).toBe(false);
    expect(can(scheduler, { verb: 'delete', group: '', resource: 'events', namespace: 'x', tenant: 't1', name: 'e' })).toBe(false);
  });

  it('gives the workload controllers their writes in every space, and the manager their reads', () => {
    const manager = user('system:kube-controller-manager', 'system');
    const replicaSetController = user('system:controller:replicaset-controller', 'system');
    const deploymentController = user('system:controller:deployment-controller', 'system');
    const disruptionController = user('system:controller:disruption-controller', 'system');
    for (const [group, resource] of [['', 'pods'], ['apps', 'replicasets'], ['apps', 'deployments'], ['policy', 'poddisruptionbudgets'], ['', 'replicationcontrollers']] as const) {
      expect(can(manager, { verb: 'watch', group, resource, tenant: 'all' })).toBe(true);
    }
    expect(can(replicaSetController, { verb: 'create', group: '', resource: 'pods', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(replicaSetController, { verb: 'update', group: 'apps', resource: 'replicasets', subresource: 'status', namespace: 'x', name: 'web', tenant: 't1' })).toBe(true);
    expect(can(replicaSetController, { verb: 'create', group: 'events.k8s.io', resource: 'events', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(replicaSetController, { verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'x', name: 'web', tenant: 't1' })).toBe(false);
    expect(can(deploymentController, { verb: 'create', group: 'apps', resource: 'replicasets', namespace: 'x', tenant: 't1' })).toBe(true);
    expect(can(deploymentController, { verb: 'create', group: '', resource: 'pods', namespace: 'x', tenant: 't1' })).toBe(false);
    expect(can(disruptionController, { verb: 'update', group: 'policy', resource: 'poddisruptionbudgets', subresource: 'status', namespace: 'x', name: 'web', tenant: 't1' })).toBe(true);
    expect(can(disruptionController, { verb: 'delete', group: '', resource: 'pods', namespace: 'x', name: 'web', tenant: 't1' })).toBe(false);
  });

  it('applies a ClusterRoleBinding to the whole space and a RoleBinding to its namespace only', () => {
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('readers', 'pod-reader', [{ kind: 'User', name: 'alice' }]));
    put(rbac, 'RoleBinding', 't1', { metadata: { name: 'bob-reads', namespace: 'ns1' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'User', name: 'bob' }] });
    const bob = user('bob', 't1');
    expect(can(alice, { verb: 'list', group: '', resource: 'pods', namespace: 'ns2' })).toBe(true);
    expect(can(alice, { verb: 'list', group: '', resource: 'pods' })).toBe(true);
    expect(can(bob, { verb: 'list', group: '', resource: 'pods', namespace: 'ns1' })).toBe(true);
    expect(can(bob, { verb: 'list', group: '', resource: 'pods', namespace: 'ns2' })).toBe(false);
    expect(can(bob, { verb: 'list', group: '', resource: 'pods' })).toBe(false);
  });

  it("never lets one space's binding reach a same-named identity of another space", () => {
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('everyone', 'cluster-admin', [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'dev' }]));
    expect(can(alice, { verb: 'delete', group: '', resource: 'pods', namespace: 'x' })).toBe(true);
    expect(can(user('alice', 't2', ['dev']), { verb: 'get', group: '', resource: 'pods', namespace: 'x' })).toBe(false);
    // And a t1 user never acts in t2, whatever t1 grants.
    expect(authorizer.authorize(alice, { verb: 'get', group: '', resource: 'pods', namespace: 'x', tenant: 't2' })).toMatchObject({ allowed: false, denied: true });
  });

  it('aggregates a space’s own aggregate-to-view ClusterRoles into the shared view, for that space only', () => {
    const crontabViewer = (tenant: string) =>
      put(rbac, 'ClusterRole', tenant, { metadata: { name: 'crontab-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ verbs: ['get', 'list'], apiGroups: ['stable.example.com'], resources: ['crontabs'] }] });
    const bob = user('bob', 't2');
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('alice-view', 'view', [{ kind: 'User', name: 'alice' }]));
    put(rbac, 'ClusterRoleBinding', 't2', clusterBinding('bob-view', 'view', [{ kind: 'User', name: 'bob' }]));
    const readsCronTabs = (u: UserInfo) => can(u, { verb: 'list', group: 'stable.example.com', resource: 'crontabs', namespace: 'default' });
    expect([readsCronTabs(alice), readsCronTabs(bob)]).toEqual([false, false]);
    crontabViewer('t1');
    expect([readsCronTabs(alice), readsCronTabs(bob)]).toEqual([true, false]);
    expect(rbac.roleRules('t1', 'ClusterRole', '', 'view')).toContainEqual({ verbs: ['get', 'list'], apiGroups: ['stable.example.com'], resources: ['crontabs'] });
    expect(rbac.roleRules('t2', 'ClusterRole', '', 'view')).not.toContainEqual({ verbs: ['get', 'list'], apiGroups: ['stable.example.com'], resources: ['crontabs'] });
    // Edit does not select aggregate-to-view roles; deleting the role takes its rules away.
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('alice-view', 'edit', [{ kind: 'User', name: 'alice' }]));
    expect(readsCronTabs(alice)).toBe(false);
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('alice-view', 'view', [{ kind: 'User', name: 'alice' }]));
    rbac.apply('ClusterRole', 't1', '', 'crontab-viewer', undefined);
    expect(readsCronTabs(alice)).toBe(false);
  });

  it('resolves a binding to a shared default role, and follows role changes and deletions', () => {
    put(rbac, 'ClusterRole', 'system', { metadata: { name: 'view', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] });
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('alice-view', 'view', [{ kind: 'User', name: 'alice' }]));
    expect(can(alice, { verb: 'get', group: '', resource: 'configmaps', namespace: 'a' })).toBe(true);
    rbac.apply('ClusterRoleBinding', 't1', '', 'alice-view', undefined);
    expect(can(alice, { verb: 'get', group: '', resource: 'configmaps', namespace: 'a' })).toBe(false);
  });

  it('matches service-account subjects by their user name, defaulting to the binding namespace', () => {
    put(rbac, 'RoleBinding', 't1', { metadata: { name: 'sa', namespace: 'ns1' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'builder' }] });
    const sa = user('system:serviceaccount:ns1:builder', 't1', ['system:serviceaccounts']);
    expect(can(sa, { verb: 'get', group: '', resource: 'pods', namespace: 'ns1' })).toBe(true);
    expect(can(user('system:serviceaccount:ns2:builder', 't1'), { verb: 'get', group: '', resource: 'pods', namespace: 'ns1' })).toBe(false);
  });

  it('gives system users powers in every space only through system-space ClusterRoleBindings', () => {
    const ops = user('ops', 'system');
    expect(can(ops, { verb: 'list', group: '', resource: 'pods', tenant: 't1' })).toBe(false);
    put(rbac, 'ClusterRole', 'system', { metadata: { name: 'reader' }, rules: [{ verbs: ['list'], apiGroups: ['*'], resources: ['*'] }] });
    put(rbac, 'ClusterRoleBinding', 'system', clusterBinding('ops', 'reader', [{ kind: 'User', name: 'ops' }]));
    expect(can(ops, { verb: 'list', group: '', resource: 'pods', tenant: 't1' })).toBe(true);
    expect(can(ops, { verb: 'list', group: '', resource: 'pods', tenant: 'all' })).toBe(true);
    expect(can(ops, { verb: 'delete', group: '', resource: 'pods', namespace: 'a', tenant: 't1' })).toBe(false);
    // A binding in t1 naming "ops" is t1's ops, not the system's.
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('t1-ops', 'cluster-admin', [{ kind: 'User', name: 'ops' }]));
    expect(can(ops, { verb: 'delete', group: '', resource: 'pods', namespace: 'a', tenant: 't1' })).toBe(false);
  });

  it('lets system:masters of the system tenant do anything, but tenant users claiming it only what the shared binding gives in their space', () => {
    const root = user('root', 'system', ['system:masters']);
    expect(can(root, { verb: 'delete', group: '', resource: 'tenants', name: 't1', tenant: 'system' })).toBe(true);
    const mallory = user('mallory', 't1', ['system:masters']);
    expect(can(mallory, { verb: 'delete', group: '', resource: 'pods', namespace: 'a' })).toBe(true);
    expect(authorizer.authorize(mallory, { verb: 'get', group: '', resource: 'tenants', name: 't1', tenant: 't1' })).toMatchObject({ allowed: false, denied: true });
  });

  it('refuses changes to shared defaults outside the system space, for everyone', () => {
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('alice-admin', 'cluster-admin', [{ kind: 'User', name: 'alice' }]));
    expect(can(alice, { verb: 'get', group: RBAC, resource: 'clusterroles', name: 'view' })).toBe(true);
    expect(authorizer.authorize(alice, { verb: 'delete', group: RBAC, resource: 'clusterroles', name: 'view', tenant: 't1' })).toMatchObject({ allowed: false, denied: true });
    expect(can(alice, { verb: 'delete', group: RBAC, resource: 'clusterroles', name: 'pod-reader' })).toBe(true);
    expect(can(user('root', 'system', ['system:masters']), { verb: 'update', group: RBAC, resource: 'clusterroles', name: 'view', tenant: 'system' })).toBe(true);
  });

  it('answers the rules that apply, for SelfSubjectRulesReview', () => {
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('readers', 'pod-reader', [{ kind: 'Group', name: 'dev' }]));
    const rules = authorizer.rulesFor(user('carol', 't1', ['dev']), 't1', 'ns1');
    expect(rules).toContainEqual({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] });
    expect(rules.some((r) => r.nonResourceURLs?.includes('/apis/*'))).toBe(true);
  });

  it('explains an allowed decision like kube-apiserver', () => {
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('readers', 'pod-reader', [{ kind: 'User', name: 'alice' }]));
    expect(authorizer.authorize(alice, { verb: 'get', group: '', resource: 'pods', namespace: 'a', tenant: 't1' }).reason).toBe('RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to User "alice"');
  });

  it('keeps users and groups of one name apart, and lets go of a binding that names a subject twice', () => {
    const listPods = { verb: 'list', group: '', resource: 'pods', namespace: 'a' };
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('to-group', 'pod-reader', [{ kind: 'Group', name: 'alice' }]));
    expect(can(alice, listPods)).toBe(false);
    expect(can(user('bob', 't1', ['alice']), listPods)).toBe(true);
    put(rbac, 'ClusterRoleBinding', 't1', clusterBinding('twice', 'pod-reader', [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'alice' }]));
    expect(can(alice, listPods)).toBe(true);
    rbac.apply('ClusterRoleBinding', 't1', '', 'twice', undefined);
    expect(can(alice, listPods)).toBe(false);
    expect(can(user('bob', 't1', ['alice']), listPods)).toBe(true);
  });
});
