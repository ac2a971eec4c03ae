/** authentication.k8s.io kinds: reviews that are asked, not stored. */
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { selfSubjectReviews } from './self-subject-review.js';
import { tokenReviews } from './token-review.js';

export const authenticationKinds: ResourceDefinition[] = [...selfSubjectReviews, tokenReviews];
