/**
 * Helpers for multi-tenant end-to-end tests: tenants created by the system admin and waited on
 * until Active, and per-user kubeconfigs issued by the real `kube-spaces kubeconfig` command,
 * with a token (`--token`) or a client certificate.
 *
 * @example
 *   await createTenants(cluster, ['t1', 't2']);
 *   const alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
 *   const carol = await certificateKubeconfig(cluster, { tenant: 't1', user: 'carol', groups: ['dev'] });
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

export interface UserOptions {
  tenant: string;
  user: string;
  groups?: string[];
  space?: string;
}

/** Runs `kube-spaces kubeconfig` and writes its output into the server's data dir; returns the path and text. */
async function issueKubeconfig(cluster: TestCluster, opts: UserOptions, extraArgs: string[]): Promise<{ path: string; text: string }> {
  const args = [CLI_PATH, 'kubeconfig', '--data-dir', cluster.server.dataDir, '--tenant', opts.tenant, '--user', opts.user, ...extraArgs];
  for (const g of opts.groups ?? []) args.push('--group', g);
  if (opts.space) args.push('--space', opts.space);
  const { stdout } = await run(process.execPath, args);
  const credential = extraArgs.includes('--token') ? 'token' : 'cert';
  const path = join(cluster.server.dataDir, `${opts.user}-${opts.tenant}${opts.space ? `-${opts.space}` : ''}-${credential}.kubeconfig`);
  await writeFile(path, stdout, { mode: 0o600 });
  return { path, text: stdout };
}

/** Issues a token kubeconfig (`kube-spaces kubeconfig --token`) and waits until the token authenticates. */
export async function userKubeconfig(cluster: TestCluster, opts: UserOptions): Promise<UserCredentials> {
  const { path, text } = await issueKubeconfig(cluster, opts, ['--token']);
  const token = (parseYaml(text) as { users: Array<{ user: { token: string } }> }).users[0]!.user.token;
  const api = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token });
  // The server re-reads the token file about once a second.
  await eventually(`${opts.user}'s token to be accepted`, async () => (await api.request('GET', '/api')).status === 200);
  return { kubeconfig: path, token, api };
}

export interface CertificateCredentials {
  kubeconfig: string;
  /** The client certificate and key the kubeconfig embeds (PEM). */
  clientCertificate: { cert: string; key: string };
  /** An HTTPS client presenting this certificate. */
  api: ApiClient;
}

/** Issues a client-certificate kubeconfig (`kube-spaces kubeconfig`, the default); nothing to wait for. */
export async function certificateKubeconfig(cluster: TestCluster, opts: UserOptions): Promise<CertificateCredentials> {
  const { path, text } = await issueKubeconfig(cluster, opts, []);
  const user = (parseYaml(text) as { users: Array<{ user: Record<string, string> }> }).users[0]!.user;
  const decode = (field: string) => Buffer.from(user[field]!, 'base64').toString('utf8');
  const clientCertificate = { cert: decode('client-certificate-data'), key: decode('client-key-data') };
  const api = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, clientCertificate });
  return { kubeconfig: path, clientCertificate, api };
}
