/**
 * Reads a kubeconfig as kubectl does (the current context or a named one; CA, client certificate
 * and key as data or as files relative to the kubeconfig; token or token file;
 * insecure-skip-tls-verify) and reads the space from the server URL: a server ending in
 * `/tenants/<t>` addresses space t, `/tenants/all` every space; without it, the caller's own.
 *
 * @example
 *   const config = await loadKubeconfig({ path: 'alice.kubeconfig', context: 'alice@kube-spaces' });
 *   // { transport: { server: 'https://127.0.0.1:6443', ca: '-----BEGIN…', token: '…' }, space: { kind: 'own' } }
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ALL_TENANTS } from '../../api/spaces.js';
import type { HttpsTransportOptions } from './https-transport.js';
import type { SpaceTarget } from './paths.js';

export interface KubeconfigOptions {
  /** Default: the first file of `$KUBECONFIG`, else `~/.kube/config`. */
  path?: string;
  /** Default: the kubeconfig's `current-context`. */
  context?: string;
}

export interface ClientConfig {
  transport: HttpsTransportOptions;
  /** The space the server URL addresses: the default scope of the client. */
  space: SpaceTarget;
}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: Array<{ name: string; cluster?: Record<string, unknown> }>;
  users?: Array<{ name: string; user?: Record<string, unknown> }>;
  contexts?: Array<{ name: string; context?: { cluster?: string; user?: string } }>;
}

/** `<base>/tenants/<t>` → the base URL and space t; anything else is the caller's own space. */
const TENANT_SUFFIX = /^(.*?)\/tenants\/([^/]+)\/*$/;

export async function loadKubeconfig(options: KubeconfigOptions = {}): Promise<ClientConfig> {
  const path = options.path ?? defaultKubeconfigPath();
  const file = parseYaml(await readFile(path, 'utf8')) as KubeconfigFile | null;
  if (file === null || typeof file !== 'object') throw new Error(`${path}: not a kubeconfig`);
  const contextName = options.context ?? file['current-context'];
  if (!contextName) throw new Error(`${path}: no current-context, and no context was named`);
  const context = entryNamed(file.contexts, contextName, 'context', path).context ?? {};
  const cluster = entryNamed(file.clusters, context.cluster, 'cluster', path).cluster ?? {};
  const user = context.user === undefined ? {} : (entryNamed(file.users, context.user, 'user', path).user ?? {});
  const dir = dirname(path);
  const read = (from: Record<string, unknown>, data: string, file: string) => readDataOrFile(from, data, file, dir);

  const server = stringField(cluster, 'server');
  if (server === undefined) throw new Error(`${path}: cluster ${context.cluster} has no server`);
  const { base, space } = splitServer(server);
  const transport: HttpsTransportOptions = { server: base };
  const ca = await read(cluster, 'certificate-authority-data', 'certificate-authority');
  if (ca !== undefined) transport.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) transport.insecureSkipTlsVerify = true;
  const token = stringField(user, 'token') ?? (await readFileField(user, 'tokenFile', dir))?.trim();
  if (token !== undefined) transport.token = token;
  const cert = await read(user, 'client-certificate-data', 'client-certificate');
  const key = await read(user, 'client-key-data', 'client-key');
  if (cert !== undefined && key !== undefined) transport.clientCertificate = { cert, key };
  else if (cert !== undefined || key !== undefined) throw new Error(`${path}: user ${context.user} has a client certificate or key without the other`);
  return { transport, space };
}

/** Splits a kubeconfig `server` into the URL to connect to and the space its path names. */
export function splitServer(server: string): { base: string; space: SpaceTarget } {
  const url = new URL(server);
  const match = TENANT_SUFFIX.exec(url.pathname);
  if (match === null) return { base: server.replace(/\/+$/, ''), space: { kind: 'own' } };
  url.pathname = match[1]!;
  const base = url.toString().replace(/\/+$/, '');
  const tenant = decodeURIComponent(match[2]!);
  return { base, space: tenant === ALL_TENANTS ? { kind: 'all' } : { kind: 'space', tenant } };
}

function defaultKubeconfigPath(): string {
  const fromEnv = process.env.KUBECONFIG?.split(':').find((p) => p !== '');
  return fromEnv ?? join(homedir(), '.kube', 'config');
}

function entryNamed<E extends { name: string }>(entries: E[] | undefined, name: string | undefined, what: string, path: string): E {
  const entry = entries?.find((e) => e.name === name);
  if (entry === undefined) throw new Error(`${path}: no ${what} named ${JSON.stringify(name)}`);
  return entry;
}

function stringField(from: Record<string, unknown>, field: string): string | undefined {
  const value = from[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A base64 `<x>-data` field wins over the file it replaces, as in client-go; files are relative to the kubeconfig. */
async function readDataOrFile(from: Record<string, unknown>, dataField: string, fileField: string, dir: string): Promise<string | undefined> {
  const data = stringField(from, dataField);
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  return readFileField(from, fileField, dir);
}

async function readFileField(from: Record<string, unknown>, fileField: string, dir: string): Promise<string | undefined> {
  const file = stringField(from, fileField);
  if (file === undefined) return undefined;
  return readFile(isAbsolute(file) ? file : join(dir, file), 'utf8');
}
