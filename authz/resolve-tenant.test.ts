import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../src/server/request-info.js';
import { ApiError } from '../api/status.js';
import { resolveTenant } from './resolve-tenant.js';
import type { UserInfo } from '../api/access.js';

const user = (tenant: string | null): UserInfo => ({ name: 'alice', uid: 'u', groups: ['system:authenticated'], tenant, extra: {} });
const info = (path: string) => parseRequestInfo('GET', path, {})!;

describe('resolveTenant', () => {
  it.each<[string, string | null, string]>([
    ['/api/v1/namespaces/ns1/pods', 't1', 't1'],
    ['/api/v1/tenants/t1/namespaces/ns1/pods', 't1', 't1'],
    ['/tenants/t1/api/v1/pods', 't1', 't1'],
    ['/api/v1/namespaces/ns1/pods', 'system', 'system'],
    ['/api/v1/tenants/t2/pods', 'system', 't2'],
    ['/tenants/all/api/v1/pods', 'system', 'all'],
    ['/api/v1/tenants/all/namespaces/default/pods', 'system', 'all'],
    ['/tenants/t2/api', 'system', 't2'],
  ])('%s as a %s user acts in %s', (path, tenant, want) => {
    expect(resolveTenant(info(path), user(tenant), () => true)).toBe(want);
  });

  it.each<[string, string | null]>([
    ['/api/v1/namespaces/ns1/pods', null],
    ['/api/v1/tenants/t2/namespaces/ns1/pods', 't1'],
    ['/tenants/t2/api/v1/pods', 't1'],
    ['/api/v1/tenants/all/pods', 't1'],
    ['/tenants/all/api/v1/pods', 't1'],
    ['/tenants/t2/apis', 't1'],
    ['/tenants/system/api/v1/pods', 't1'],
  ])('refuses %s to a %s user with 403', (path, tenant) => {
    try {
      resolveTenant(info(path), user(tenant), () => true);
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe(403);
    }
  });

  it('refuses every request of a credential whose tenant does not exist (never created or deleted), discovery included', () => {
    const exists = (name: string) => name === 't1';
    expect(() => resolveTenant(info('/apis'), user('t1'), exists)).not.toThrow();
    expect(() => resolveTenant(info('/apis'), user('t3'), exists)).toThrow('User "alice" cannot act in tenant "t3": the tenant does not exist');
    expect(() => resolveTenant(info('/api/v1/namespaces/ns1/pods'), user('t3'), exists)).toThrow(ApiError);
    // The system tenant always exists.
    expect(resolveTenant(info('/api/v1/pods'), user('system'), () => false)).toBe('system');
  });
});
