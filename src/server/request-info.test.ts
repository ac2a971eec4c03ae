import { describe, expect, it } from 'vitest';
import { checkPathSegments, parseRequestInfo } from './request-info.js';

const r = (over: Record<string, unknown>) => ({
  kind: 'resource',
  apiPrefix: 'api',
  group: '',
  version: 'v1',
  subresource: undefined,
  namespace: undefined,
  name: undefined,
  tenant: undefined,
  tenantForm: 'short',
  ...over,
});

describe('parseRequestInfo: resource requests', () => {
  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    // short form
    ['GET', '/api/v1/namespaces/ns1/pods', {}, r({ verb: 'list', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods/p', {}, r({ verb: 'get', resource: 'pods', namespace: 'ns1', name: 'p', path: '/api/v1/namespaces/ns1/pods/p' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: 'true' }, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: 'True' }, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: 'false' }, r({ verb: 'list', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    // Go's parameter codec: only "0" and "false" (any case) are false, the first value counts.
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: 'yes' }, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: '' }, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: 'FALSE' }, r({ verb: 'list', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces/ns1/pods', { watch: ['0', 'true'] }, r({ verb: 'list', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/pods', {}, r({ verb: 'list', resource: 'pods', path: '/api/v1/pods' })],
    ['POST', '/api/v1/namespaces/ns1/configmaps', {}, r({ verb: 'create', resource: 'configmaps', namespace: 'ns1', path: '/api/v1/namespaces/ns1/configmaps' })],
    ['PUT', '/api/v1/namespaces/ns1/pods/p/status', {}, r({ verb: 'update', resource: 'pods', namespace: 'ns1', name: 'p', subresource: 'status', path: '/api/v1/namespaces/ns1/pods/p/status' })],
    ['PATCH', '/apis/apps/v1/namespaces/ns1/deployments/d/scale', {}, r({ verb: 'patch', apiPrefix: 'apis', group: 'apps', resource: 'deployments', namespace: 'ns1', name: 'd', subresource: 'scale', path: '/apis/apps/v1/namespaces/ns1/deployments/d/scale' })],
    ['DELETE', '/api/v1/namespaces/ns1/pods/p', {}, r({ verb: 'delete', resource: 'pods', namespace: 'ns1', name: 'p', path: '/api/v1/namespaces/ns1/pods/p' })],
    ['DELETE', '/api/v1/namespaces/ns1/pods', {}, r({ verb: 'deletecollection', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    // namespaces and their subresources
    ['GET', '/api/v1/namespaces', {}, r({ verb: 'list', resource: 'namespaces', path: '/api/v1/namespaces' })],
    ['GET', '/api/v1/namespaces/ns1', {}, r({ verb: 'get', resource: 'namespaces', namespace: 'ns1', name: 'ns1', path: '/api/v1/namespaces/ns1' })],
    ['PUT', '/api/v1/namespaces/ns1/finalize', {}, r({ verb: 'update', resource: 'namespaces', namespace: 'ns1', name: 'ns1', subresource: 'finalize', path: '/api/v1/namespaces/ns1/finalize' })],
    ['GET', '/api/v1/namespaces/ns1/status', {}, r({ verb: 'get', resource: 'namespaces', namespace: 'ns1', name: 'ns1', subresource: 'status', path: '/api/v1/namespaces/ns1/status' })],
    // legacy watch
    ['GET', '/api/v1/watch/namespaces/ns1/pods', {}, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', path: '/api/v1/watch/namespaces/ns1/pods' })],
    ['GET', '/api/v1/watch/namespaces/ns1/pods/p', {}, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', name: 'p', path: '/api/v1/watch/namespaces/ns1/pods/p' })],
    ['GET', '/api/v1/watch/tenants/t1/namespaces/ns1/pods', {}, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', tenant: 't1', tenantForm: 'full', path: '/api/v1/watch/tenants/t1/namespaces/ns1/pods' })],
    // full form
    ['GET', '/api/v1/tenants/t1/namespaces/ns1/pods/p', {}, r({ verb: 'get', resource: 'pods', namespace: 'ns1', name: 'p', tenant: 't1', tenantForm: 'full', path: '/api/v1/tenants/t1/namespaces/ns1/pods/p' })],
    ['GET', '/apis/apps/v1/tenants/t1/namespaces/ns1/deployments', {}, r({ verb: 'list', apiPrefix: 'apis', group: 'apps', resource: 'deployments', namespace: 'ns1', tenant: 't1', tenantForm: 'full', path: '/apis/apps/v1/tenants/t1/namespaces/ns1/deployments' })],
    ['GET', '/api/v1/tenants/t1/persistentvolumes', {}, r({ verb: 'list', resource: 'persistentvolumes', tenant: 't1', tenantForm: 'full', path: '/api/v1/tenants/t1/persistentvolumes' })],
    ['GET', '/api/v1/tenants/t1/namespaces', {}, r({ verb: 'list', resource: 'namespaces', tenant: 't1', tenantForm: 'full', path: '/api/v1/tenants/t1/namespaces' })],
    ['DELETE', '/api/v1/tenants/t1/namespaces/ns1', {}, r({ verb: 'delete', resource: 'namespaces', namespace: 'ns1', name: 'ns1', tenant: 't1', tenantForm: 'full', path: '/api/v1/tenants/t1/namespaces/ns1' })],
    ['GET', '/apis/rbac.authorization.k8s.io/v1/tenants/t1/clusterroles/system:x', {}, r({ verb: 'get', apiPrefix: 'apis', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'system:x', tenant: 't1', tenantForm: 'full', path: '/apis/rbac.authorization.k8s.io/v1/tenants/t1/clusterroles/system:x' })],
    // all spaces
    ['GET', '/api/v1/tenants/all/pods', {}, r({ verb: 'list', resource: 'pods', tenant: 'all', tenantForm: 'full', path: '/api/v1/tenants/all/pods' })],
    ['GET', '/api/v1/tenants/all/namespaces/default/pods', { watch: '1' }, r({ verb: 'watch', resource: 'pods', namespace: 'default', tenant: 'all', tenantForm: 'full', path: '/api/v1/tenants/all/namespaces/default/pods' })],
    ['GET', '/tenants/all/api/v1/pods', {}, r({ verb: 'list', resource: 'pods', tenant: 'all', tenantForm: 'prefix', path: '/api/v1/pods' })],
    // prefix form
    ['POST', '/tenants/t1/api/v1/namespaces/ns1/configmaps', {}, r({ verb: 'create', resource: 'configmaps', namespace: 'ns1', tenant: 't1', tenantForm: 'prefix', path: '/api/v1/namespaces/ns1/configmaps' })],
    ['GET', '/tenants/t1/apis/apps/v1/deployments', {}, r({ verb: 'list', apiPrefix: 'apis', group: 'apps', resource: 'deployments', tenant: 't1', tenantForm: 'prefix', path: '/apis/apps/v1/deployments' })],
    ['GET', '/tenants/t1/api/v1/watch/namespaces/ns1/pods', {}, r({ verb: 'watch', resource: 'pods', namespace: 'ns1', tenant: 't1', tenantForm: 'prefix', path: '/api/v1/watch/namespaces/ns1/pods' })],
    // the Tenant object
    ['GET', '/api/v1/tenants', {}, r({ verb: 'list', resource: 'tenants', path: '/api/v1/tenants' })],
    ['GET', '/api/v1/tenants', { watch: 'true' }, r({ verb: 'watch', resource: 'tenants', path: '/api/v1/tenants' })],
    ['GET', '/api/v1/tenants/t1', {}, r({ verb: 'get', resource: 'tenants', name: 't1', path: '/api/v1/tenants/t1' })],
    ['DELETE', '/api/v1/tenants/t1', {}, r({ verb: 'delete', resource: 'tenants', name: 't1', path: '/api/v1/tenants/t1' })],
    ['PUT', '/api/v1/tenants/t1/status', {}, r({ verb: 'update', resource: 'tenants', name: 't1', subresource: 'status', path: '/api/v1/tenants/t1/status' })],
    ['PUT', '/api/v1/tenants/t1/finalize', {}, r({ verb: 'update', resource: 'tenants', name: 't1', subresource: 'finalize', path: '/api/v1/tenants/t1/finalize' })],
    ['GET', '/api/v1/watch/tenants/t1', {}, r({ verb: 'watch', resource: 'tenants', name: 't1', path: '/api/v1/watch/tenants/t1' })],
    // encoded segments
    ['GET', '/api/v1/namespaces/ns1/configmaps/a%3Ab', {}, r({ verb: 'get', resource: 'configmaps', namespace: 'ns1', name: 'a:b', path: '/api/v1/namespaces/ns1/configmaps/a%3Ab' })],
    ['GET', '/api/v1/namespaces/ns1/configmaps/a%2Fb', {}, r({ verb: 'get', resource: 'configmaps', namespace: 'ns1', name: 'a/b', path: '/api/v1/namespaces/ns1/configmaps/a%2Fb' })],
    // slashes: outer ones trimmed, as kube-apiserver does; an inner empty segment stays one
    ['GET', '//api/v1/namespaces/ns1/pods/', {}, r({ verb: 'list', resource: 'pods', namespace: 'ns1', path: '/api/v1/namespaces/ns1/pods' })],
    ['GET', '/api/v1/namespaces//pods', {}, r({ verb: 'list', resource: 'pods', namespace: '', path: '/api/v1/namespaces//pods' })],
    ['GET', '/tenants//api/v1/pods', {}, r({ verb: 'list', resource: 'pods', tenant: '', tenantForm: 'prefix', path: '/api/v1/pods' })],
  ])('%s %s %o', (method, path, query, expected) => {
    expect(parseRequestInfo(method, path, query)).toEqual(expected);
  });
});

describe('parseRequestInfo: non-resource requests', () => {
  it.each<[string, string, string | undefined, string]>([
    ['/api', '/api', undefined, 'short'],
    ['/api/v1', '/api/v1', undefined, 'short'],
    ['/apis', '/apis', undefined, 'short'],
    ['/apis/apps', '/apis/apps', undefined, 'short'],
    ['/apis/apps/v1', '/apis/apps/v1', undefined, 'short'],
    ['/version', '/version', undefined, 'short'],
    ['/openapi/v3/apis/apps/v1', '/openapi/v3/apis/apps/v1', undefined, 'short'],
    ['/tenants/t1/api', '/api', 't1', 'prefix'],
    ['/tenants/t1/apis/apps/v1', '/apis/apps/v1', 't1', 'prefix'],
    ['/tenants/all/openapi/v2', '/openapi/v2', 'all', 'prefix'],
    ['/tenants/t1/version', '/version', 't1', 'prefix'],
  ])('%s', (raw, path, tenant, tenantForm) => {
    expect(parseRequestInfo('GET', raw, {})).toEqual({ kind: 'nonresource', verb: 'get', path, tenant, tenantForm });
  });
});

describe('parseRequestInfo: no request at all', () => {
  it.each([
    ['GET', '/tenants'],
    ['GET', '/tenants/t1'],
    ['GET', '/tenants/t1/api/v1/tenants/t2/pods'],
    ['GET', '/api/v1/namespaces/ns1/pods/p/status/extra'],
    ['GET', '/api/v1/namespaces/ns1/pods/%E0%A4%A'],
  ])('%s %s', (method, path) => {
    expect(parseRequestInfo(method, path, {})).toBeNull();
  });
});

describe('checkPathSegments: what could name nothing stored is refused before storage', () => {
  it.each<[string, string, number | null, string?]>([
    ['GET', '/api/v1/namespaces/ns1/configmaps/cm', null],
    ['GET', '/api/v1/tenants/all/namespaces/ns1/configmaps', null],
    ['GET', '/apis/rbac.authorization.k8s.io/v1/tenants/t1/clusterroles/system:x', null],
    ['GET', '/api/v1/namespaces/ns1/status', null],
    // names, as kube-apiserver's storage key functions refuse them
    ['GET', '/api/v1/namespaces/ns1/configmaps/..', 400, `Name parameter invalid: "..": may not be '..'`],
    ['GET', '/api/v1/namespaces/ns1/configmaps/.', 400, `Name parameter invalid: ".": may not be '.'`],
    ['DELETE', '/api/v1/namespaces/ns1/configmaps/a%2Fb', 400, `Name parameter invalid: "a/b": may not contain '/'`],
    ['PUT', '/api/v1/namespaces/ns1/configmaps/a%25b', 400, `Name parameter invalid: "a%b": may not contain '%'`],
    ['GET', '/api/v1/namespaces/ns1/configmaps/a%00b', 400, 'Name parameter invalid: "a\\u0000b": may not contain control characters'],
    ['GET', '/api/v1/namespaces/ns1/configmaps/caf%C3%A9', 400, 'Name parameter invalid: "café": may not contain non-ASCII characters'],
    ['GET', `/api/v1/namespaces/ns1/configmaps/${'a'.repeat(254)}`, 400, 'must be no more than 253 characters'],
    ['GET', '/api/v1/namespaces/ns1/pods//log', 400, 'Name parameter required.'],
    ['GET', '/api/v1/namespaces/..', 400, `Name parameter invalid: "..": may not be '..'`],
    ['PUT', '/api/v1/namespaces/%2e%2e/finalize', 400, `Name parameter invalid: "..": may not be '..'`],
    ['GET', '/api/v1/tenants/..', 400, `Name parameter invalid: "..": may not be '..'`],
    ['PUT', '/api/v1/tenants/%2e/status', 400, `Name parameter invalid: ".": may not be '.'`],
    // namespaces that cannot exist
    ['GET', '/api/v1/namespaces/%2e%2e/configmaps', 404, 'namespaces ".." not found'],
    ['POST', '/api/v1/namespaces/../configmaps', 404, 'namespaces ".." not found'],
    ['GET', '/api/v1/namespaces//configmaps', 404, 'namespaces "" not found'],
    ['GET', '/api/v1/watch/namespaces/a%2Fb/configmaps', 404, 'namespaces "a/b" not found'],
    ['GET', '/tenants/t1/api/v1/namespaces/%E2%9C%93/pods/p/log', 404, 'namespaces "✓" not found'],
    // tenants that cannot exist, in every form
    ['GET', '/api/v1/tenants/t1%2F..%2Ft2/namespaces/default/configmaps', 404, 'tenants "t1/../t2" not found'],
    ['GET', '/api/v1/tenants/%2e%2e/pods', 404, 'tenants ".." not found'],
    ['GET', '/tenants/%2e%2e/api/v1/namespaces', 404, 'tenants ".." not found'],
    ['GET', '/tenants//api/v1/pods', 404, 'tenants "" not found'],
    ['GET', '/tenants/..%2F/version', 404, 'tenants "../" not found'],
  ])('%s %s', (method, path, code, message) => {
    const info = parseRequestInfo(method, path, {});
    expect(info).not.toBeNull();
    const refusal = checkPathSegments(info!);
    if (code === null) return expect(refusal).toBeNull();
    expect(refusal).toMatchObject({ code, reason: code === 404 ? 'NotFound' : 'BadRequest' });
    expect(refusal!.message).toContain(message);
  });
});
