/**
 * SelfSubjectAccessReview (authorization.k8s.io/v1): "may I?" — `kubectl auth can-i`. Asked, not
 * stored: the answer comes from the same decision real requests get, in the caller's space.
 */
import { invalid } from '../../registry/api-errors.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, object } from '../../schema/schema.js';
import {
  accessReviewStatusSchema,
  decisionStatus,
  nonResourceAttributesSchema,
  resourceAttributesSchema,
  reviewAttributes,
  validateAttributesChoice,
  validateEmptyMetadata,
  type AccessReviewSpec,
  type AccessReviewStatus,
} from './access-attributes.js';

const G = 'io.k8s.api.authorization.v1.';

export interface SelfSubjectAccessReview extends KubeObject {
  spec?: AccessReviewSpec;
  status?: AccessReviewStatus;
}

const spec = define(
  `${G}SelfSubjectAccessReviewSpec`,
  object('The action asked about: exactly one of resourceAttributes and nonResourceAttributes.', {
    resourceAttributes: described(resourceAttributesSchema, 'An action on a resource.'),
    nonResourceAttributes: described(nonResourceAttributesSchema, 'An action on a non-resource path.'),
  }),
);

const schema = defineKindSchema(`${G}SelfSubjectAccessReview`, { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' }, 'Asks whether the caller may perform an action.', {
  spec: described(spec, 'The action asked about.'),
  status: described(accessReviewStatusSchema, 'The answer, filled in by the server.'),
});

export const selfSubjectAccessReviews = defineKind<SelfSubjectAccessReview>({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectAccessReview',
  resource: 'selfsubjectaccessreviews',
  scope: 'space',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: (review, requester) => {
    // As SubjectAccessReview: checked here, since the store's validation does not run for kinds that are not stored.
    const errors = [...validateAttributesChoice(review.spec, 'spec'), ...validateEmptyMetadata(review.metadata, [], 'must be empty')];
    if (errors.length > 0) throw invalid(selfSubjectAccessReviews, '', errors);
    return { ...review, status: decisionStatus(requester.authorize(reviewAttributes(review.spec))) };
  },
});
