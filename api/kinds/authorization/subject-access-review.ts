/**
 * SubjectAccessReview (authorization.k8s.io/v1): "may this user do that?" — asked by webhooks and
 * controllers that act for others. Asked, not stored. The subject is judged in the requester's
 * space, whatever tenant its name or extra suggest: a review never looks into another space.
 * Kubernetes' cluster-scoped kind is per space here, like every kind that is not a Tenant.
 */
import { invalid } from '../../registry/api-errors.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind, type Requester } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, map, object, string } from '../../schema/schema.js';
import {
  accessReviewStatusSchema,
  decisionStatus,
  nonResourceAttributesSchema,
  resourceAttributesSchema,
  reviewAttributes,
  stringList,
  validateAttributesChoice,
  validateEmptyMetadata,
  type AccessReviewSpec,
  type AccessReviewStatus,
} from './access-attributes.js';

const G = 'io.k8s.api.authorization.v1.';

/** The question of SubjectAccessReview and LocalSubjectAccessReview: an action and who would take it. */
export interface SubjectAccessReviewSpec extends AccessReviewSpec {
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** SubjectAccessReview and LocalSubjectAccessReview have the same shape. */
export interface SubjectAccessReview extends KubeObject {
  spec?: SubjectAccessReviewSpec;
  status?: AccessReviewStatus;
}

export const subjectAccessReviewSpecSchema = define(
  `${G}SubjectAccessReviewSpec`,
  object('The action asked about (exactly one of resourceAttributes and nonResourceAttributes) and who would take it (a user, groups, or both).', {
    resourceAttributes: described(resourceAttributesSchema, 'An action on a resource.'),
    nonResourceAttributes: described(nonResourceAttributesSchema, 'An action on a non-resource path.'),
    user: string('The user name asked about. Without groups, the user is taken to belong to none.'),
    groups: stringList('The groups asked about.'),
    uid: string('The uid of the user asked about.'),
    extra: map(stringList('Values.'), 'More attributes of the user, as an authenticator would report them.'),
  }),
);

const schema = defineKindSchema(`${G}SubjectAccessReview`, { group: 'authorization.k8s.io', version: 'v1', kind: 'SubjectAccessReview' }, 'Asks whether a user or group may perform an action.', {
  spec: described(subjectAccessReviewSpecSchema, 'The action and the subject asked about.'),
  status: described(accessReviewStatusSchema, 'The answer, filled in by the server.'),
});

/** Kubernetes' ValidateSubjectAccessReviewSpec: one kind of action, and someone to ask about. */
export function validateSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec | undefined): FieldError[] {
  const errors = validateAttributesChoice(spec, 'spec');
  if (!spec?.user && (spec?.groups ?? []).length === 0) errors.push(fieldErrors.invalid('spec.user', spec?.user ?? '', 'at least one of user or group must be specified'));
  return errors;
}

/** Kubernetes' ValidateSubjectAccessReview. */
function validateSubjectAccessReview(review: SubjectAccessReview): FieldError[] {
  return [...validateSubjectAccessReviewSpec(review.spec), ...validateEmptyMetadata(review.metadata, [], 'must be empty')];
}

/** The review with the decision for its subject, in the requester's space. */
export function answerForSubject<T extends SubjectAccessReview>(review: T, requester: Requester): T {
  const spec = review.spec ?? {};
  const subject = { name: spec.user ?? '', uid: spec.uid ?? '', groups: spec.groups ?? [], extra: spec.extra ?? {} };
  return { ...review, status: decisionStatus(requester.authorizeSubject(subject, reviewAttributes(spec))) };
}

export const subjectAccessReviews = defineKind<SubjectAccessReview>({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SubjectAccessReview',
  resource: 'subjectaccessreviews',
  scope: 'space',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: (review, requester) => {
    // The store's validation does not run for kinds that are not stored: the answer checks first,
    // as kube-apiserver's SubjectAccessReview REST does (422 before any decision).
    const errors = validateSubjectAccessReview(review);
    if (errors.length > 0) throw invalid(subjectAccessReviews, '', errors);
    return answerForSubject(review, requester);
  },
});
