/**
 * Impersonation (`kubectl --as`, `--as-group`, `--as-uid`, a kubeconfig's `as-user-extra`): the
 * caller asks to act as someone else, and may if RBAC lets it `impersonate` each part asked for
 * (users, groups, service accounts, uids, user extras), as kube-apiserver's impersonation filter
 * decides. The identity acted as belongs to the caller's own tenant; only a system user may name
 * another tenant, through the extra `kube-spaces.io/tenant`.
 */
import { SYSTEM_TENANT } from '../api/spaces.js';
import { ApiError } from '../api/status.js';
import { forbidden, type Authorizer } from './authorize.js';
import type { AccessAttributes } from '../api/access.js';
import { serviceAccountGroups } from './service-account-authenticator.js';
import { parseServiceAccountUserName } from './service-account-token.js';
import { AUTHENTICATED_GROUP, isTenantName } from './user.js';
import { TENANT_EXTRA, type UserInfo } from '../api/access.js';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

interface ImpersonationAsked {
  user: string | undefined;
  groups: string[];
  uid: string | undefined;
  extra: Record<string, string[]>;
}

/** Reads the impersonation headers from Node's raw header list, where a repeated header stays repeated. */
function askedOf(rawHeaders: readonly string[]): ImpersonationAsked | undefined {
  let asked: ImpersonationAsked | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    const value = rawHeaders[i + 1]!;
    asked ??= { user: undefined, groups: [], uid: undefined, extra: {} };
    if (name === USER_HEADER) asked.user = value;
    else if (name === GROUP_HEADER) asked.groups.push(value);
    else if (name === UID_HEADER) asked.uid = value;
    else if (name.startsWith(EXTRA_PREFIX)) {
      // Extra keys travel percent-encoded in header names (`Impersonate-Extra-kube-spaces.io%2ftenant`).
      let key: string;
      try {
        key = decodeURIComponent(name.slice(EXTRA_PREFIX.length));
      } catch {
        throw new ApiError(400, 'BadRequest', `invalid impersonation extra header ${JSON.stringify(rawHeaders[i])}`);
      }
      (asked.extra[key] ??= []).push(value);
    }
  }
  return asked;
}

/** What the caller must be allowed, one check per part of the identity asked for. */
function checksOf(asked: ImpersonationAsked & { user: string }, tenant: string): AccessAttributes[] {
  const checks: AccessAttributes[] = [];
  const account = parseServiceAccountUserName(asked.user);
  if (account) {
    checks.push({ verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: account.namespace, name: account.name, tenant });
  } else {
    checks.push({ verb: 'impersonate', group: '', resource: 'users', name: asked.user, tenant });
  }
  for (const group of asked.groups) checks.push({ verb: 'impersonate', group: '', resource: 'groups', name: group, tenant });
  if (asked.uid !== undefined) checks.push({ verb: 'impersonate', group: AUTHENTICATION_GROUP, resource: 'uids', name: asked.uid, tenant });
  for (const [key, values] of Object.entries(asked.extra)) {
    if (key === TENANT_EXTRA) continue;
    for (const value of values) checks.push({ verb: 'impersonate', group: AUTHENTICATION_GROUP, resource: 'userextras', subresource: key, name: value, tenant });
  }
  return checks;
}

/** The tenant of the identity acted as: the caller's own, or for a system user the one named. */
function tenantOf(caller: UserInfo, asked: ImpersonationAsked): string {
  const named = asked.extra[TENANT_EXTRA];
  const own = caller.tenant ?? '';
  if (named === undefined) return own;
  if (named.length !== 1 || !isTenantName(named[0]!)) throw new ApiError(400, 'BadRequest', `impersonation must name exactly one valid tenant in ${TENANT_EXTRA}`);
  const tenant = named[0]!;
  if (tenant !== own && caller.tenant !== SYSTEM_TENANT) {
    throw new ApiError(403, 'Forbidden', `User "${caller.name}" cannot impersonate a user of another tenant: access is limited to the user's own tenant`);
  }
  return tenant;
}

/**
 * The identity a request acts as: the caller, or whom the impersonation headers name once every
 * part is allowed. Refusals are 403 Forbidden worded as kube-apiserver's.
 */
export function impersonate(caller: UserInfo, rawHeaders: readonly string[], authorizer: Authorizer): UserInfo {
  const asked = askedOf(rawHeaders);
  if (!asked) return caller;
  if (asked.user === undefined || asked.user === '') {
    throw new ApiError(400, 'BadRequest', 'impersonating groups, a uid or extras needs a user to impersonate (Impersonate-User)');
  }
  const tenant = tenantOf(caller, asked);
  const user = asked.user;
  // Checked in the caller's own space: that is where its RBAC lives.
  for (const check of checksOf({ ...asked, user }, caller.tenant ?? '')) {
    const decision = authorizer.authorize(caller, check);
    if (!decision.allowed) throw forbidden(caller, check, decision.reason);
  }
  const groups = [...asked.groups];
  const account = parseServiceAccountUserName(user);
  if (account) for (const g of serviceAccountGroups(account.namespace)) if (!groups.includes(g)) groups.push(g);
  if (!groups.includes(AUTHENTICATED_GROUP)) groups.push(AUTHENTICATED_GROUP);
  const { [TENANT_EXTRA]: _tenant, ...extra } = asked.extra;
  return { name: user, uid: asked.uid ?? '', groups, tenant, extra };
}
