/**
 * Who asks and what is decided: the identity every authenticator produces (DESIGN.md section 4),
 * the attributes of a request as authorization sees them, and its decision. `authz/` produces
 * and decides them; the registry and the review kinds only carry them, so they live here, below
 * both.
 *
 * @example
 *   const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'],
 *                             tenant: 'system', extra: {} };
 */

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
  /**
   * The uid of the Tenant the credential was issued for (a client certificate's extension, the
   * token file's sixth column): such a credential works only while that incarnation of its tenant
   * lives, never for a tenant deleted and created again under the same name.
   */
  tenantUid?: string;
}

/** The `extra` key that shows an identity's tenant (whoami, token reviews) and names it when impersonating. */
export const TENANT_EXTRA = 'kube-spaces.io/tenant';

export interface AccessAttributes {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** For non-resource requests (`/healthz`, `/api`); undefined for resource requests. */
  path?: string;
  /** The space acted in (`all` for every space). */
  tenant: string;
}

export interface AccessDecision {
  allowed: boolean;
  /** Set when the answer is a definite no (not merely "no rule allows it"). */
  denied?: boolean;
  reason: string;
}
