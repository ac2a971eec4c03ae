/**
 * A certificate and its private key kept as two PEM files (`ca.crt` + `ca.key` and the like).
 *
 * @example
 *   const ca = await readPair({ cert: join(dir, 'ca.crt'), key: join(dir, 'ca.key') });
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { PRIVATE_MODE, PUBLIC_MODE, readFileIfExists, writeFileAtomic } from './atomic-file.js';
import type { CertificateAndKey } from './certificates.js';

export interface PairPaths {
  cert: string;
  key: string;
}

/** Both files, or null when either is absent or they do not belong together (an interrupted first start). */
export async function readPair(paths: PairPaths): Promise<CertificateAndKey | null> {
  const [cert, key] = await Promise.all([readFileIfExists(paths.cert), readFileIfExists(paths.key)]);
  if (cert === null || key === null) return null;
  return new X509Certificate(cert).checkPrivateKey(createPrivateKey(key)) ? { cert, key } : null;
}

export async function writePair(paths: PairPaths, pair: CertificateAndKey): Promise<void> {
  // Key first: a certificate on disk always has its key.
  await writeFileAtomic(paths.key, pair.key, PRIVATE_MODE);
  await writeFileAtomic(paths.cert, pair.cert, PUBLIC_MODE);
}
