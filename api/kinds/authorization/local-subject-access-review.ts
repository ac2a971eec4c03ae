/**
 * LocalSubjectAccessReview (authorization.k8s.io/v1): SubjectAccessReview limited to one
 * namespace, so that the right to ask can be granted per namespace. Asked, not stored.
 *
 * As kube-apiserver: the body's `metadata.namespace` is the path's (filled in when missing, 400
 * when another), `spec.resourceAttributes.namespace` must equal it (422, never defaulted), and
 * non-resource questions are refused (422).
 */
import { badRequest, invalid } from '../../registry/api-errors.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { described } from '../../schema/schema.js';
import { accessReviewStatusSchema, validateEmptyMetadata } from './access-attributes.js';
import { answerForSubject, subjectAccessReviewSpecSchema, validateSubjectAccessReviewSpec, type SubjectAccessReview } from './subject-access-review.js';

export type LocalSubjectAccessReview = SubjectAccessReview;

const schema = defineKindSchema(
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview',
  { group: 'authorization.k8s.io', version: 'v1', kind: 'LocalSubjectAccessReview' },
  'Asks whether a user or group may perform an action in one namespace.',
  {
    spec: described(subjectAccessReviewSpecSchema, 'The action and the subject asked about; resourceAttributes.namespace must be the namespace of the request.'),
    status: described(accessReviewStatusSchema, 'The answer, filled in by the server.'),
  },
);

/** Kubernetes' ValidateLocalSubjectAccessReview, on a review whose metadata.namespace is the path's. */
function validateLocalSubjectAccessReview(review: LocalSubjectAccessReview): FieldError[] {
  const errors = [...validateSubjectAccessReviewSpec(review.spec), ...validateEmptyMetadata(review.metadata, ['namespace'], 'must be empty except for namespace')];
  const attrs = review.spec?.resourceAttributes;
  if (attrs && (attrs.namespace ?? '') !== (review.metadata.namespace ?? '')) {
    errors.push(fieldErrors.invalid('spec.resourceAttributes.namespace', attrs.namespace ?? '', 'must match metadata.namespace'));
  }
  const nonResource = review.spec?.nonResourceAttributes;
  if (nonResource) errors.push(fieldErrors.invalid('spec.nonResourceAttributes', nonResource, 'disallowed on this kind of request'));
  return errors;
}

export const localSubjectAccessReviews = defineKind<LocalSubjectAccessReview>({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'LocalSubjectAccessReview',
  resource: 'localsubjectaccessreviews',
  scope: 'namespace',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: (review, requester) => {
    const namespace = requester.namespace;
    if (!namespace) throw badRequest('namespace is required on this type: ');
    // What kube-apiserver's create handler does for every namespaced body, before the review's own checks.
    const meta = review.metadata;
    if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const bound: LocalSubjectAccessReview = { ...review, metadata: { ...meta, namespace } };
    const errors = validateLocalSubjectAccessReview(bound);
    if (errors.length > 0) throw invalid(localSubjectAccessReviews, '', errors);
    return answerForSubject(bound, requester);
  },
});
