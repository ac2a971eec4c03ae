/**
 * First-start bootstrap of the data directory, before the server listens: the directory itself
 * (owner-only), the CA and serving certificate, the client CA, and the token file with its admin token. Every
 * piece is made only when absent, so a second start reuses all of it. PKI the operator brings
 * (`--tls-cert-file`/`--tls-private-key-file`, `--client-ca-file`) is used instead of the data
 * directory's; the data directory's client CA is still made, as `kube-spaces kubeconfig` signs with it.
 */
import { mkdir } from 'node:fs/promises';
import type { BaseLogger } from 'pino';
import { ensureAdminToken } from './admin-token.js';
import type { CertificateAndKey } from './certificates.js';
import { ensureClientCa } from './client-ca.js';
import { readClientCaBundle, readServingFiles } from './operator-pki.js';
import { ensureServingPki } from './serving-pki.js';

export interface DataDirOptions {
  dataDir: string;
  tokenAuthFile: string;
  /** Extra serving-certificate names and IPs (`--tls-san`). */
  tlsSans: readonly string[];
  /** Added to the serving certificate unless it binds every interface. */
  bindAddress: string;
  /** `--tls-cert-file` and `--tls-private-key-file`: the operator's serving certificate, used instead of `serving.crt`. */
  servingFiles?: { certFile: string; keyFile: string };
  /** `--client-ca-file`: the CAs trusted for client certificates, instead of `client-ca.crt`. */
  clientCaFile?: string;
}

export interface PreparedDataDir {
  /** The HTTPS server's certificate (with its chain) and key. */
  serving: CertificateAndKey;
  /** PEM that clients trust the serving certificate by: in kubeconfigs and `kube-root-ca.crt`. */
  servingCaBundle: string;
  /** The data directory's client CA, which signs the certificates `kube-spaces kubeconfig` issues. */
  clientCa: CertificateAndKey;
  /** PEM of every CA the x509 authenticator trusts: `--client-ca-file`, else the client CA. */
  clientCaBundle: string;
  /** The admin token for the admin kubeconfig; null when the token file has no admin row. */
  adminToken: string | null;
}

export async function prepareDataDir(options: DataDirOptions, logger: BaseLogger): Promise<PreparedDataDir> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const serving = options.servingFiles
    ? await readServingFiles(options.servingFiles)
    : await ensureServingPki(options.dataDir, servingHosts(options), logger).then((pki) => ({ pair: pki.serving, caBundle: pki.ca.cert }));
  const clientCa = await ensureClientCa(options.dataDir, logger);
  const clientCaBundle = options.clientCaFile ? await readClientCaBundle(options.clientCaFile) : clientCa.cert;
  const adminToken = await ensureAdminToken(options.tokenAuthFile, logger);
  if (adminToken === null) logger.warn({ path: options.tokenAuthFile }, 'the token file has no admin row; no admin kubeconfig is written');
  return { serving: serving.pair, servingCaBundle: serving.caBundle, clientCa, clientCaBundle, adminToken };
}

/** localhost and loopback always, then `--tls-san` and a specific bind address. */
export function servingHosts(options: Pick<DataDirOptions, 'tlsSans' | 'bindAddress'>): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1', ...options.tlsSans];
  if (options.bindAddress !== '0.0.0.0' && options.bindAddress !== '::') hosts.push(options.bindAddress);
  return [...new Set(hosts)];
}
