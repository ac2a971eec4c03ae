/**
 * `<data-dir>/admin.kubeconfig`: the system admin's kubeconfig, written by the first start, once
 * the server listens (so it names the port actually bound), and never rewritten: replicas sharing a
 * data directory would otherwise each point it at themselves on every start, and an operator's edit
 * (the load balancer's address as `server:`) would be lost. Delete it to have the next start write it.
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
  // retargetKubeconfig answers null when the kubeconfig already names this server and CA.
  if (retargetKubeconfig(existing, spec) !== null) {
    logger.info({ path, server: spec.server }, 'the admin kubeconfig names another server or CA; left as it is (delete it to have it written for this server)');
  }
  return path;
}
