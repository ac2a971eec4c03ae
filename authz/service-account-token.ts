/**
 * Service-account tokens: JWTs signed (ES256) with the key in the data directory. Besides the
 * standard claims (`iss`, `sub`, `aud`, `iat`, `nbf`, `exp`) each carries Kubernetes'
 * `kubernetes.io` claim, which names the namespace and the service account (name and uid), plus
 * our `kubernetes.io.tenant`: the space the account lives in. Verifying checks the signature, the
 * algorithm, the issuer, the expiry and the audience; that the account still exists is the
 * authenticator's business (`service-account-authenticator.ts`).
 *
 * @example
 *   const tokens = new ServiceAccountTokens(pemKey);
 *   const { token } = tokens.issue({ tenant: 't1', namespace: 'ns1', name: 'default', uid }, { expirationSeconds: 3600 });
 *   tokens.verify(token); // { tenant: 't1', namespace: 'ns1', name: 'default', uid }
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** The issuer, and the audience the API server itself answers to (Kubernetes defaults `--api-audiences` to the issuer). */
export const SERVICE_ACCOUNT_ISSUER = 'https://kube-spaces.local';
const ALGORITHM = 'ES256';

/** The service account a token speaks for, its space included. */
export interface ServiceAccountRef {
  tenant: string;
  namespace: string;
  name: string;
  uid: string;
}

export interface IssueOptions {
  /** Default: the API server's own audience. */
  audiences?: readonly string[];
  expirationSeconds: number;
  now?: Date;
}

export interface IssuedToken {
  token: string;
  expirationTimestamp: Date;
}

/** The claims we put in a token and read back. */
interface ServiceAccountClaims {
  iss: string;
  sub: string;
  aud: string[];
  iat: number;
  nbf: number;
  exp: number;
  'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string }; tenant: string };
}

/** `system:serviceaccount:<namespace>:<name>`, the user name (and `sub`) of a service account. */
export function serviceAccountUserName(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';

/** The namespace and name of a service account's user name; undefined for any other user. */
export function parseServiceAccountUserName(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const [namespace = '', name = '', ...rest] = user.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  return namespace && name && rest.length === 0 ? { namespace, name } : undefined;
}

export class ServiceAccountTokens {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  /** `pem`: the ECDSA P-256 private key (PKCS#8). */
  constructor(pem: string) {
    this.privateKey = createPrivateKey(pem);
    this.publicKey = createPublicKey(this.privateKey);
  }

  issue(account: ServiceAccountRef, options: IssueOptions): IssuedToken {
    const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const exp = iat + options.expirationSeconds;
    const claims: ServiceAccountClaims = {
      iss: SERVICE_ACCOUNT_ISSUER,
      sub: serviceAccountUserName(account.namespace, account.name),
      aud: [...(options.audiences ?? [SERVICE_ACCOUNT_ISSUER])],
      iat,
      nbf: iat,
      exp,
      'kubernetes.io': { namespace: account.namespace, serviceaccount: { name: account.name, uid: account.uid }, tenant: account.tenant },
    };
    return { token: jwt.sign(claims, this.privateKey, { algorithm: ALGORITHM }), expirationTimestamp: new Date(exp * 1000) };
  }

  /** Whether the token claims to be one of ours: the cheap test before a verification worth logging. */
  static isOurs(token: string): boolean {
    const payload = jwt.decode(token, { json: true });
    return payload?.iss === SERVICE_ACCOUNT_ISSUER;
  }

  /**
   * The account a valid token speaks for, for `audience` (default: the API server's own).
   * Throws (jsonwebtoken's errors, or an Error for a malformed claim) on any invalid token.
   */
  verify(token: string, options: { audience?: string; now?: Date } = {}): ServiceAccountRef {
    const payload = jwt.verify(token, this.publicKey, {
      // Only our algorithm: `alg: none` and HMAC-with-the-public-key tricks are refused here.
      algorithms: [ALGORITHM],
      issuer: SERVICE_ACCOUNT_ISSUER,
      audience: options.audience ?? SERVICE_ACCOUNT_ISSUER,
      clockTimestamp: options.now ? Math.floor(options.now.getTime() / 1000) : undefined,
    });
    return accountOf(payload);
  }
}

function accountOf(payload: string | jwt.JwtPayload): ServiceAccountRef {
  if (typeof payload === 'string') throw new Error('the token has no claims');
  // jsonwebtoken accepts a token without `exp`; ours always have one, so its absence is forgery or a bug.
  if (typeof payload.exp !== 'number') throw new Error('the token has no expiry');
  const k8s = payload['kubernetes.io'] as Partial<ServiceAccountClaims['kubernetes.io']> | undefined;
  const { namespace, tenant } = k8s ?? {};
  const { name, uid } = k8s?.serviceaccount ?? {};
  if (typeof namespace !== 'string' || typeof tenant !== 'string' || typeof name !== 'string' || typeof uid !== 'string') {
    throw new Error('the token has no complete kubernetes.io claim');
  }
  if (payload.sub !== serviceAccountUserName(namespace, name)) throw new Error('the token subject does not match its service account');
  return { tenant, namespace, name, uid };
}
