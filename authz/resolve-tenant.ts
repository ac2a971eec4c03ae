/**
 * The one place that decides which space a request acts in (DESIGN.md sections 3 and 5):
 * the tenant named by the path, else the caller's own. An identity without a tenant is refused,
 * never mapped to `system`. The tenant gate comes first: only system users may name another
 * space or every space (`all`).
 */
import { ApiError } from '../api/status.js';
import type { UserInfo } from '../api/access.js';

export { ALL_TENANTS, SYSTEM_TENANT } from '../api/spaces.js';
import { ALL_TENANTS, SYSTEM_TENANT } from '../api/spaces.js';

/** Whether a Tenant of this name exists (the control plane answers from its informer). */
export type TenantExists = (name: string) => boolean;

/** What the path says of the space (`RequestInfo` in src/server/request-info.ts): undefined in the short form. */
export interface PathTenant {
  readonly tenant?: string | undefined;
}

/**
 * The tenant the request acts in: a space's name, or `all` for every space. A credential whose
 * tenant does not exist (never created, or deleted) acts nowhere, not even in discovery.
 */
export function resolveTenant(info: PathTenant, user: UserInfo, tenantExists: TenantExists): string {
  if (user.tenant === null) {
    throw new ApiError(403, 'Forbidden', `User "${user.name}" has no tenant: the credential must name the space it belongs to`);
  }
  if (user.tenant !== SYSTEM_TENANT && !tenantExists(user.tenant)) {
    throw new ApiError(403, 'Forbidden', `User "${user.name}" cannot act in tenant "${user.tenant}": the tenant does not exist`);
  }
  const asked = info.tenant;
  if (asked === undefined || asked === user.tenant) return user.tenant;
  if (user.tenant !== SYSTEM_TENANT) {
    // The same answer whether or not the space exists: a tenant user learns nothing of others.
    const what = asked === ALL_TENANTS ? 'all tenants' : `tenant "${asked}"`;
    throw new ApiError(403, 'Forbidden', `User "${user.name}" cannot access ${what}: access is limited to the user's own tenant`);
  }
  return asked;
}

