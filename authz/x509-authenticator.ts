/**
 * Authenticates TLS client certificates signed by the client CA (DESIGN.md section 4):
 * `CN` = user, `O=tenant:<t>` = tenant, `OU` = groups. The HTTPS server asks for a certificate but
 * accepts the handshake without one (token users need no certificate), so Node judges nothing:
 * this module checks the issuer, the signature, the clientAuth usage and the validity dates itself.
 * A certificate without exactly one tenant, like any certificate that fails a check, proves no
 * identity; the refusal is logged, and the request ends 401 unless another credential proves one.
 *
 * @example
 *   const authenticate = authenticationChain([x509Authenticator({ clientCa: pem, log }), bearerTokenAuthenticator(tokens)]);
 */
// @peculiar/x509 resolves its ASN.1 codecs through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { X509Certificate } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import * as x509 from '@peculiar/x509';
import type { Authenticator } from './authenticate.js';
import { isTenantName } from './user.js';
import type { UserInfo } from '../api/access.js';

/** The subject prefix that names a client certificate's tenant: `O=tenant:t1`. */
export const TENANT_ORGANIZATION_PREFIX = 'tenant:';

/**
 * The subject alternative name (a URI) that binds a client certificate to one incarnation of its
 * tenant: `urn:kube-spaces:tenant-uid:<uid>`.
 */
export const TENANT_UID_URI_PREFIX = 'urn:kube-spaces:tenant-uid:';

/** The tenant uid a certificate's SAN names; null when it names none, undefined when it names several. */
function tenantUidOf(cert: X509Certificate): string | null | undefined {
  const uids = (cert.subjectAltName ?? '')
    .split(', ')
    .filter((name) => name.startsWith(`URI:${TENANT_UID_URI_PREFIX}`))
    .map((name) => name.slice(`URI:${TENANT_UID_URI_PREFIX}`.length));
  return uids.length === 0 ? null : uids.length === 1 ? uids[0] : undefined;
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

export interface X509AuthenticatorDeps {
  /** PEM of the client CAs (one or a bundle, `--client-ca-file`), the only issuers trusted. */
  clientCa: string;
  /** Whether the certificate of this serial (hex) was revoked; asked on every request, as the denylist changes live. */
  isRevoked?(serialNumber: string): Promise<boolean>;
  log: { warn(obj: object, msg: string): void };
}

/** What a certificate proves apart from time: the identity and the window it is valid in. */
type CertificateVerdict =
  | { ok: true; user: UserInfo; serialNumber: string; validFrom: number; validTo: number }
  | { ok: false; reason: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every PEM certificate in `text`, in order. */
export function splitPemCertificates(text: string): string[] {
  return (text.match(PEM_CERTIFICATE) ?? []).map((pem) => `${pem}\n`);
}

export function x509Authenticator(deps: X509AuthenticatorDeps): Authenticator {
  const cas = splitPemCertificates(deps.clientCa).map((pem) => new X509Certificate(pem));
  if (cas.length === 0) throw new Error('no client CA certificate given');
  // A connection's peer certificate never changes, so its signature is checked and its subject
  // parsed once per connection; only the dates are checked per request, as a kept-alive
  // connection may outlive its certificate.
  const verdicts = new WeakMap<TLSSocket, CertificateVerdict | null>();
  return async ({ socket }) => {
    if (!(socket instanceof TLSSocket)) return null;
    let verdict = verdicts.get(socket);
    if (verdict === undefined) {
      const peer = socket.getPeerX509Certificate();
      verdict = peer ? verifyClientCertificate(peer, cas) : null;
      verdicts.set(socket, verdict);
      if (verdict?.ok === false) deps.log.warn({ subject: peer?.subject, reason: verdict.reason }, 'client certificate refused');
    }
    if (verdict === null || !verdict.ok) return null;
    const now = Date.now();
    if (now < verdict.validFrom || now > verdict.validTo) {
      deps.log.warn({ user: verdict.user.name, tenant: verdict.user.tenant, validTo: new Date(verdict.validTo).toISOString() }, 'client certificate refused: expired or not yet valid');
      return null;
    }
    if (await deps.isRevoked?.(verdict.serialNumber)) {
      deps.log.warn({ user: verdict.user.name, tenant: verdict.user.tenant, serialNumber: verdict.serialNumber }, 'client certificate refused: revoked');
      return null;
    }
    // A copy: the cached identity outlives this request and must not change with it.
    return { ...verdict.user, groups: [...verdict.user.groups], extra: {} };
  };
}

/**
 * Checks `cert` against the client CA and reads the identity from its subject; dates are left to
 * the caller, who knows the time of each request.
 */
function verifyClientCertificate(cert: X509Certificate, cas: readonly X509Certificate[]): CertificateVerdict {
  if (!cas.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey))) return { ok: false, reason: 'not signed by the client CA' };
  if (cert.ca) return { ok: false, reason: 'a CA certificate is no client certificate' };
  const usages = cert.keyUsage;
  if (usages !== undefined && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_EXTENDED_KEY_USAGE)) {
    return { ok: false, reason: 'not for client authentication (extended key usage)' };
  }
  const subject = new x509.X509Certificate(cert.raw).subjectName;
  const [name, ...moreNames] = subject.getField('CN');
  if (name === undefined || name === '' || moreNames.length > 0) return { ok: false, reason: 'no single common name (user)' };
  const organizations = subject.getField('O');
  const tenants = organizations.filter((o) => o.startsWith(TENANT_ORGANIZATION_PREFIX)).map((o) => o.slice(TENANT_ORGANIZATION_PREFIX.length));
  if (tenants.length !== 1) return { ok: false, reason: `names ${tenants.length} tenants (O=${TENANT_ORGANIZATION_PREFIX}<t>), exactly one is needed` };
  const tenant = tenants[0]!;
  if (!isTenantName(tenant)) return { ok: false, reason: `invalid tenant ${JSON.stringify(tenant)}` };
  // OU carries the groups (Arktos' format); other O entries are groups too, as Kubernetes reads
  // them, so certificates made for kube-apiserver need only the tenant added.
  const otherOrganizations = organizations.filter((o) => !o.startsWith(TENANT_ORGANIZATION_PREFIX));
  const groups = [...new Set([...subject.getField('OU'), ...otherOrganizations])];
  const tenantUid = tenantUidOf(cert);
  if (tenantUid === undefined) return { ok: false, reason: 'names several tenant uids' };
  return {
    ok: true,
    user: { name, uid: '', groups, tenant, extra: {}, ...(tenantUid !== null ? { tenantUid } : {}) },
    serialNumber: cert.serialNumber,
    validFrom: Date.parse(cert.validFrom),
    validTo: Date.parse(cert.validTo),
  };
}
