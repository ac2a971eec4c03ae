import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/registry/object.js';
import { Authorizer } from './authorize.js';
import { impersonate } from './impersonate.js';
import { RbacIndex } from './rbac/rbac-index.js';
import type { UserInfo } from '../api/access.js';

const RBAC = 'rbac.authorization.k8s.io';
const admin: UserInfo = { name: 'admin', uid: '', groups: ['system:authenticated'], tenant: 't1', extra: {} };
const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'], tenant: 't1', extra: {} };
const root: UserInfo = { name: 'root', uid: '', groups: ['system:masters', 'system:authenticated'], tenant: 'system', extra: {} };

function authorizer(): Authorizer {
  const rbac = new RbacIndex();
  const metadata = { name: 'impersonator', tenant: 't1' };
  rbac.apply('ClusterRole', 't1', '', 'impersonator', { metadata, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'] }] } as KubeObject);
  rbac.apply('ClusterRoleBinding', 't1', '', 'impersonator', { metadata, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'impersonator' }, subjects: [{ kind: 'User', name: 'admin' }] } as KubeObject);
  return new Authorizer(rbac, []);
}

describe('impersonate', () => {
  const az = authorizer();

  it('leaves a request without impersonation headers as the caller', () => {
    expect(impersonate(alice, ['Accept', 'application/json'], az)).toBe(alice);
  });

  it('acts as the named user and groups of the same tenant when allowed', () => {
    const as = impersonate(admin, ['Impersonate-User', 'bob', 'Impersonate-Group', 'dev', 'Impersonate-Group', 'ops'], az);
    expect(as).toEqual({ name: 'bob', uid: '', groups: ['dev', 'ops', 'system:authenticated'], tenant: 't1', extra: {} });
  });

  it('adds the service-account groups when acting as a service account', () => {
    expect(impersonate(admin, ['Impersonate-User', 'system:serviceaccount:ns1:builder'], az).groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']);
  });

  it("refuses a caller without impersonate, worded as kube-apiserver", () => {
    expect(() => impersonate(alice, ['Impersonate-User', 'admin'], az)).toThrow('users "admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('refuses a uid the caller may not impersonate', () => {
    expect(() => impersonate(admin, ['Impersonate-User', 'bob', 'Impersonate-Uid', '42'], az)).toThrow(/cannot impersonate resource "uids" in API group "authentication.k8s.io"/);
  });

  it('refuses groups without a user', () => {
    expect(() => impersonate(admin, ['Impersonate-Group', 'dev'], az)).toThrow(/needs a user/);
  });

  it('never lets a tenant user act as a user of another tenant', () => {
    expect(() => impersonate(admin, ['Impersonate-User', 'bob', 'Impersonate-Extra-kube-spaces.io%2ftenant', 't2'], az)).toThrow(/another tenant/);
    // Naming its own tenant is allowed and changes nothing.
    expect(impersonate(admin, ['Impersonate-User', 'bob', 'Impersonate-Extra-kube-spaces.io%2ftenant', 't1'], az).tenant).toBe('t1');
  });

  it('lets a system user act as a user of any tenant', () => {
    expect(impersonate(root, ['Impersonate-User', 'alice', 'Impersonate-Extra-kube-spaces.io%2Ftenant', 't1'], az)).toMatchObject({ name: 'alice', tenant: 't1', extra: {} });
    expect(() => impersonate(root, ['Impersonate-User', 'alice', 'Impersonate-Extra-kube-spaces.io%2Ftenant', 'all'], az)).toThrow(/exactly one valid tenant/);
  });
});
