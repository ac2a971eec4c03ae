import { describe, expect, it } from 'vitest';
import { selfSubjectAccessReviews, type SelfSubjectAccessReview } from './self-subject-access-review.js';
import { fakeRequester } from './testing.js';

const review = (spec: SelfSubjectAccessReview['spec']): SelfSubjectAccessReview => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec });

describe('SelfSubjectAccessReview', () => {
  it('asks only whether the requester itself may do it', () => {
    const requester = fakeRequester({ decision: { allowed: true, reason: 'RBAC: allowed' } });
    const answered = selfSubjectAccessReviews.answer!(review({ resourceAttributes: { namespace: 'shop', verb: 'list', group: 'apps', resource: 'deployments' } }), requester) as SelfSubjectAccessReview;
    expect(answered.status).toEqual({ allowed: true, reason: 'RBAC: allowed' });
    expect(requester.asked).toEqual([
      { method: 'authorize', attributes: { verb: 'list', group: 'apps', resource: 'deployments', subresource: undefined, namespace: 'shop', name: undefined } },
    ]);
  });

  it('asks about a non-resource path and reports a definite no as denied', () => {
    const requester = fakeRequester({ decision: { allowed: false, denied: true, reason: 'no' } });
    const answered = selfSubjectAccessReviews.answer!(review({ nonResourceAttributes: { path: '/metrics', verb: 'get' } }), requester) as SelfSubjectAccessReview;
    expect(answered.status).toEqual({ allowed: false, denied: true, reason: 'no' });
    expect(requester.asked).toEqual([{ method: 'authorize', attributes: { verb: 'get', path: '/metrics' } }]);
  });

  it.each<[string, SelfSubjectAccessReview['spec']]>([
    ['neither', {}],
    ['both', { resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/healthz', verb: 'get' } }],
  ])('refuses %s kind of attributes with 422, deciding nothing', (_what, spec) => {
    const requester = fakeRequester({ decision: { allowed: true, reason: '' } });
    expect(() => selfSubjectAccessReviews.answer!(review(spec), requester)).toThrow(/SelfSubjectAccessReview.authorization.k8s.io "" is invalid/);
    expect(requester.asked).toEqual([]);
  });
});
