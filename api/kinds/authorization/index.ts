/** authorization.k8s.io kinds: reviews that are asked, not stored. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { localSubjectAccessReviews } from './local-subject-access-review.js';
import { selfSubjectAccessReviews } from './self-subject-access-review.js';
import { selfSubjectRulesReviews } from './self-subject-rules-review.js';
import { subjectAccessReviews } from './subject-access-review.js';

export const authorizationKinds: ResourceDefinition[] = [selfSubjectAccessReviews, selfSubjectRulesReviews, subjectAccessReviews, localSubjectAccessReviews];
