/**
 * SelfSubjectRulesReview (authorization.k8s.io/v1): "what may I do in this namespace?" —
 * `kubectl auth can-i --list`. Asked, not stored. Without RBAC the caller's own space is
 * theirs entirely, which is what the rules say.
 */
import type { KubeObject } from '../../registry/object.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, define, described, list, object, string } from '../../schema/schema.js';
import { stringList } from './self-subject-access-review.js';

const G = 'io.k8s.api.authorization.v1.';

export interface SelfSubjectRulesReview extends KubeObject {
  spec?: { namespace?: string };
  status?: {
    resourceRules: Array<{ verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }>;
    nonResourceRules: Array<{ verbs: string[]; nonResourceURLs?: string[] }>;
    incomplete: boolean;
    evaluationError?: string;
  };
}

const resourceRule = define(
  `${G}ResourceRule`,
  object('Actions allowed on resources.', {
    verbs: stringList('Allowed verbs; * for all.'),
    apiGroups: stringList('API groups; * for all.'),
    resources: stringList('Resources; * for all.'),
    resourceNames: stringList('Object names; empty for all.'),
  }),
);

const nonResourceRule = define(
  `${G}NonResourceRule`,
  object('Actions allowed on non-resource paths.', { verbs: stringList('Allowed verbs; * for all.'), nonResourceURLs: stringList('Paths; a trailing * matches a prefix.') }),
);

const status = define(
  `${G}SubjectRulesReviewStatus`,
  object('The rules that apply.', {
    resourceRules: list(resourceRule, 'Rules on resources.'),
    nonResourceRules: list(nonResourceRule, 'Rules on non-resource paths.'),
    incomplete: boolean('Whether some rules could not be evaluated.'),
    evaluationError: string('What went wrong while evaluating, if anything.'),
  }),
);

const schema = defineKindSchema(`${G}SelfSubjectRulesReview`, { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' }, 'Lists what the caller may do in a namespace.', {
  spec: described(define(`${G}SelfSubjectRulesReviewSpec`, object('The namespace asked about.', { namespace: string('The namespace.') })), 'The namespace asked about.'),
  status: described(status, 'The rules, filled in by the server.'),
});

export const selfSubjectRulesReviews = defineKind<SelfSubjectRulesReview>({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  scope: 'space',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: (review, requester) => {
    const inSpace = requester.authorize({ verb: '*', group: '*', resource: '*', namespace: review.spec?.namespace });
    return {
      ...review,
      status: {
        resourceRules: inSpace.allowed ? [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] : [],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    };
  },
});
