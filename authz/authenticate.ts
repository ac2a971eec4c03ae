/**
 * The authentication chain: a list of authenticators, each of which recognises one kind of
 * credential and returns the identity it proves, or null when the request carries no such
 * credential or an invalid one. The first identity wins. Client certificates come first, as in
 * kube-apiserver, then bearer tokens from the token file, then service-account tokens.
 *
 * @example
 *   const authenticate = authenticationChain([bearerTokenAuthenticator(tokenFile)]);
 *   const user = await authenticate(request); // UserInfo | null
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Socket } from 'node:net';
import { AUTHENTICATED_GROUP } from './user.js';
import type { UserInfo } from '../api/access.js';

/** What an authenticator may look at: the headers and the connection (for the TLS peer certificate). */
export interface AuthenticationRequest {
  headers: IncomingHttpHeaders;
  socket: Socket;
}

export type Authenticator = (request: AuthenticationRequest) => Promise<UserInfo | null>;

/** Anything that maps a bearer token to an identity, such as the token file. */
export interface TokenLookup {
  lookup(token: string): Promise<UserInfo | null>;
}

/** Runs the authenticators in order; the first identity wins and joins `system:authenticated`. */
export function authenticationChain(authenticators: readonly Authenticator[]): Authenticator {
  return async (request) => {
    for (const authenticate of authenticators) {
      const user = await authenticate(request);
      if (user) {
        return user.groups.includes(AUTHENTICATED_GROUP) ? user : { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
      }
    }
    return null;
  };
}

/** `Authorization: Bearer <token>` (scheme case-insensitive, as Kubernetes accepts it). */
export function bearerTokenAuthenticator(tokens: TokenLookup): Authenticator {
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    return token === null ? null : tokens.lookup(token);
  };
}

/** The token of an `Authorization: Bearer` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^bearer\s+(\S+)\s*$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** Authenticates a bare bearer token (a TokenReview), as if a request had presented it. */
export type TokenAuthenticator = (token: string) => Promise<UserInfo | null>;

/** Runs bearer-token authenticators on a token alone: no connection, so no client certificate. */
export function tokenAuthenticator(authenticate: Authenticator): TokenAuthenticator {
  return (token) => authenticate({ headers: { authorization: `Bearer ${token}` }, socket: new Socket() });
}
