/**
 * Identities: tenant names a credential may carry, the anonymous user, the authenticated group.
 * `UserInfo` itself is in `api/access.ts`, below the registry that carries it.
 */
import { ALL_TENANTS } from '../api/spaces.js';
import type { UserInfo } from '../api/access.js';

/** Added to every authenticated identity, as Kubernetes does. */
export const AUTHENTICATED_GROUP = 'system:authenticated';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Whether a credential (token row, client certificate) may name this tenant: a DNS label, and
 * never `all`, the path word for every space.
 */
export function isTenantName(name: string): boolean {
  return DNS_LABEL.test(name) && name !== ALL_TENANTS;
}

/** The identity of a request that presented no valid credential on a path open to everyone. */
export function anonymousUser(): UserInfo {
  return { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], tenant: null, extra: {} };
}
