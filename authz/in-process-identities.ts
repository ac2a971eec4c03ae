/**
 * Identities for clients inside the server process (the controllers of `serve`): each gets a
 * random bearer token that lives only in memory, so an in-process request is authenticated,
 * tenant-resolved and authorized like any other, as the identity named — no back door around RBAC.
 *
 * @example
 *   const identities = new InProcessIdentities();
 *   const token = identities.issue({ name: 'system:controller:summary', uid: '', groups: [], tenant: 'system', extra: {} });
 *   authenticationChain([bearerTokenAuthenticator(identities), …]);
 */
import { randomBytes } from 'node:crypto';
import type { TokenLookup } from './authenticate.js';
import type { UserInfo } from '../api/access.js';

export class InProcessIdentities implements TokenLookup {
  private readonly byToken = new Map<string, UserInfo>();

  /** A new token proving `user` while this process runs. */
  issue(user: UserInfo): string {
    const token = randomBytes(32).toString('base64url');
    this.byToken.set(token, structuredClone(user));
    return token;
  }

  async lookup(token: string): Promise<UserInfo | null> {
    const user = this.byToken.get(token);
    // A copy: later layers add groups to what authentication answers.
    return user === undefined ? null : structuredClone(user);
  }
}
