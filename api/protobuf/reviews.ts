/**
 * The review bodies kubectl 1.32+ sends in protobuf: `auth can-i` (SelfSubjectAccessReview),
 * `auth can-i --list` (SelfSubjectRulesReview) and `auth whoami` (SelfSubjectReview), decoded into
 * their JSON form for the review endpoints. A body of another kind is a ProtobufError.
 *
 * @example
 *   const review = decodeSelfSubjectAccessReview(request.body);
 *   review.spec.resourceAttributes?.verb; // 'get'
 */
import { decodeObject, type TypedObject } from './codec.js';
import { ProtobufError } from './protobuf-error.js';

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

export interface SelfSubjectAccessReview extends TypedObject {
  spec: { resourceAttributes?: ResourceAttributes; nonResourceAttributes?: NonResourceAttributes };
}

export interface SelfSubjectRulesReview extends TypedObject {
  spec: { namespace?: string };
}

export type SelfSubjectReview = TypedObject;

function decodeReview(body: Uint8Array, kind: string, apiVersions: readonly string[]): TypedObject {
  const review = decodeObject(body);
  if (review.kind !== kind || !apiVersions.includes(review.apiVersion)) {
    throw new ProtobufError(`expected a ${kind} (${apiVersions.join(' or ')}), got ${review.kind} in ${review.apiVersion}`);
  }
  return review;
}

export function decodeSelfSubjectAccessReview(body: Uint8Array): SelfSubjectAccessReview {
  const review = decodeReview(body, 'SelfSubjectAccessReview', ['authorization.k8s.io/v1']);
  return { ...review, spec: (review['spec'] ?? {}) as SelfSubjectAccessReview['spec'] };
}

export function decodeSelfSubjectRulesReview(body: Uint8Array): SelfSubjectRulesReview {
  const review = decodeReview(body, 'SelfSubjectRulesReview', ['authorization.k8s.io/v1']);
  return { ...review, spec: (review['spec'] ?? {}) as SelfSubjectRulesReview['spec'] };
}

/** `auth whoami` asks v1 since kubectl 1.28, v1beta1 before. */
export function decodeSelfSubjectReview(body: Uint8Array): SelfSubjectReview {
  return decodeReview(body, 'SelfSubjectReview', ['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1']);
}
