import { describe, expect, it } from 'vitest';
import { parseAuditPolicy, type AuditAttributes } from './audit-policy.js';

const policy = parseAuditPolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: [system:kube-proxy]
  - level: None
    nonResourceURLs: [/healthz*, /readyz]
  - level: Metadata
    resources:
      - group: ""
        resources: [secrets]
  - level: RequestResponse
    tenants: [t1]
    resources:
      - group: ""
        resources: [configmaps]
        resourceNames: [audited]
    omitStages: [ResponseStarted]
    omitManagedFields: true
  - level: Request
    verbs: [create, update, patch]
    namespaces: [prod, ""]
  - level: Metadata
    userGroups: [devs]
    resources:
      - group: apps
        resources: ["deployments/*", "*/status"]
`);

const user = (name: string, groups: string[] = []) => ({ name, groups });
const resource = (group: string, res: string, extra: Partial<NonNullable<AuditAttributes['resource']>> = {}) => ({ group, resource: res, ...extra });

describe('AuditPolicy', () => {
  it.each<[string, AuditAttributes, string]>([
    ['a user a None rule names', { user: user('system:kube-proxy'), verb: 'get', tenant: 'system', resource: resource('', 'secrets') }, 'None'],
    ['a non-resource URL by prefix', { user: user('alice'), verb: 'get', tenant: 't1', path: '/healthz/ping' }, 'None'],
    ['a resource rule never for a non-resource request', { user: user('alice'), verb: 'get', tenant: 't1', path: '/metrics' }, 'None'],
    ['a resource of the core group', { user: user('alice'), verb: 'list', tenant: 't2', resource: resource('', 'secrets', { namespace: 'a' }) }, 'Metadata'],
    ['a rule limited to tenants, in the tenant', { user: user('alice'), verb: 'get', tenant: 't1', resource: resource('', 'configmaps', { namespace: 'a', name: 'audited' }) }, 'RequestResponse'],
    ['a rule limited to tenants, elsewhere', { user: user('alice'), verb: 'get', tenant: 't2', resource: resource('', 'configmaps', { namespace: 'a', name: 'audited' }) }, 'None'],
    ['resourceNames, another name', { user: user('alice'), verb: 'get', tenant: 't1', resource: resource('', 'configmaps', { namespace: 'a', name: 'other' }) }, 'None'],
    ['verbs and namespaces', { user: user('alice'), verb: 'create', tenant: 't1', resource: resource('', 'pods', { namespace: 'prod' }) }, 'Request'],
    ['"" for cluster-scoped objects', { user: user('alice'), verb: 'create', tenant: 't1', resource: resource('', 'namespaces') }, 'Request'],
    ['a namespace not listed', { user: user('alice'), verb: 'create', tenant: 't1', resource: resource('', 'pods', { namespace: 'dev' }) }, 'None'],
    ['res/* for a subresource', { user: user('bob', ['devs']), verb: 'update', tenant: 't1', resource: resource('apps', 'deployments', { subresource: 'scale', namespace: 'dev' }) }, 'Metadata'],
    ['*/sub for any resource', { user: user('bob', ['devs']), verb: 'get', tenant: 't1', resource: resource('apps', 'statefulsets', { subresource: 'status', namespace: 'dev' }) }, 'Metadata'],
    ['res/* is not the resource itself', { user: user('bob', ['devs']), verb: 'get', tenant: 't1', resource: resource('apps', 'deployments', { namespace: 'dev' }) }, 'None'],
  ])('decides %s', (_what, attrs, level) => {
    expect(policy.decide(attrs).level).toBe(level);
  });

  it('joins the policy\'s omitStages with the rule\'s and takes the rule\'s omitManagedFields', () => {
    expect(policy.decide({ user: user('a'), verb: 'get', tenant: 't1', resource: resource('', 'configmaps', { namespace: 'x', name: 'audited' }) })).toEqual({
      level: 'RequestResponse',
      omitStages: ['RequestReceived', 'ResponseStarted'],
      omitManagedFields: true,
    });
  });

  it.each([
    ['kind: Policy\napiVersion: v1\n', /apiVersion audit.k8s.io\/v1, kind Policy/],
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Loud}]\n', /rules\[0\].level: must be one of None, Metadata, Request, RequestResponse/],
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, colour: red}]\n', /rules\[0\].colour: unknown field/],
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [Sometimes]\n', /omitStages: unknown stage "Sometimes"/],
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None, nonResourceURLs: [/x], namespaces: [a]}]\n', /nonResourceURLs cannot go with resources or namespaces/],
  ])('refuses a bad policy: %s', (text, message) => {
    expect(() => parseAuditPolicy(text)).toThrow(message);
  });
});
