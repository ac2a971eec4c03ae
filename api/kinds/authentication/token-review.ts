/**
 * TokenReview (authentication.k8s.io/v1): "whose token is this?" — asked by webhooks and
 * aggregated servers that accept this server's tokens. Asked, not stored. A token is judged as
 * the server's own authentication would judge it; one of another space is not authenticated
 * unless a system user asks (see `Requester.reviewToken`). Kubernetes' cluster-scoped kind is
 * per space here.
 */
import { badRequest } from '../../registry/api-errors.js';
import type { KubeObject } from '../../registry/object.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, define, described, list, object, string } from '../../schema/schema.js';
import { userInfoSchema, userInfoStatus, type UserInfoStatus } from './user-info.js';

const G = 'io.k8s.api.authentication.v1.';

export interface TokenReview extends KubeObject {
  spec?: { token?: string; audiences?: string[] };
  status?: { authenticated?: boolean; user?: UserInfoStatus; audiences?: string[]; error?: string };
}

const audiences = (description: string) => list(string('An audience identifier.'), description, { listType: 'atomic' });

const schema = defineKindSchema(`${G}TokenReview`, { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenReview' }, 'Asks who a bearer token belongs to.', {
  spec: described(
    define(
      `${G}TokenReviewSpec`,
      object('The token asked about.', {
        token: string('The opaque bearer token.'),
        audiences: audiences('Audiences the token must be meant for, at least one of them; the API server’s own audience when empty.'),
      }),
    ),
    'The token asked about.',
  ),
  status: described(
    define(
      `${G}TokenReviewStatus`,
      object('The answer.', {
        authenticated: boolean('Whether the token belongs to a known identity.'),
        user: described(userInfoSchema.v1, 'The identity the token belongs to.'),
        audiences: audiences('The audiences, among those asked for, the token is valid for.'),
        error: string('Why the token could not be authenticated, if it could not.'),
      }),
    ),
    'The answer, filled in by the server.',
  ),
});

export const tokenReviews = defineKind<TokenReview>({
  group: 'authentication.k8s.io',
  version: 'v1',
  kind: 'TokenReview',
  resource: 'tokenreviews',
  scope: 'space',
  verbs: ['create'],
  schema,
  garbageCollectionPolicy: 'Unsupported',
  answer: async (review, requester) => {
    const token = review.spec?.token ?? '';
    // kube-apiserver's TokenReview REST answers this itself, with 400 rather than a field error.
    if (token === '') throw badRequest('token is required for TokenReview in authentication');
    const result = await requester.reviewToken(token, review.spec?.audiences ?? []);
    // As Go writes it: `authenticated` and `error` only when set, `user` always (a struct, not a pointer).
    const status: NonNullable<TokenReview['status']> =
      'user' in result ? { authenticated: true, user: userInfoStatus(result.user), audiences: [...result.audiences] } : { user: {}, error: result.error };
    return { ...review, status };
  },
});
