/**
 * Kubeconfigs for test users of a running test server.
 *
 * @example
 *   const path = await writeKubeconfig(server, { userName: 'intruder', token: 'wrong' });
 *   await kubectl.run(['get', '--raw', '/api'], { kubeconfig: path });
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderKubeconfig } from '../../src/bootstrap/kubeconfig.js';
import type { ServerProcess } from './server.js';

export interface TokenCredentials {
  userName: string;
  token: string;
}

/** Writes `<dataDir>/<userName>.kubeconfig` (removed with the server's data dir) and returns its path. */
export async function writeKubeconfig(server: Pick<ServerProcess, 'url' | 'caCert' | 'dataDir'>, credentials: TokenCredentials): Promise<string> {
  const path = join(server.dataDir, `${credentials.userName}.kubeconfig`);
  const text = renderKubeconfig({ server: server.url, caCert: server.caCert, userName: credentials.userName, token: credentials.token });
  await writeFile(path, text, { mode: 0o600 });
  return path;
}
