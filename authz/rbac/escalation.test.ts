import { beforeEach, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../api/kinds/index.js';
import type { AdmissionAttributes } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { Authorizer } from '../authorize.js';
import type { UserInfo } from '../../api/access.js';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-policy.js';
import { rbacEscalationAdmission } from './escalation.js';
import { RbacIndex } from './rbac-index.js';

const RBAC = 'rbac.authorization.k8s.io';
const kind = (k: string): ResourceDefinition => builtinKinds.find((d) => d.group === RBAC && d.kind === k)!;
const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'], tenant: 't1', extra: {} };

describe('RBAC escalation prevention', () => {
  let rbac: RbacIndex;
  let admission: ReturnType<typeof rbacEscalationAdmission>;
  const write = (k: string, object: KubeObject, opts: Partial<AdmissionAttributes> = {}) =>
    admission.admit({ operation: 'create', def: kind(k), tenant: 't1', namespace: object.metadata.namespace, object, old: undefined, user: alice, ...opts });
  const role = (rules: object[], namespace?: string): KubeObject => ({ metadata: { name: 'r', namespace }, rules }) as KubeObject;
  const binding = (roleKind: string, roleName: string, namespace?: string): KubeObject =>
    ({ metadata: { name: 'b', namespace }, roleRef: { apiGroup: RBAC, kind: roleKind, name: roleName }, subjects: [{ kind: 'User', name: 'alice' }] }) as KubeObject;
  const grantAlice = (roleName: string, rules: object[], namespace?: string) => {
    rbac.apply('ClusterRole', 't1', '', roleName, { metadata: { name: roleName, tenant: 't1' }, rules } as KubeObject);
    const kindName = namespace ? 'RoleBinding' : 'ClusterRoleBinding';
    rbac.apply(kindName, 't1', namespace ?? '', `${roleName}-alice`, { ...binding('ClusterRole', roleName, namespace), metadata: { name: `${roleName}-alice`, tenant: 't1', namespace } } as KubeObject);
  };

  beforeEach(() => {
    rbac = new RbacIndex();
    for (const r of bootstrapClusterRoles()) rbac.apply('ClusterRole', 'system', '', r.metadata.name!, { ...r, metadata: { ...r.metadata, tenant: 'system' } });
    for (const b of bootstrapClusterRoleBindings()) rbac.apply('ClusterRoleBinding', 'system', '', b.metadata.name!, { ...b, metadata: { ...b.metadata, tenant: 'system' } });
    admission = rbacEscalationAdmission(new Authorizer(rbac, []));
    grantAlice('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('lets a user create a role with permissions it holds, and refuses more, listing what is missing', () => {
    expect(() => write('Role', role([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'ns1'))).not.toThrow();
    expect(() => write('ClusterRole', role([{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'secrets'] }]))).toThrow(
      'clusterroles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
  });

  it('counts a RoleBinding only in its namespace', () => {
    grantAlice('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], 'ns1');
    expect(() => write('Role', role([{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], 'ns1'))).not.toThrow();
    expect(() => write('Role', role([{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], 'ns2'))).toThrow(/not currently held/);
    expect(() => write('ClusterRole', role([{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]))).toThrow(/not currently held/);
  });

  it('allows anything with escalate, and binding any role with bind on it', () => {
    // The shared aggregate-to roles hold rules here (no aggregation controller fills admin/edit/view in this test).
    const edit = 'system:aggregate-to-edit';
    expect(() => write('ClusterRoleBinding', binding('ClusterRole', edit))).toThrow(/not currently held/);
    grantAlice('binder', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: [edit] }]);
    expect(() => write('ClusterRoleBinding', binding('ClusterRole', edit))).not.toThrow();
    expect(() => write('ClusterRoleBinding', binding('ClusterRole', 'system:aggregate-to-admin'))).toThrow(/not currently held/);
    grantAlice('escalator', [{ verbs: ['escalate'], apiGroups: [RBAC], resources: ['clusterroles'] }]);
    expect(() => write('ClusterRole', role([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]))).not.toThrow();
  });

  it('lets a binding to a role whose rules the user holds through', () => {
    expect(() => write('ClusterRoleBinding', binding('ClusterRole', 'pod-reader'))).not.toThrow();
    expect(() => write('RoleBinding', binding('ClusterRole', 'pod-reader', 'ns1'))).not.toThrow();
  });

  it('answers NotFound for a binding to a role that does not exist, unless bind is allowed', () => {
    expect(() => write('ClusterRoleBinding', binding('ClusterRole', 'missing'))).toThrow('clusterroles.rbac.authorization.k8s.io "missing" not found');
  });

  it('needs full authority for an aggregationRule', () => {
    expect(() => write('ClusterRole', { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [] } } as KubeObject)).toThrow(/must have cluster-admin privileges to use the aggregationRule/);
  });

  it('checks updates only when they change what is granted', () => {
    const wide = role([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(() => write('ClusterRole', { ...wide, metadata: { ...wide.metadata, labels: { a: 'b' } } }, { operation: 'update', old: wide })).not.toThrow();
    expect(() => write('ClusterRole', wide, { operation: 'update', old: role([]) })).toThrow(/not currently held/);
  });

  it("refuses a space's own object named like a shared default, and leaves the server's own writes unchecked", () => {
    expect(() => write('ClusterRole', { metadata: { name: 'view' }, rules: [] } as KubeObject)).toThrow('clusterroles.rbac.authorization.k8s.io "view" already exists');
    expect(() => write('ClusterRoleBinding', { ...binding('ClusterRole', 'view'), metadata: { name: 'system:discovery' } })).toThrow(/already exists/);
    expect(() => write('ClusterRole', role([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), { user: undefined })).not.toThrow();
  });
});
