import { describe, expect, it } from 'vitest';
import { keyPrefix, keyTenant, objectKey, parseObjectKey, type ResourceKeyInfo } from './keys.js';
import { StorageError } from './errors.js';

const pods: ResourceKeyInfo = { group: '', resource: 'pods', scope: 'namespace' };
const clusterRoles: ResourceKeyInfo = { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', scope: 'space' };
const tenants: ResourceKeyInfo = { group: '', resource: 'tenants', scope: 'cluster' };

describe('objectKey', () => {
  it.each([
    [pods, { tenant: 't1', namespace: 'ns1', name: 'p' }, '/registry/core/pods/t1/ns1/p'],
    [pods, { tenant: 'system', namespace: 'default', name: 'a.b-c' }, '/registry/core/pods/system/default/a.b-c'],
    [clusterRoles, { tenant: 't1', name: 'system:discovery' }, '/registry/rbac.authorization.k8s.io/clusterroles/t1/system:discovery'],
    [tenants, { name: 't1' }, '/registry/core/tenants/t1'],
  ] as const)('%s %o → %s', (info, loc, key) => {
    expect(objectKey(info, loc)).toBe(key);
    expect(parseObjectKey(info, key)).toEqual(loc);
  });

  it.each([
    [pods, { tenant: 't1', namespace: 'ns1', name: '' }],
    [pods, { tenant: 't1', namespace: 'ns1', name: '..' }],
    [pods, { tenant: 't1', namespace: 'ns1', name: '.' }],
    [pods, { tenant: 't1', namespace: 'ns1', name: 'a/b' }],
    [pods, { tenant: 't1', namespace: '../t2', name: 'p' }],
    [pods, { tenant: 't1/ns1', namespace: 'x', name: 'p' }],
    [pods, { tenant: 't1', name: 'p' }],
    [pods, { namespace: 'ns1', name: 'p' }],
    [clusterRoles, { name: 'r' }],
    [clusterRoles, { tenant: 't1', namespace: 'ns1', name: 'r' }],
    [tenants, { tenant: 't1', name: 'x' }],
  ] as const)('refuses %s %o', (info, loc) => {
    expect(() => objectKey(info, loc)).toThrow(StorageError);
  });
});

describe('keyPrefix', () => {
  it('builds prefixes that end in a slash, so t1 never matches t10', () => {
    expect(keyPrefix(pods)).toBe('/registry/core/pods/');
    expect(keyPrefix(pods, { tenant: 't1' })).toBe('/registry/core/pods/t1/');
    expect(keyPrefix(pods, { tenant: 't1', namespace: 'ns1' })).toBe('/registry/core/pods/t1/ns1/');
    expect(keyPrefix(clusterRoles, { tenant: 't1' })).toBe('/registry/rbac.authorization.k8s.io/clusterroles/t1/');
  });
  it('refuses a namespace without a tenant and levels a scope does not have', () => {
    expect(() => keyPrefix(pods, { namespace: 'ns1' })).toThrow(StorageError);
    expect(() => keyPrefix(clusterRoles, { tenant: 't1', namespace: 'ns1' })).toThrow(StorageError);
    expect(() => keyPrefix(tenants, { tenant: 't1' })).toThrow(StorageError);
    expect(() => keyPrefix(pods, { tenant: '..' })).toThrow(StorageError);
  });
});

describe('parseObjectKey', () => {
  it('refuses keys of another resource or shape', () => {
    expect(() => parseObjectKey(pods, '/registry/core/podsx/t1/ns1/p')).toThrow(StorageError);
    expect(() => parseObjectKey(pods, '/registry/core/pods/t1/p')).toThrow(StorageError);
    expect(() => parseObjectKey(pods, '/registry/core/pods/t1/ns1/p/extra')).toThrow(StorageError);
  });
});

describe('keyTenant', () => {
  it.each([
    ['/registry/core/pods/t1/ns1/p', 't1'],
    ['/registry/rbac.authorization.k8s.io/clusterroles/t1/admin', 't1'],
    ['/registry/core/pods/t1/', 't1'],
    ['/registry/core/pods/t1/ns1/', 't1'],
    ['/registry/core/pods/', undefined],
    ['/registry/core/tenants/t1', undefined],
    ['/registry/core/tenants/', undefined],
    ['/elsewhere/core/pods/t1/ns1/p', undefined],
  ])('%s belongs to %s', (key, tenant) => {
    expect(keyTenant(key)).toBe(tenant);
  });
  it('agrees with the keys objectKey and keyPrefix build', () => {
    expect(keyTenant(objectKey(pods, { tenant: 't2', namespace: 'ns', name: 'p' }))).toBe('t2');
    expect(keyTenant(keyPrefix(pods, { tenant: 't2' }))).toBe('t2');
    expect(keyTenant(objectKey(tenants, { name: 't2' }))).toBeUndefined();
    expect(keyTenant(keyPrefix(tenants))).toBeUndefined();
  });
});
