import { describe, expect, it } from 'vitest';
import { subjectAccessReviews, type SubjectAccessReview } from './subject-access-review.js';
import { fakeRequester, refusal } from './testing.js';

const review = (spec: SubjectAccessReview['spec'], metadata: SubjectAccessReview['metadata'] = {}): SubjectAccessReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  metadata,
  spec,
});

const allowed = { allowed: true, reason: 'RBAC: allowed by RoleBinding "dev/shop" of Role "dev" to User "bob"' };
const ask = (r: SubjectAccessReview, requester = fakeRequester({ decision: allowed })) => subjectAccessReviews.answer!(r, requester) as SubjectAccessReview;

describe('SubjectAccessReview', () => {
  it.each<[string, SubjectAccessReview, string]>([
    [
      'a review asking nothing, of nobody',
      review({}),
      'SubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    ],
    [
      'both kinds of action',
      review({ user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/healthz","verb":"get"}: cannot be specified in combination with resourceAttributes',
    ],
    [
      'no user and no groups',
      review({ resourceAttributes: { verb: 'get', resource: 'pods' }, groups: [] }),
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    ],
    [
      'a name',
      review({ user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } }, { name: 'check' }),
      'SubjectAccessReview.authorization.k8s.io "" is invalid: metadata: Invalid value: {"name":"check"}: must be empty',
    ],
  ])('refuses %s with 422, deciding nothing', async (_what, body, message) => {
    const requester = fakeRequester({ decision: allowed });
    expect(await refusal(() => ask(body, requester))).toEqual({ code: 422, message });
    expect(requester.asked).toEqual([]);
  });

  it('asks about the subject, not the requester, with the attributes of a resource request', () => {
    const requester = fakeRequester({ decision: allowed });
    const body = review({
      user: 'bob',
      uid: 'u-bob',
      groups: ['devs'],
      extra: { 'scopes.example.com': ['read'] },
      resourceAttributes: { namespace: 'shop', verb: 'update', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', name: 'web' },
    });
    expect(ask(body, requester)).toEqual({ ...body, status: allowed });
    expect(requester.asked).toEqual([
      {
        method: 'authorizeSubject',
        subject: { name: 'bob', uid: 'u-bob', groups: ['devs'], extra: { 'scopes.example.com': ['read'] } },
        attributes: { verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'shop', name: 'web' },
      },
    ]);
  });

  it('asks about groups alone, on a non-resource path, and reports a definite no as denied', () => {
    const requester = fakeRequester({ decision: { allowed: false, denied: true, reason: "access is limited to the user's own tenant" } });
    const body = review({ groups: ['auditors'], nonResourceAttributes: { path: '/metrics', verb: 'get' } }, { creationTimestamp: null } as unknown as SubjectAccessReview['metadata']);
    expect(ask(body, requester).status).toEqual({ allowed: false, denied: true, reason: "access is limited to the user's own tenant" });
    expect(requester.asked).toEqual([{ method: 'authorizeSubject', subject: { name: '', uid: '', groups: ['auditors'], extra: {} }, attributes: { verb: 'get', path: '/metrics' } }]);
  });

  it('leaves denied out when no rule allows it', () => {
    const status = ask(review({ user: 'bob', resourceAttributes: { verb: 'delete', resource: 'secrets' } }), fakeRequester({ decision: { allowed: false, reason: '' } })).status;
    expect(status).toEqual({ allowed: false, reason: '' });
  });
});
