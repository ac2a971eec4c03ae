/**
 * SelfSubjectAccessReview (authorization.k8s.io/v1): "may I?" — `kubectl auth can-i`. Asked, not
 * stored: the answer comes from the same decision real requests get, in the caller's space.
 */
import type { KubeObject } from '../../registry/object.js';
import { defineKind } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { boolean, define, described, list, object, string } from '../../schema/schema.js';

const G = 'io.k8s.api.authorization.v1.';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface SelfSubjectAccessReview extends KubeObject {
  spec?: { resourceAttributes?: ResourceAttributes; nonResourceAttributes?: { path?: string; verb?: string } };
  status?: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

const resourceAttributes = define(
  `${G}ResourceAttributes`,
  object('A request on a resource.', {
    namespace: string('The namespace; empty for cluster-wide requests and for every namespace.'),
    verb: string('get, list, watch, create, update, patch, delete, deletecollection or a custom verb; * for all.'),
    group: string('The API group; * for all.'),
    version: string('The API version; * for all.'),
    resource: string('The resource; * for all.'),
    subresource: string('The subresource, if any.'),
    name: string('The object name; empty for every object.'),
  }),
);

const nonResourceAttributes = define(
  `${G}NonResourceAttributes`,
  object('A request on a path that is not a resource.', { path: string('The URL path.'), verb: string('The HTTP verb, lower case.') }),
);

export const subjectAccessReviewStatus = define(
  `${G}SubjectAccessReviewStatus`,
  object(
    'The answer.',
    {
      allowed: boolean('Whether the action is allowed.'),
      denied: boolean('Whether the action is explicitly denied.'),
      reason: string('Why.'),
      evaluationError: string('What went wrong while deciding, if anything.'),
    },
    { required: ['allowed'] },
  ),
);

const spec = define(
  `${G}SelfSubjectAccessReviewSpec`,
  object('The action asked about: exactly one of resourceAttributes and nonResourceAttributes.', {
    resourceAttributes: described(resourceAttributes, 'An action on a resource.'),
    nonResourceAttributes: described(nonResourceAttributes, 'An action on a non-resource path.'),
  }),
);

const schema = defineKindSchema(`${G}SelfSubjectAccessReview`, { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' }, 'Asks whether the caller may perform an action.', {
  spec: described(spec, 'The action asked about.'),
  status: described(subjectAccessReviewStatus, 'The answer, filled in by the server.'),
});

// Referenced by SelfSubjectRulesReview's schema too.
export const stringList = (description: string) => list(string('One value.'), description);

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
    const attrs = review.spec?.resourceAttributes;
    const nonResource = review.spec?.nonResourceAttributes;
    const decision = attrs
      ? requester.authorize({ verb: attrs.verb ?? '', group: attrs.group ?? '', resource: attrs.resource ?? '', subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name })
      : requester.authorize({ verb: nonResource?.verb ?? '', path: nonResource?.path ?? '' });
    const status: NonNullable<SelfSubjectAccessReview['status']> = { allowed: decision.allowed, reason: decision.reason };
    if (decision.denied) status.denied = true;
    return { ...review, status };
  },
});
