/** authorization.k8s.io kinds: reviews that are asked, not stored. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { selfSubjectAccessReviews } from './self-subject-access-review.js';
import { selfSubjectRulesReviews } from './self-subject-rules-review.js';

export const authorizationKinds: ResourceDefinition[] = [selfSubjectAccessReviews, selfSubjectRulesReviews];
