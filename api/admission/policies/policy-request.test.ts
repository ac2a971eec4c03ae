import { describe, expect, it } from 'vitest';
import { matchingResource, type PolicyRequest } from './policy-request.js';

const request = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  tenant: 't1',
  operation: 'CREATE',
  gvr: { group: 'apps', version: 'v1', resource: 'deployments' },
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  subresource: '',
  namespace: 'shop',
  name: 'web',
  object: null,
  oldObject: null,
  user: undefined,
  dryRun: false,
  equivalents: [],
  ...over,
});

const rule = (over: Record<string, unknown> = {}) => ({ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'], ...over });

describe('resource rules (kube\'s rules.Matcher)', () => {
  it.each([
    ['the exact resource', rule(), request(), true],
    ['another operation', rule(), request({ operation: 'DELETE' }), false],
    ['* operations', rule({ operations: ['*'] }), request({ operation: 'UPDATE' }), true],
    ['a subresource, by the resource alone', rule(), request({ subresource: 'status' }), false],
    ['a subresource, by resource/subresource', rule({ resources: ['deployments/status'] }), request({ subresource: 'status' }), true],
    ['resource/* with no subresource', rule({ resources: ['deployments/*'] }), request(), true],
    ['* with a subresource', rule({ resources: ['*'] }), request({ subresource: 'status' }), false],
    ['*/* with a subresource', rule({ resources: ['*/*'] }), request({ subresource: 'status' }), true],
    ['Cluster scope, namespaced request', rule({ scope: 'Cluster' }), request(), false],
    ['Namespaced scope, namespaced request', rule({ scope: 'Namespaced' }), request(), true],
    ['a namespace is Cluster-scoped', rule({ apiGroups: [''], resources: ['namespaces'], scope: 'Cluster' }), request({ gvr: { group: '', version: 'v1', resource: 'namespaces' }, namespace: 'n', name: 'n' }), true],
    ['resourceNames naming it', rule({ resourceNames: ['web'] }), request(), true],
    ['resourceNames naming another', rule({ resourceNames: ['api'] }), request(), false],
  ])('%s', (_name, r, req, matches) => {
    expect(matchingResource([r], 'Exact', req) !== undefined).toBe(matches);
  });

  it('matches another version of the same resource under Equivalent only', () => {
    const req = request({ gvr: { group: 'apps', version: 'v1beta1', resource: 'deployments' }, equivalents: [{ group: 'apps', version: 'v1', resource: 'deployments' }] });
    expect(matchingResource([rule()], 'Exact', req)).toBeUndefined();
    expect(matchingResource([rule()], 'Equivalent', req)).toEqual({ group: 'apps', version: 'v1', resource: 'deployments' });
  });
});
