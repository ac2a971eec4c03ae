/**
 * `<data-dir>/admin.kubeconfig`: the system admin's kubeconfig, written once the server listens
 * (so it names the port actually bound) and retargeted on later starts if the port or CA changed.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { BaseLogger } from 'pino';
import { PRIVATE_MODE, readFileIfExists, writeFileAtomic } from './atomic-file.js';
import { ADMIN_USER } from './admin-token.js';
import { renderKubeconfig, retargetKubeconfig } from './kubeconfig.js';

export function adminKubeconfigPath(dataDir: string): string {
  return join(dataDir, 'admin.kubeconfig');
}

/**
 * The URL local clients use: the bind address, or loopback when bound to every interface.
 * IPv6 literals are bracketed.
 */
export function serverUrl(bindAddress: string, port: number): string {
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  return `https://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

export async function ensureAdminKubeconfig(
  dataDir: string,
  spec: { server: string; caCert: string; token: string },
  logger: BaseLogger,
): Promise<string> {
  const path = adminKubeconfigPath(dataDir);
  const existing = await readFileIfExists(path);
  if (existing === null) {
    await writeFileAtomic(path, renderKubeconfig({ ...spec, userName: ADMIN_USER }), PRIVATE_MODE);
    logger.info({ path, server: spec.server }, 'wrote the admin kubeconfig');
    return path;
  }
  const retargeted = retargetKubeconfig(existing, spec);
  if (retargeted !== null) {
    await writeFileAtomic(path, retargeted, PRIVATE_MODE);
    logger.info({ path, server: spec.server }, 'pointed the admin kubeconfig at this server');
  }
  return path;
}
