/**
 * Who is making a request, as every authenticator produces it (DESIGN.md section 4).
 *
 * @example
 *   const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'],
 *                             tenant: 'system', extra: {} };
 */
import { ALL_TENANTS } from '../api/spaces.js';

export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  /**
   * The space the identity belongs to; null when the credential names none. Such a request is
   * refused once a tenant is needed: nothing ever falls back to `system`.
   */
  tenant: string | null;
  /** Additional attributes, as Kubernetes' `user.Info.GetExtra()`. */
  extra: Record<string, string[]>;
}

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

/** The `extra` key that shows an identity's tenant (whoami, token reviews) and names it when impersonating. */
export const TENANT_EXTRA = 'kube-spaces.io/tenant';
