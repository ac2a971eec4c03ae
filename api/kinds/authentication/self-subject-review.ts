/**
 * SelfSubjectReview (authentication.k8s.io v1, and v1beta1 for kubectl 1.27): "who am I?" —
 * `kubectl auth whoami`. Asked, not stored. The tenant is shown in `extra` under
 * `kube-spaces.io/tenant`, so stock kubectl prints it as an attribute.
 */
import type { KubeObject } from '../../registry/object.js';
import { defineKind, type ResourceDefinition } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, list, map, object, string } from '../../schema/schema.js';

export const TENANT_EXTRA = 'kube-spaces.io/tenant';

export interface SelfSubjectReview extends KubeObject {
  status?: { userInfo: { username: string; uid?: string; groups: string[]; extra?: Record<string, string[]> } };
}

function whoami(version: 'v1' | 'v1beta1'): ResourceDefinition<SelfSubjectReview> {
  const G = `io.k8s.api.authentication.${version}.`;
  const userInfo = define(
    `${G}UserInfo`,
    object('An identity.', {
      username: string('The user name.'),
      uid: string('A unique, stable id of the user.'),
      groups: list(string('A group.'), 'The groups the user belongs to.'),
      extra: map(list(string('A value.'), 'Values.'), 'More attributes, such as the tenant.'),
    }),
  );
  const schema = defineKindSchema(`${G}SelfSubjectReview`, { group: 'authentication.k8s.io', version, kind: 'SelfSubjectReview' }, 'Tells the caller who the server takes them to be.', {
    status: described(define(`${G}SelfSubjectReviewStatus`, object('The answer.', { userInfo: described(userInfo, 'The caller.') })), 'The answer, filled in by the server.'),
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
    answer: (review, { user }) => {
      const extra: Record<string, string[]> = { ...user.extra };
      if (user.tenant) extra[TENANT_EXTRA] = [user.tenant];
      return { ...review, status: { userInfo: { username: user.name, uid: user.uid, groups: user.groups, extra } } };
    },
  });
}

export const authenticationKinds: ResourceDefinition[] = [whoami('v1'), whoami('v1beta1')] as ResourceDefinition[];
