import { describe, expect, it } from 'vitest';
import { objectSelectorMatches, ruleMatches, type RequestTarget } from './webhook-matching.js';

const pods: RequestTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespaced: true };
const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources, ...extra });

describe('ruleMatches', () => {
  it.each([
    ['the resource', rule(['pods']), pods, true],
    ['another resource', rule(['configmaps']), pods, false],
    ['* for a resource', rule(['*']), pods, true],
    ['* not for a subresource', rule(['*']), { ...pods, subresource: 'status' }, false],
    ['*/* for a subresource', rule(['*/*']), { ...pods, subresource: 'status' }, true],
    ['pods/* for pods/status', rule(['pods/*']), { ...pods, subresource: 'status' }, true],
    ['*/status for pods/status', rule(['*/status']), { ...pods, subresource: 'status' }, true],
    ['pods/status not for pods', rule(['pods/status']), pods, false],
    ['pods not for pods/status', rule(['pods']), { ...pods, subresource: 'status' }, false],
    ['another operation', rule(['pods']), { ...pods, operation: 'DELETE' as const }, false],
    ['operation *', rule(['pods'], { operations: ['*'] }), { ...pods, operation: 'UPDATE' as const }, true],
    ['another group', rule(['pods'], { apiGroups: ['apps'] }), pods, false],
    ['another version', rule(['pods'], { apiVersions: ['v2'] }), pods, false],
    ['scope Cluster for a namespaced resource', rule(['pods'], { scope: 'Cluster' }), pods, false],
    ['scope Namespaced', rule(['pods'], { scope: 'Namespaced' }), pods, true],
    ['scope Cluster for a space-scoped kind', rule(['namespaces'], { scope: 'Cluster' }), { ...pods, resource: 'namespaces', namespaced: false }, true],
  ])('%s', (_what, r, target, expected) => {
    expect(ruleMatches(r, target)).toBe(expected);
  });
});

describe('objectSelectorMatches', () => {
  const labelled = { metadata: { labels: { app: 'web' } } };
  const plain = { metadata: {} };
  it('matches everything when empty', () => {
    expect(objectSelectorMatches({}, plain, undefined)).toBe(true);
  });
  it('looks at the new object, then the old one', () => {
    const selector = { matchLabels: { app: 'web' } };
    expect(objectSelectorMatches(selector, labelled, undefined)).toBe(true);
    expect(objectSelectorMatches(selector, plain, undefined)).toBe(false);
    expect(objectSelectorMatches(selector, plain, labelled)).toBe(true);
    expect(objectSelectorMatches(selector, undefined, labelled)).toBe(true);
  });
});
