/**
 * `kube-spaces kubeconfig`: gives a user of a tenant a credential in one step. By default it
 * issues a client certificate signed by the data directory's client CA (`CN` user,
 * `O=tenant:<t>`, one `OU` per group) and embeds it with its key; nothing is stored on the
 * server. With `credential: 'token'` it instead adds a token row to the token file (the running
 * server re-reads the file, no restart). A tenant user's kubeconfig points at its space's own URL
 * (`/tenants/<tenant>`, the prefix stock kubectl keeps): kubectl caches discovery on disk by
 * server URL, so two spaces of one server must not share one. `space` points a system user's
 * kubeconfig at one space, or at every space (`all`); the system's own has no prefix.
 *
 * @example
 *   const yaml = await issueUserKubeconfig({ dataDir: '.kube-spaces', tenant: 't1', user: 'alice', groups: ['dev'] });
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isTenantName } from '../../authz/user.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { PRIVATE_MODE, readFileIfExists } from './atomic-file.js';
import { adminKubeconfigPath } from './admin-kubeconfig.js';
import { issueClientCertificate } from './certificates.js';
import { certificateSerial, recordIssuedCredential } from './issued-credentials.js';
import { tokenDigest } from '../../authz/token-file.js';
import { readClientCa } from './client-ca.js';
import { type KubeconfigCredential, renderKubeconfig } from './kubeconfig.js';

export interface UserKubeconfigOptions {
  dataDir: string;
  tenant: string;
  user: string;
  groups?: readonly string[];
  /** Default `certificate`: a client certificate signed by the client CA. */
  credential?: 'certificate' | 'token';
  /** Default: the server the admin kubeconfig points at, else https://127.0.0.1:6443. */
  server?: string;
  /** Token mode only. Default: `<dataDir>/tokens.csv`. */
  tokenFile?: string;
  /** For system users: the space (or `all`) the kubeconfig addresses through the prefix form. A tenant user's is always its own. */
  space?: string;
  /**
   * The uid of the live Tenant of that name, or undefined when there is none. Default: asked of the
   * server with the admin kubeconfig. The credential is bound to that uid.
   */
  lookupTenantUid?: (tenant: string) => Promise<string | undefined>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Names go into certificate subjects and log lines: no empty ones, no control characters. */
const PRINTABLE = /^[^\p{Cc}]+$/u;
/** Token-file fields are CSV without escapes: refuse what would break a row. */
const CSV_SAFE = /^[^,"\r\n]+$/;

function check(what: string, value: string, ok: boolean): void {
  if (!ok) throw new Error(`invalid ${what} ${JSON.stringify(value)}`);
}

/**
 * The server URL and serving CA of the admin kubeconfig the server wrote: it names the port bound
 * and the CA clients trust, the operator's own with `--tls-cert-file`.
 */
async function adminCluster(dataDir: string): Promise<{ server?: string; caCert?: string }> {
  const text = await readFileIfExists(adminKubeconfigPath(dataDir));
  const parsed = text ? (parseYaml(text) as { clusters?: Array<{ cluster?: { server?: string; 'certificate-authority-data'?: string } }> }) : undefined;
  const cluster = parsed?.clusters?.[0]?.cluster;
  const caData = cluster?.['certificate-authority-data'];
  return { server: cluster?.server, caCert: caData === undefined ? undefined : Buffer.from(caData, 'base64').toString('utf8') };
}

export async function issueUserKubeconfig(options: UserKubeconfigOptions): Promise<string> {
  const groups = options.groups ?? [];
  const credentialKind = options.credential ?? 'certificate';
  const nameOk = credentialKind === 'token' ? CSV_SAFE : PRINTABLE;
  check('tenant', options.tenant, isTenantName(options.tenant));
  check('user', options.user, nameOk.test(options.user));
  for (const g of groups) check('group', g, nameOk.test(g));
  if (options.space !== undefined) {
    check('space', options.space, DNS_LABEL.test(options.space));
    if (options.tenant !== SYSTEM_TENANT && options.space !== options.tenant) throw new Error('only users of the system tenant can address another space');
  }

  const admin = await adminCluster(options.dataDir);
  const caCert = admin.caCert ?? (await readFileIfExists(join(options.dataDir, 'ca.crt')));
  if (caCert === null) throw new Error(`no CA in ${options.dataDir}: start the server once with this --data-dir first`);
  const tenantUid = await (options.lookupTenantUid ?? ((tenant) => tenantUidFromServer(options.dataDir, tenant)))(options.tenant);
  if (tenantUid === undefined) throw new Error(`tenant ${JSON.stringify(options.tenant)} does not exist: create it first (kubectl create -f tenant.yaml as the system admin); credentials are bound to a Tenant's uid`);
  const credential: KubeconfigCredential =
    credentialKind === 'token'
      ? { token: await addTokenRow(options.tokenFile ?? join(options.dataDir, 'tokens.csv'), options.user, groups, options.tenant, tenantUid) }
      : { clientCertificate: await issueClientCertificate(await readClientCa(options.dataDir), { user: options.user, tenant: options.tenant, groups, tenantUid }) };
  // Recorded so `kube-spaces credentials list` shows it and `revoke` can name it.
  const id = 'token' in credential ? tokenDigest(credential.token) : certificateSerial(credential.clientCertificate.cert);
  await recordIssuedCredential(options.dataDir, { kind: credentialKind, id, tenant: options.tenant, user: options.user, groups: [...groups], source: 'kubeconfig' });

  const base = (options.server ?? admin.server ?? 'https://127.0.0.1:6443').replace(/\/+$/, '');
  const space = options.space ?? (options.tenant === SYSTEM_TENANT ? undefined : options.tenant);
  const server = space === undefined ? base : `${base}/tenants/${space}`;
  return renderKubeconfig({ server, caCert, userName: options.user, ...credential });
}

/**
 * The uid of the Tenant named `tenant`, asked of the server the admin kubeconfig points at (with
 * its token and CA); undefined when the server answers 404.
 */
async function tenantUidFromServer(dataDir: string, tenant: string): Promise<string | undefined> {
  const text = await readFileIfExists(adminKubeconfigPath(dataDir));
  if (text === null) throw new Error(`no admin kubeconfig in ${dataDir}: start the server with this --data-dir first`);
  const config = parseYaml(text) as { clusters?: Array<{ cluster?: { server?: string; 'certificate-authority-data'?: string } }>; users?: Array<{ user?: { token?: string } }> };
  const cluster = config.clusters?.[0]?.cluster;
  const token = config.users?.[0]?.user?.token;
  if (!cluster?.server || !token) throw new Error(`${adminKubeconfigPath(dataDir)} names no server or token`);
  const ca = cluster['certificate-authority-data'] ? Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8') : undefined;
  const url = `${cluster.server.replace(/\/+$/, '')}/api/v1/tenants/${tenant}`;
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpsRequest(url, { ca, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => reject(new Error(`cannot ask ${cluster.server} whether tenant ${tenant} exists (is the server running?): ${err.message}`)));
    req.end();
  });
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw new Error(`asking ${cluster.server} for tenant ${tenant}: ${answer.status} ${answer.body}`);
  const uid = (JSON.parse(answer.body) as { metadata?: { uid?: string } }).metadata?.uid;
  if (!uid) throw new Error(`tenant ${tenant} has no uid`);
  return uid;
}

/** Appends a row with a fresh random token and uid, bound to the tenant's uid; returns the token. */
async function addTokenRow(tokenFile: string, user: string, groups: readonly string[], tenant: string, tenantUid: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const existing = (await readFileIfExists(tokenFile)) ?? '';
  const row = `${existing === '' || existing.endsWith('\n') ? '' : '\n'}${token},${user},${randomUUID()},"${groups.join(',')}",${tenant},${tenantUid}\n`;
  // One O_APPEND write: concurrent issuers each add their row (a read-modify-rename loses all but one),
  // and the server's reloader sees the file before or after the row, never half of it.
  await appendFile(tokenFile, row, { mode: PRIVATE_MODE });
  return token;
}
