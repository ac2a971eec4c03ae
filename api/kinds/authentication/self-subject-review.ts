/**
 * SelfSubjectReview (authentication.k8s.io v1, and v1beta1 for kubectl 1.27): "who am I?" —
 * `kubectl auth whoami`. Asked, not stored. The tenant is shown in `extra` under
 * `kube-spaces.io/tenant`, so stock kubectl prints it as an attribute.
 */
import type { KubeObject } from '../../registry/object.js';
import { defineKind, type ResourceDefinition } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, object } from '../../schema/schema.js';
import { userInfoSchema, userInfoStatus, type UserInfoStatus } from './user-info.js';

export interface SelfSubjectReview extends KubeObject {
  status?: { userInfo: UserInfoStatus };
}

function whoami(version: 'v1' | 'v1beta1'): ResourceDefinition<SelfSubjectReview> {
  const G = `io.k8s.api.authentication.${version}.`;
  const schema = defineKindSchema(`${G}SelfSubjectReview`, { group: 'authentication.k8s.io', version, kind: 'SelfSubjectReview' }, 'Tells the caller who the server takes them to be.', {
    status: described(define(`${G}SelfSubjectReviewStatus`, object('The answer.', { userInfo: described(userInfoSchema[version], 'The caller.') })), 'The answer, filled in by the server.'),
  });
  return defineKind<SelfSubjectReview>({
    group: 'authentication.k8s.io',
    version,
    kind: 'SelfSubjectReview',
    resource: 'selfsubjectreviews',
    scope: 'space',
    verbs: ['create'],
    schema,
    garbageCollectionPolicy: 'Unsupported',
    answer: (review, { user }) => ({ ...review, status: { userInfo: userInfoStatus(user) } }),
  });
}

export const selfSubjectReviews = [whoami('v1'), whoami('v1beta1')];
