import { describe, expect, it } from 'vitest';
import { fakeRequester, refusal } from '../authorization/testing.js';
import { tokenReviews, type TokenReview } from './token-review.js';

const review = (spec: TokenReview['spec']): TokenReview => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec });
const builder = { name: 'system:serviceaccount:ns1:builder', uid: '7a7b', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'], tenant: 't1', extra: {} };
const AUDIENCE = 'https://kube-spaces.local';

describe('TokenReview', () => {
  it('reports whose token it is, with the tenant as an extra attribute, and the audiences it is valid for', async () => {
    const requester = fakeRequester({ token: { user: builder, audiences: [AUDIENCE] } });
    const body = review({ token: 'eyJ.e30.sig', audiences: [AUDIENCE] });
    expect(await tokenReviews.answer!(body, requester)).toEqual({
      ...body,
      status: {
        authenticated: true,
        user: { username: builder.name, uid: '7a7b', groups: builder.groups, extra: { 'kube-spaces.io/tenant': ['t1'] } },
        audiences: [AUDIENCE],
      },
    });
    expect(requester.asked).toEqual([{ method: 'reviewToken', token: 'eyJ.e30.sig', audiences: [AUDIENCE] }]);
  });

  it('answers a token it does not accept as not authenticated, with the reason', async () => {
    const requester = fakeRequester({ token: { error: 'the token is not valid' } });
    const answered = (await tokenReviews.answer!(review({ token: 'nope' }), requester)) as TokenReview;
    expect(answered.status).toEqual({ user: {}, error: 'the token is not valid' });
    expect(requester.asked).toEqual([{ method: 'reviewToken', token: 'nope', audiences: [] }]);
  });

  it('needs a token (400, as kube-apiserver)', async () => {
    const requester = fakeRequester();
    expect(await refusal(() => tokenReviews.answer!(review({ audiences: [AUDIENCE] }), requester))).toEqual({ code: 400, message: 'token is required for TokenReview in authentication' });
    expect(await refusal(() => tokenReviews.answer!(review(undefined), requester))).toEqual({ code: 400, message: 'token is required for TokenReview in authentication' });
    expect(requester.asked).toEqual([]);
  });
});
