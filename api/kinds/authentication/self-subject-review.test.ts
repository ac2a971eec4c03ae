import { describe, expect, it } from 'vitest';
import { fakeRequester } from '../authorization/testing.js';
import { selfSubjectReviews, type SelfSubjectReview } from './self-subject-review.js';
import { userInfoStatus } from './user-info.js';

describe('SelfSubjectReview', () => {
  it.each(selfSubjectReviews.map((def) => [def.apiVersion, def] as const))('%s tells the requester who it is, tenant included', async (apiVersion, def) => {
    const requester = fakeRequester({ user: { name: 'alice', uid: 'u-1', groups: ['devs'], tenant: 't1', extra: { 'scopes.example.com': ['read'] } } });
    const answered = (await def.answer!({ apiVersion, kind: 'SelfSubjectReview', metadata: {} }, requester)) as SelfSubjectReview;
    expect(answered.status).toEqual({ userInfo: { username: 'alice', uid: 'u-1', groups: ['devs'], extra: { 'scopes.example.com': ['read'], 'kube-spaces.io/tenant': ['t1'] } } });
    expect(requester.asked).toEqual([]);
  });
});

describe('userInfoStatus', () => {
  it('leaves out what is empty, as Go does', () => {
    expect(userInfoStatus({ name: 'system:anonymous', uid: '', groups: [], tenant: null, extra: {} })).toEqual({ username: 'system:anonymous' });
    expect(Object.keys(userInfoStatus({ name: 'a', uid: '', groups: [], tenant: null, extra: {} }))).toEqual(['username']);
  });
});
