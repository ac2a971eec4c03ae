import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { resourceQuotas } from './resource-quota.js';
import type { ResourceQuota } from './types.js';

const quota = (spec: ResourceQuota['spec']): ResourceQuota => ({ metadata: { name: 'compute', creationTimestamp: CREATED }, spec });

describe('resource quotas', () => {
  it('accepts standard and object-count resources', async () => {
    const { object, errors } = await create(resourceQuotas, quota({ hard: { 'requests.cpu': '0.5', pods: '10', 'count/deployments.apps': '5' } }));
    expect(errors).toEqual([]);
    expect(object.spec?.hard).toEqual({ 'requests.cpu': '500m', pods: '10', 'count/deployments.apps': '5' });
    expect(object.status).toEqual({});
  });

  it.each<[string, ResourceQuota['spec'], string[]]>([
    ['an unknown resource', { hard: { widgets: '1' } }, ['spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified', 'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota']],
    ['a fractional count', { hard: { pods: '1.5' } }, ['spec.hard[pods]: Invalid value: "1500m": must be an integer']],
    ['conflicting scopes', { hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }, ['spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes']],
    ['a scope that does not apply', { hard: { 'requests.storage': '1Gi' }, scopes: ['Terminating'] }, [
      'spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource',
    ]],
    ['a selector scope without Exists', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'In', values: ['x'] }] } }, [
      "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
    ]],
  ])('%s', async (_, spec, expected) => {
    expect(messages((await create(resourceQuotas, quota(spec))).errors)).toEqual(expected);
  });

  it('keeps its scopes', async () => {
    const { object: old } = await create(resourceQuotas, quota({ hard: { pods: '1' }, scopes: ['BestEffort'] }));
    expect(messages(update(resourceQuotas, { ...old, spec: { ...old.spec, scopes: ['NotBestEffort'] } }, old))).toEqual([
      'spec.scopes: Invalid value: ["NotBestEffort"]: field is immutable',
    ]);
  });

  it('shows usage against the hard limits', () => {
    expect(headers(resourceQuotas)).toEqual(['NAME', 'REQUEST', 'LIMIT', 'AGE']);
    const q: ResourceQuota = {
      ...quota({}),
      status: { hard: { 'limits.cpu': '2', pods: '10', 'requests.cpu': '1' }, used: { 'limits.cpu': '500m', 'requests.cpu': '250m' } },
    };
    expect(cells(resourceQuotas, q)).toEqual(['compute', 'pods: 0/10, requests.cpu: 250m/1', 'limits.cpu: 500m/2', '10m']);
  });
});
