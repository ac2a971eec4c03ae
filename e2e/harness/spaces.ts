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
import { createApiClient, type ApiClient, type ApiResponse } from './api-client.js';
import { collectionPath, type Manifest } from './manifests.js';
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

/** Creates Tenants (through the admin client, together) and waits until each space is Active. */
export async function createTenants(cluster: TestCluster, ...names: string[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      const res = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name } } });
      if (res.status !== 201) throw new Error(`creating tenant ${name}: ${res.status} ${res.body}`);
      await waitForTenantPhase(cluster, name, 'Active');
    }),
  );
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

export interface Grant {
  tenant: string;
  /** The ClusterRole granted (a shared default such as `view`, `edit`, `cluster-admin`, or the space's own). */
  clusterRole: string;
  user?: string;
  group?: string;
  /** A RoleBinding in this namespace instead of a ClusterRoleBinding for the whole space. */
  namespace?: string;
}

/** The system admin's request inside one space, through the `/tenants/<t>` path prefix. */
export function inSpace(cluster: TestCluster, tenant: string, method: string, path: string, json?: unknown): Promise<ApiResponse> {
  return cluster.api.request(method, `/tenants/${tenant}${path}`, json === undefined ? {} : { json });
}

/** Creates fixtures in one space as the system admin; throws unless each answers 201. */
export async function createInSpace(cluster: TestCluster, tenant: string, ...manifests: Manifest[]): Promise<void> {
  for (const m of manifests) {
    const res = await inSpace(cluster, tenant, 'POST', collectionPath(m), m);
    if (res.status !== 201) throw new Error(`creating ${m.kind} ${m.metadata.name} in ${tenant}: ${res.status} ${res.body}`);
  }
}

/**
 * Grants a ClusterRole to a user or group inside one space, as its admin would (`kubectl create
 * clusterrolebinding`); the system admin writes it through the `/tenants/<t>` path. Returns once
 * the binding is written; authorization sees it a moment later (use `grantAndWait` to wait).
 */
export async function grant(cluster: TestCluster, g: Grant): Promise<string> {
  const who = g.user ?? g.group!;
  const name = `${g.clusterRole}-${who}`.replace(/[^a-z0-9.-]/g, '-');
  const subjects = [{ apiGroup: 'rbac.authorization.k8s.io', kind: g.user ? 'User' : 'Group', name: who }];
  const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: g.clusterRole };
  const binding: Manifest = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: g.namespace ? 'RoleBinding' : 'ClusterRoleBinding', metadata: { name, namespace: g.namespace }, roleRef, subjects };
  const res = await inSpace(cluster, g.tenant, 'POST', collectionPath(binding), binding);
  if (res.status !== 201 && res.status !== 409) throw new Error(`granting ${g.clusterRole} to ${who} in ${g.tenant}: ${res.status} ${res.body}`);
  return name;
}

/** Grants, then waits until `api` (the grantee's client) is allowed `probe` (a GET path in its space). */
export async function grantAndWait(cluster: TestCluster, g: Grant, api: ApiClient, probe: string): Promise<void> {
  await grant(cluster, g);
  await eventually(`${g.clusterRole} to apply to ${g.user ?? g.group} in ${g.tenant}`, async () => (await api.request('GET', probe)).status !== 403);
}

/** A user of `tenant` holding cluster-admin in that space (everything in it, nothing beyond), once authorization sees it. */
export async function spaceAdmin(cluster: TestCluster, tenant: string, user: string): Promise<UserCredentials> {
  const credentials = await userKubeconfig(cluster, { tenant, user });
  await grantAndWait(cluster, { tenant, clusterRole: 'cluster-admin', user }, credentials.api, '/api/v1/namespaces');
  return credentials;
}
