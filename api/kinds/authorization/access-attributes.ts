/**
 * What the access reviews share (SelfSubjectAccessReview, SubjectAccessReview,
 * LocalSubjectAccessReview): the action asked about, how it becomes the attributes the one
 * authorization decision takes, the answer's shape, and Kubernetes' checks on the question
 * (`pkg/apis/authorization/validation`).
 *
 * @example
 *   reviewAttributes({ resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'shop' } });
 *   // → { verb: 'get', group: '', resource: 'pods', subresource: undefined, namespace: 'shop', name: undefined }
 */
import type { AccessDecision } from '../../access.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { ObjectMeta } from '../../registry/object.js';
import type { ReviewAttributes } from '../../registry/resource-definition.js';
import { boolean, define, list, object, string } from '../../schema/schema.js';

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

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** The action a review asks about: exactly one of the two is set in a valid review. */
export interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
}

/** SubjectAccessReviewStatus, the answer of every access review. */
export interface AccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** A list of strings; the review kinds' schemas use it for verbs, groups and the like. */
export const stringList = (description: string) => list(string('One value.'), description);

export const resourceAttributesSchema = define(
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

export const nonResourceAttributesSchema = define(
  `${G}NonResourceAttributes`,
  object('A request on a path that is not a resource.', { path: string('The URL path.'), verb: string('The HTTP verb, lower case.') }),
);

export const accessReviewStatusSchema = define(
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

/** The attributes the authorization decision takes for the action a review asks about. */
export function reviewAttributes(spec: AccessReviewSpec | undefined): ReviewAttributes {
  const attrs = spec?.resourceAttributes;
  if (attrs) return { verb: attrs.verb ?? '', group: attrs.group ?? '', resource: attrs.resource ?? '', subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name };
  const nonResource = spec?.nonResourceAttributes;
  return { verb: nonResource?.verb ?? '', path: nonResource?.path ?? '' };
}

/** A decision as a review's status; `denied` only when it is a definite no, as Kubernetes writes it. */
export function decisionStatus(decision: AccessDecision): AccessReviewStatus {
  const status: AccessReviewStatus = { allowed: decision.allowed, reason: decision.reason };
  if (decision.denied) status.denied = true;
  return status;
}

/**
 * Exactly one of resourceAttributes and nonResourceAttributes. Kubernetes reports a missing pair
 * with the (nil) non-resource attributes as the value, which its field errors print as "null".
 */
export function validateAttributesChoice(spec: AccessReviewSpec | undefined, path: string): FieldError[] {
  const hasResource = spec?.resourceAttributes != null;
  const hasNonResource = spec?.nonResourceAttributes != null;
  if (hasResource && hasNonResource) return [fieldErrors.invalid(`${path}.nonResourceAttributes`, spec!.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes')];
  if (!hasResource && !hasNonResource) return [fieldErrors.invalid(`${path}.resourceAttributes`, 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  return [];
}

const isZero = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/**
 * A review is not an object anyone keeps, so its metadata must be empty: Kubernetes compares it
 * with a zero ObjectMeta, managedFields aside (clients send `creationTimestamp: null`, which is
 * zero). `tenant` is ours and left aside too, as are the fields named in `allowed`.
 */
export function validateEmptyMetadata(meta: ObjectMeta, allowed: ReadonlyArray<keyof ObjectMeta>, detail: string): FieldError[] {
  const ignored = new Set<string>(['managedFields', 'tenant', ...allowed]);
  const set = Object.entries(meta).some(([key, value]) => !ignored.has(key) && !isZero(value));
  return set ? [fieldErrors.invalid('metadata', meta, detail)] : [];
}
