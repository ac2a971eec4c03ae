/**
 * authentication.k8s.io's UserInfo: an identity as SelfSubjectReview and TokenReview report it,
 * its tenant shown in `extra` under `kube-spaces.io/tenant` so stock clients print it.
 *
 * @example
 *   userInfoStatus({ name: 'alice', uid: '', groups: ['devs'], tenant: 't1', extra: {} });
 *   // → { username: 'alice', groups: ['devs'], extra: { 'kube-spaces.io/tenant': ['t1'] } }
 */
import { TENANT_EXTRA, type UserInfo } from '../../access.js';
import { define, list, map, object, string, type Schema } from '../../schema/schema.js';

/** UserInfo as the reviews write it. */
export interface UserInfoStatus {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

function defineUserInfo(version: 'v1' | 'v1beta1'): Schema {
  return define(
    `io.k8s.api.authentication.${version}.UserInfo`,
    object('An identity.', {
      username: string('The user name.'),
      uid: string('A unique, stable id of the user.'),
      groups: list(string('A group.'), 'The groups the user belongs to.'),
      extra: map(list(string('A value.'), 'Values.'), 'More attributes, such as the tenant.'),
    }),
  );
}

/** The UserInfo schema of each served version, defined once. */
export const userInfoSchema: Readonly<Record<'v1' | 'v1beta1', Schema>> = { v1: defineUserInfo('v1'), v1beta1: defineUserInfo('v1beta1') };

/** An identity as a review reports it. Empty fields are left out, as Go's omitempty leaves them. */
export function userInfoStatus(user: UserInfo): UserInfoStatus {
  const extra: Record<string, string[]> = { ...user.extra };
  if (user.tenant) extra[TENANT_EXTRA] = [user.tenant];
  const info: UserInfoStatus = { username: user.name };
  if (user.uid) info.uid = user.uid;
  if (user.groups.length > 0) info.groups = [...user.groups];
  if (Object.keys(extra).length > 0) info.extra = extra;
  return info;
}
