/**
 * First-start bootstrap of the data directory, before the server listens: the directory itself
 * (owner-only), the CA and serving certificate, the client CA, and the token file with its admin token. Every
 * piece is made only when absent, so a second start reuses all of it.
 */
import { mkdir } from 'node:fs/promises';
import type { BaseLogger } from 'pino';
import { ensureAdminToken } from './admin-token.js';
import type { CertificateAndKey } from './certificates.js';
import { ensureClientCa } from './client-ca.js';
import { ensureServingPki, type ServingPki } from './serving-pki.js';

export interface DataDirOptions {
  dataDir: string;
  tokenAuthFile: string;
  /** Extra serving-certificate names and IPs (`--tls-san`). */
  tlsSans: readonly string[];
  /** Added to the serving certificate unless it binds every interface. */
  bindAddress: string;
}

export interface PreparedDataDir extends ServingPki {
  /** Signs user certificates; the x509 authenticator trusts only it. */
  clientCa: CertificateAndKey;
  /** The admin token for the admin kubeconfig; null when the token file has no admin row. */
  adminToken: string | null;
}

export async function prepareDataDir(options: DataDirOptions, logger: BaseLogger): Promise<PreparedDataDir> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const pki = await ensureServingPki(options.dataDir, servingHosts(options), logger);
  const clientCa = await ensureClientCa(options.dataDir, logger);
  const adminToken = await ensureAdminToken(options.tokenAuthFile, logger);
  if (adminToken === null) logger.warn({ path: options.tokenAuthFile }, 'the token file has no admin row; no admin kubeconfig is written');
  return { ...pki, clientCa, adminToken };
}

/** localhost and loopback always, then `--tls-san` and a specific bind address. */
export function servingHosts(options: Pick<DataDirOptions, 'tlsSans' | 'bindAddress'>): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1', ...options.tlsSans];
  if (options.bindAddress !== '0.0.0.0' && options.bindAddress !== '::') hosts.push(options.bindAddress);
  return [...new Set(hosts)];
}
