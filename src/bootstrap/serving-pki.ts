/**
 * The CA and serving certificate in the data directory (`ca.crt`, `ca.key`, `serving.crt`,
 * `serving.key`): made on first start, reused after. The serving certificate is reissued by the
 * same CA (so clients keep trusting it) when it no longer fits: a host asked for with
 * `--tls-san` is missing, it expires within 30 days, or it was not signed by this CA.
 */
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { BaseLogger } from 'pino';
import { type CertificateAndKey, createCa, issueServingCertificate } from './certificates.js';
import { readPair, writePair } from './pem-pair.js';

export interface ServingPki {
  ca: CertificateAndKey;
  serving: CertificateAndKey;
}

const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;

export async function ensureServingPki(dataDir: string, hosts: readonly string[], logger: BaseLogger): Promise<ServingPki> {
  const caPaths = { cert: join(dataDir, 'ca.crt'), key: join(dataDir, 'ca.key') };
  const servingPaths = { cert: join(dataDir, 'serving.crt'), key: join(dataDir, 'serving.key') };

  let ca = await readPair(caPaths);
  if (!ca) {
    ca = await createCa('kube-spaces-ca');
    await writePair(caPaths, ca);
    logger.info({ path: caPaths.cert }, 'created the cluster CA');
  }

  let serving = await readPair(servingPaths);
  const reason = serving ? unfitReason(serving, ca, hosts) : 'absent';
  if (!serving || reason) {
    serving = await issueServingCertificate(ca, hosts);
    await writePair(servingPaths, serving);
    logger.info({ path: servingPaths.cert, hosts, reason }, 'issued the serving certificate');
  }
  return { ca, serving };
}

/** Why the certificate cannot serve any more, or null when it still fits. */
function unfitReason(pair: CertificateAndKey, ca: CertificateAndKey, hosts: readonly string[]): string | null {
  const cert = new X509Certificate(pair.cert);
  const caCert = new X509Certificate(ca.cert);
  if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) return 'not signed by the current CA';
  if (Date.parse(cert.validTo) - Date.now() < RENEW_BEFORE_MS) return 'expires within 30 days';
  const missing = hosts.filter((host) => (isIP(host) ? cert.checkIP(host) : cert.checkHost(host)) === undefined);
  if (missing.length > 0) return `does not cover ${missing.join(', ')}`;
  return null;
}
