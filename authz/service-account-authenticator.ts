/**
 * Authenticates service-account tokens (`Authorization: Bearer <JWT>`): the token must verify
 * (signature, issuer, expiry, the API server's audience), and the service account it names must
 * still exist in that tenant and namespace with the same uid, so the tokens of a deleted (or
 * deleted and recreated) account stop working. The identity carries the account's tenant, which
 * the tenant gate then confines to its own space.
 *
 * @example
 *   const authenticate = authenticationChain([
 *     bearerTokenAuthenticator(tokenFile),
 *     serviceAccountAuthenticator({ tokens, lookup: storeServiceAccountLookup(generic, registry), log }),
 *   ]);
 */
import type { GenericStore } from '../api/registry/generic-store.js';
import type { KubeObject } from '../api/registry/object.js';
import type { ResourceRegistry } from '../api/registry/registry.js';
import { ApiError } from '../api/status.js';
import { bearerTokenAuthenticator, type Authenticator } from './authenticate.js';
import { serviceAccountUserName, ServiceAccountTokens, type ServiceAccountRef } from './service-account-token.js';
import type { UserInfo } from '../api/access.js';

/**
 * Reads the live service account a token names; undefined when it does not exist. The uid the
 * token carries lets a cache answer when it holds that very account.
 */
export type ServiceAccountLookup = (account: ServiceAccountRef) => Promise<KubeObject | undefined>;

export interface ServiceAccountAuthenticatorDeps {
  tokens: ServiceAccountTokens;
  lookup: ServiceAccountLookup;
  log: { info(obj: object, msg: string): void };
}

export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** The groups Kubernetes gives every service account: all accounts, and all accounts of its namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${namespace}`];
}

/** Service accounts read through the generic store, in the token's own tenant. */
export function storeServiceAccountLookup(generic: GenericStore, registry: ResourceRegistry): ServiceAccountLookup {
  const def = registry.lookup('', 'v1', 'serviceaccounts');
  if (!def) throw new Error('built-in kind serviceaccounts is missing');
  return async ({ tenant, namespace, name }) => {
    try {
      return await generic.get(def, { tenant, namespace, name });
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
}

/**
 * A lookup that answers from a cache of service accounts (the control plane's informer) when it
 * holds the account with the token's uid, and reads storage otherwise: a token's first use right
 * after its account was recreated must not be refused for a cache a moment behind. Tokens are
 * checked on every request, so the common case costs no storage read.
 */
export function cachedServiceAccountLookup(cached: (key: { tenant: string; namespace: string; name: string }) => KubeObject | undefined, fallback: ServiceAccountLookup): ServiceAccountLookup {
  return async (account) => {
    const hit = cached({ tenant: account.tenant, namespace: account.namespace, name: account.name });
    return hit?.metadata.uid === account.uid ? hit : fallback(account);
  };
}

export function serviceAccountAuthenticator(deps: ServiceAccountAuthenticatorDeps): Authenticator {
  return bearerTokenAuthenticator({ lookup: (token) => authenticateToken(deps, token) });
}

async function authenticateToken(deps: ServiceAccountAuthenticatorDeps, token: string): Promise<UserInfo | null> {
  // Token-file tokens and strangers' JWTs are not ours to judge (or to log).
  if (!ServiceAccountTokens.isOurs(token)) return null;
  let account: ServiceAccountRef;
  try {
    account = deps.tokens.verify(token);
  } catch (err) {
    deps.log.info({ reason: (err as Error).message }, 'refused a service-account token');
    return null;
  }
  const live = await deps.lookup(account);
  if (live?.metadata.uid !== account.uid) {
    deps.log.info({ tenant: account.tenant, namespace: account.namespace, serviceAccount: account.name }, 'refused a token of a service account that no longer exists');
    return null;
  }
  return {
    name: serviceAccountUserName(account.namespace, account.name),
    uid: account.uid,
    groups: serviceAccountGroups(account.namespace),
    tenant: account.tenant,
    extra: {},
  };
}
