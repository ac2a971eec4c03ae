import { describe, expect, it } from 'vitest';
import { localSubjectAccessReviews, type LocalSubjectAccessReview } from './local-subject-access-review.js';
import { fakeRequester, refusal } from './testing.js';

const allowed = { allowed: true, reason: 'RBAC: allowed' };

const review = (spec: LocalSubjectAccessReview['spec'], metadata: LocalSubjectAccessReview['metadata'] = {}): LocalSubjectAccessReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'LocalSubjectAccessReview',
  metadata,
  spec,
});

/** Asked at `.../namespaces/shop/localsubjectaccessreviews`. */
const inShop = () => fakeRequester({ decision: allowed, namespace: 'shop' });
const ask = (r: LocalSubjectAccessReview, requester = inShop()) => localSubjectAccessReviews.answer!(r, requester) as LocalSubjectAccessReview;

describe('LocalSubjectAccessReview', () => {
  it('answers in the namespace of the path, which the body takes as its own', () => {
    const requester = inShop();
    const body = review({ user: 'bob', resourceAttributes: { namespace: 'shop', verb: 'create', resource: 'pods' } });
    expect(ask(body, requester)).toEqual({ ...body, metadata: { namespace: 'shop' }, status: allowed });
    expect(requester.asked).toEqual([
      { method: 'authorizeSubject', subject: { name: 'bob', uid: '', groups: [], extra: {} }, attributes: { verb: 'create', group: '', resource: 'pods', subresource: undefined, namespace: 'shop', name: undefined } },
    ]);
  });

  it.each<[string, LocalSubjectAccessReview, { code: number; message: string }]>([
    [
      'a body of another namespace (400, as for every namespaced body)',
      review({ user: 'bob', resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } }, { namespace: 'other' }),
      { code: 400, message: 'the namespace of the provided object does not match the namespace sent on the request' },
    ],
    [
      'a question about another namespace',
      review({ user: 'bob', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } }),
      { code: 422, message: 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace' },
    ],
    [
      'a question naming no namespace (not defaulted, as kube-apiserver)',
      review({ user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } }),
      { code: 422, message: 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace' },
    ],
    [
      'a non-resource question',
      review({ user: 'bob', nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      { code: 422, message: 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/healthz","verb":"get"}: disallowed on this kind of request' },
    ],
    [
      'metadata beyond the namespace',
      review({ groups: ['devs'], resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } }, { labels: { a: 'b' } }),
      { code: 422, message: 'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: metadata: Invalid value: {"labels":{"a":"b"},"namespace":"shop"}: must be empty except for namespace' },
    ],
    [
      'a review asking nothing, of nobody',
      review({}),
      {
        code: 422,
        message:
          'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
      },
    ],
  ])('refuses %s, deciding nothing', async (_what, body, want) => {
    const requester = inShop();
    expect(await refusal(() => ask(body, requester))).toEqual(want);
    expect(requester.asked).toEqual([]);
  });

  it('needs the namespace of the path', async () => {
    const body = review({ user: 'bob', resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } });
    expect(await refusal(() => ask(body, fakeRequester({ decision: allowed })))).toEqual({ code: 400, message: 'namespace is required on this type: ' });
  });
});
