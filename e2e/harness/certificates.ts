/**
 * Client certificates our issuer refuses to make (no tenant, two tenants, expired, for servers
 * only, a CA), signed by a given CA, for tests of the x509 authenticator.
 *
 * @example
 *   const noTenant = await craftCertificate(clientCa, [{ CN: ['alice'] }, { O: ['system:masters'] }]);
 */
import 'reflect-metadata';
import { createPrivateKey } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { CertificateAndKey } from '../../src/bootstrap/certificates.js';

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface CraftOptions {
  /** Default: a day from now. */
  notAfter?: Date;
  /** Extended key usage OIDs; default clientAuth. */
  usages?: string[];
  isCa?: boolean;
}

export async function craftCertificate(ca: CertificateAndKey, subject: x509.JsonName, options: CraftOptions = {}): Promise<CertificateAndKey> {
  const caKey = await crypto.subtle.importKey('pkcs8', createPrivateKey(ca.key).export({ type: 'pkcs8', format: 'der' }), EC_P256, false, ['sign']);
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject,
    issuer: new x509.X509Certificate(ca.cert).subject,
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: options.notAfter ?? new Date(Date.now() + DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [
      new x509.BasicConstraintsExtension(options.isCa ?? false, undefined, true),
      new x509.ExtendedKeyUsageExtension(options.usages ?? [x509.ExtendedKeyUsage.clientAuth]),
    ],
  });
  const key = x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', keys.privateKey), 'PRIVATE KEY');
  return { cert: cert.toString('pem'), key };
}
