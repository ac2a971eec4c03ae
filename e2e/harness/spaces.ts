/**
 * Helpers for multi-tenant end-to-end tests: tenants created by the system admin and waited on
 * until Active, and per-user kubeconfigs issued by the real `kube-spaces kubeconfig` command.
 *
 * @example
 *   await createTenants(cluster, ['t1', 't2']);
 *   const alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { createApiClient, type ApiClient } from './api-client.js';
import type { TestCluster } from './cluster.js';
import { CLI_PATH } from './server.js';

const run = promisify(execFile);

export function tenantManifest(name: string): string {
  return `apiVersion: v1\nkind: Tenant\nmetadata:\n  name: ${name}\n`;
}

/** Polls until `check` answers true (bounded). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function waitForTenantPhase(cluster: TestCluster, name: string, phase: string): Promise<void> {
  await eventually(`tenant ${name} to be ${phase}`, async () => {
    const tenant = await cluster.read(`/api/v1/tenants/${name}`);
    return (tenant?.status as { phase?: string } | undefined)?.phase === phase;
  });
}

export interface UserCredentials {
  kubeconfig: string;
  token: string;
  /** An HTTPS client with this user's token. */
  api: ApiClient;
}

/** Issues a kubeconfig with `kube-spaces kubeconfig`, writes it to the server's data dir, waits until it authenticates. */
export async function userKubeconfig(cluster: TestCluster, opts: { tenant: string; user: string; groups?: string[]; space?: string }): Promise<UserCredentials> {
  const args = [CLI_PATH, 'kubeconfig', '--data-dir', cluster.server.dataDir, '--tenant', opts.tenant, '--user', opts.user];
  for (const g of opts.groups ?? []) args.push('--group', g);
  if (opts.space) args.push('--space', opts.space);
  const { stdout } = await run(process.execPath, args);
  const path = join(cluster.server.dataDir, `${opts.user}-${opts.tenant}${opts.space ? `-${opts.space}` : ''}.kubeconfig`);
  await writeFile(path, stdout, { mode: 0o600 });
  const token = (parseYaml(stdout) as { users: Array<{ user: { token: string } }> }).users[0]!.user.token;
  const api = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token });
  // The server re-reads the token file about once a second.
  await eventually(`${opts.user}'s token to be accepted`, async () => (await api.request('GET', '/api')).status === 200);
  return { kubeconfig: path, token, api };
}
