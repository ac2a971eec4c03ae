/**
 * The client CA in the data directory (`client-ca.crt`, `client-ca.key`): made on first start
 * beside the serving CA, reused after. It signs the client certificates `kube-spaces kubeconfig`
 * issues and is the only issuer the x509 authenticator trusts. It is a CA of its own, not the
 * serving CA, so a serving certificate can never pass as a user's.
 *
 * @example
 *   const clientCa = await ensureClientCa('.kube-spaces', logger);
 */
import { join } from 'node:path';
import type { BaseLogger } from 'pino';
import { type CertificateAndKey, createCa } from './certificates.js';
import { readPair, writePair, type PairPaths } from './pem-pair.js';

export function clientCaPaths(dataDir: string): PairPaths {
  return { cert: join(dataDir, 'client-ca.crt'), key: join(dataDir, 'client-ca.key') };
}

export async function ensureClientCa(dataDir: string, logger: BaseLogger): Promise<CertificateAndKey> {
  const paths = clientCaPaths(dataDir);
  const existing = await readPair(paths);
  if (existing) return existing;
  const ca = await createCa('kube-spaces-client-ca');
  await writePair(paths, ca);
  logger.info({ path: paths.cert }, 'created the client CA');
  return ca;
}

/** The client CA of a data directory a server has started with; throws when there is none yet. */
export async function readClientCa(dataDir: string): Promise<CertificateAndKey> {
  const ca = await readPair(clientCaPaths(dataDir));
  if (!ca) throw new Error(`no client CA in ${dataDir}: start the server once with this --data-dir first`);
  return ca;
}
