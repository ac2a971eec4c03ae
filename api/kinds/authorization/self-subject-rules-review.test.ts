import { describe, expect, it } from 'vitest';
import { selfSubjectRulesReviews, splitRules, type SelfSubjectRulesReview } from './self-subject-rules-review.js';
import { fakeRequester, refusal } from './testing.js';

const review = (namespace?: string): SelfSubjectRulesReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectRulesReview',
  metadata: {},
  spec: namespace === undefined ? {} : { namespace },
});

describe('SelfSubjectRulesReview', () => {
  it("reports the requester's rules in the namespace asked about, split by kind", () => {
    const requester = fakeRequester({
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] },
        { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] },
      ],
    });
    const answered = selfSubjectRulesReviews.answer!(review('shop'), requester) as SelfSubjectRulesReview;
    expect(answered.status).toEqual({
      resourceRules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] },
        { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/api/*'] }],
      incomplete: false,
    });
    expect(requester.asked).toEqual([{ method: 'rulesFor', namespace: 'shop' }]);
  });

  it('answers empty lists for a requester without rules', () => {
    const answered = selfSubjectRulesReviews.answer!(review('shop'), fakeRequester({ rules: [] })) as SelfSubjectRulesReview;
    expect(answered.status).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('needs a namespace (400, as kube-apiserver)', async () => {
    expect(await refusal(() => selfSubjectRulesReviews.answer!(review(), fakeRequester({ rules: [] })))).toEqual({ code: 400, message: 'no namespace on request' });
    expect(await refusal(() => selfSubjectRulesReviews.answer!(review(''), fakeRequester({ rules: [] })))).toEqual({ code: 400, message: 'no namespace on request' });
  });
});

describe('splitRules', () => {
  it('counts a rule naming both resources and URLs as both, and one naming neither as none', () => {
    expect(splitRules([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'] }, { verbs: ['get'], apiGroups: ['apps'] }, { verbs: ['get'], nonResourceURLs: [] }])).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    });
  });
});
