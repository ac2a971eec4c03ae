import { describe, expect, it } from 'vitest';
import { compactRules, formatRule, ruleAllows, uncoveredRules, type PolicyRule, type RuleAttributes } from './policy-rule.js';

describe('ruleAllows', () => {
  const podReader: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  it.each<[string, PolicyRule, RuleAttributes, boolean]>([
    ['verb and resource', podReader, { verb: 'get', group: '', resource: 'pods' }, true],
    ['other verb', podReader, { verb: 'delete', group: '', resource: 'pods' }, false],
    ['other group', podReader, { verb: 'get', group: 'apps', resource: 'pods' }, false],
    ['a subresource needs its own entry', podReader, { verb: 'get', group: '', resource: 'pods', subresource: 'log' }, false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, { verb: 'get', group: '', resource: 'pods', subresource: 'log' }, true],
    ['pods/log is not pods', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, { verb: 'get', group: '', resource: 'pods' }, false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, { verb: 'update', group: 'apps', resource: 'deployments', subresource: 'status' }, true],
    ['* covers subresources', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verb: 'create', group: '', resource: 'serviceaccounts', subresource: 'token' }, true],
    ['resourceNames match the name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app'] }, { verb: 'get', group: '', resource: 'configmaps', name: 'app' }, true],
    ['resourceNames refuse other names', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app'] }, { verb: 'get', group: '', resource: 'configmaps', name: 'db' }, false],
    ['resourceNames refuse lists (no name)', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app'] }, { verb: 'list', group: '', resource: 'configmaps' }, false],
    ['non-resource exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verb: 'get', path: '/healthz' }, true],
    ['non-resource prefix', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, { verb: 'get', path: '/apis/apps/v1' }, true],
    ['non-resource prefix is not the bare path', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, { verb: 'get', path: '/apis' }, false],
    ['resource rules never match paths', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verb: 'get', path: '/healthz' }, false],
    ['path rules never match resources', { verbs: ['*'], nonResourceURLs: ['*'] }, { verb: 'get', group: '', resource: 'pods' }, false],
  ])('%s', (_what, rule, attrs, allowed) => {
    expect(ruleAllows(rule, attrs)).toBe(allowed);
  });
});

describe('uncoveredRules', () => {
  const view: PolicyRule[] = [{ verbs: ['get', 'list', 'watch'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments'] }];
  it('finds nothing missing when every permission is held', () => {
    expect(uncoveredRules(view, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }])).toEqual([]);
  });
  it('lists each missing permission as one rule', () => {
    expect(uncoveredRules(view, [{ verbs: ['get', 'create'], apiGroups: [''], resources: ['pods', 'secrets'] }])).toEqual([
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
    ]);
  });
  it('a wildcard is covered only by a wildcard', () => {
    expect(uncoveredRules(view, [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }])).toHaveLength(1);
    expect(uncoveredRules([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])).toEqual([]);
  });
  it('subresources are covered by */sub and by the exact entry, not by the parent', () => {
    expect(uncoveredRules([{ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }])).toEqual([]);
    expect(uncoveredRules([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }])).toHaveLength(1);
  });
  it('named permissions are covered by unnamed ones, not the other way round', () => {
    const named: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] };
    const unnamed: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] };
    expect(uncoveredRules([unnamed], [named])).toEqual([]);
    expect(uncoveredRules([named], [unnamed])).toHaveLength(1);
  });
  it('non-resource URLs by prefix', () => {
    expect(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }])).toEqual([]);
    expect(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }])).toHaveLength(1);
  });
});

describe('formatRule', () => {
  it("prints rules as kube-apiserver's escalation refusals do", () => {
    expect(formatRule({ apiGroups: [''], resources: ['pods'], verbs: ['create'] })).toBe('{APIGroups:[""], Resources:["pods"], Verbs:["create"]}');
    expect(formatRule({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toBe('{NonResourceURLs:["/metrics"], Verbs:["get"]}');
  });
});

describe('compactRules', () => {
  it("merges one-resource rules' verbs per group and resource, keeping others as they are", () => {
    const named = { apiGroups: [''], resources: ['secrets'], resourceNames: ['a'], verbs: ['get'] };
    expect(
      compactRules([
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
        named,
      ]),
    ).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }, named]);
  });
});
