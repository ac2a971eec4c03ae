/**
 * X.509 material for the server: self-signed CAs, the serving certificates and client
 * certificates they sign, ECDSA P-256 keys from Node's WebCrypto, PEM out (certificates) and
 * PKCS#8 PEM keys.
 *
 * @example
 *   const ca = await createCa('kube-spaces-ca');
 *   const serving = await issueServingCertificate(ca, ['localhost', '127.0.0.1', '::1']);
 *   const alice = await issueClientCertificate(clientCa, { user: 'alice', tenant: 't1', groups: ['dev'] });
 */
// @peculiar/x509 resolves its ASN.1 codecs through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { isIP } from 'node:net';
import { createPrivateKey, randomBytes } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { TENANT_ORGANIZATION_PREFIX, TENANT_UID_URI_PREFIX } from '../../authz/x509-authenticator.js';

export interface CertificateAndKey {
  /** PEM certificate. */
  cert: string;
  /** PEM PKCS#8 private key. */
  key: string;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Backdating covers clients whose clocks run a little behind ours. */
const BACKDATE_MS = 5 * 60 * 1000;

const CA_VALIDITY_DAYS = 3650;
const SERVING_VALIDITY_DAYS = 365;
const CLIENT_VALIDITY_DAYS = 365;

/** Who a client certificate speaks for. */
export interface ClientIdentity {
  user: string;
  tenant: string;
  groups: readonly string[];
  /** The uid of the tenant's Tenant: the certificate then works only for that incarnation. */
  tenantUid?: string;
}

/** A self-signed CA that may sign certificates (and CRLs), valid ten years by default. */
export async function createCa(commonName: string, validDays = CA_VALIDITY_DAYS): Promise<CertificateAndKey> {
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${commonName}`,
    ...validity(validDays),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem'), key: await exportKey(keys.privateKey) };
}

/**
 * A TLS server certificate signed by `ca` for `hosts` (DNS names and IP addresses, sorted into
 * the right SAN kinds), valid one year by default.
 */
export async function issueServingCertificate(
  ca: CertificateAndKey,
  hosts: readonly string[],
  validDays = SERVING_VALIDITY_DAYS,
): Promise<CertificateAndKey> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importSigningKey(ca.key);
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: `CN=kube-spaces-apiserver`,
    issuer: caCert.subject,
    ...validity(validDays),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(hosts.map((host): x509.JsonGeneralName => ({ type: isIP(host) ? 'ip' : 'dns', value: host }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { cert: cert.toString('pem'), key: await exportKey(keys.privateKey) };
}

/**
 * A TLS client certificate signed by `ca`: `CN` = user, `O=tenant:<t>` = tenant, one `OU` per
 * group (DESIGN.md section 4), the clientAuth usage, valid one year by default.
 */
export async function issueClientCertificate(
  ca: CertificateAndKey,
  identity: ClientIdentity,
  validDays = CLIENT_VALIDITY_DAYS,
): Promise<CertificateAndKey> {
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const { cert } = await signClientCertificate(ca, identity, keys.publicKey, validity(validDays).notAfter);
  return { cert, key: await exportKey(keys.privateKey) };
}

/** A client certificate and its serial number (hex, as `openssl x509 -serial` prints it, lower case). */
export interface SignedCertificate {
  cert: string;
  serialNumber: string;
}

/**
 * The client certificate of `identity` (as `issueClientCertificate` makes it) for a key the
 * caller holds (a CertificateSigningRequest's), valid until `notAfter`.
 */
export async function signClientCertificate(ca: CertificateAndKey, identity: ClientIdentity, publicKey: x509.PublicKeyType, notAfter: Date): Promise<SignedCertificate> {
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importSigningKey(ca.key);
  // The JSON form, one attribute per RDN, needs no DN escaping: user and group names may hold commas.
  const subject: x509.JsonName = [
    { CN: [identity.user] },
    { O: [`${TENANT_ORGANIZATION_PREFIX}${identity.tenant}`] },
    ...identity.groups.map((group) => ({ OU: [group] })),
  ];
  const serial = serialNumber();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject,
    issuer: caCert.subject,
    notBefore: validity(0).notBefore,
    notAfter,
    publicKey,
    signingKey: caKey,
    signingAlgorithm: SIGNING,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
      ...(identity.tenantUid !== undefined ? [new x509.SubjectAlternativeNameExtension([{ type: 'url', value: `${TENANT_UID_URI_PREFIX}${identity.tenantUid}` }])] : []),
    ],
  });
  return { cert: cert.toString('pem'), serialNumber: serial };
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + days * DAY_MS) };
}

/** 128 random bits, positive (top bit clear), as RFC 5280 asks. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

async function exportKey(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', key));
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** Accepts PKCS#8 or SEC1 ("EC PRIVATE KEY") PEM, so a CA key made by openssl works too. */
async function importSigningKey(pem: string): Promise<CryptoKey> {
  const der = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
  return crypto.subtle.importKey('pkcs8', der, EC_P256, false, ['sign']);
}
