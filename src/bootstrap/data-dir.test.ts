import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TokenFile } from '../../authz/token-file.js';
import { ensureAdminKubeconfig, serverUrl } from './admin-kubeconfig.js';
import { prepareDataDir, servingHosts } from './data-dir.js';

const logger = pino({ level: 'silent' });

describe('prepareDataDir', () => {
  let root: string;
  let dataDir: string;
  const options = () => ({ dataDir, tokenAuthFile: join(dataDir, 'tokens.csv'), tlsSans: [], bindAddress: '127.0.0.1' });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'data-dir-'));
    dataDir = join(root, 'state');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const mode = async (name: string) => (await stat(join(dataDir, name))).mode & 0o777;

  it('creates the directory, CA, serving certificate, client CA and admin token with private modes', async () => {
    const prepared = await prepareDataDir(options(), logger);
    expect(await mode('.')).toBe(0o700);
    expect(await mode('ca.key')).toBe(0o600);
    expect(await mode('client-ca.key')).toBe(0o600);
    expect(await readFile(join(dataDir, 'client-ca.crt'), 'utf8')).toBe(prepared.clientCa.cert);
    expect(new X509Certificate(prepared.clientCa.cert).subject).toBe('CN=kube-spaces-client-ca');
    expect(await mode('serving.key')).toBe(0o600);
    expect(await mode('tokens.csv')).toBe(0o600);
    expect(await readFile(join(dataDir, 'ca.crt'), 'utf8')).toBe(prepared.ca.cert);
    expect(prepared.adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const tokens = await TokenFile.load(join(dataDir, 'tokens.csv'), logger);
    const admin = await tokens.lookup(prepared.adminToken!);
    expect(admin).toMatchObject({ name: 'admin', groups: ['system:masters'], tenant: 'system' });
    expect(admin?.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reuses everything on a second start', async () => {
    const first = await prepareDataDir(options(), logger);
    const second = await prepareDataDir(options(), logger);
    expect(second).toEqual(first);
  });

  it('reissues only the serving certificate, from the same CA, when a new --tls-san is asked for', async () => {
    const first = await prepareDataDir(options(), logger);
    const second = await prepareDataDir({ ...options(), tlsSans: ['kube.example.test', '10.1.2.3'] }, logger);
    expect(second.ca).toEqual(first.ca);
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.serving.cert).not.toBe(first.serving.cert);
    const cert = new X509Certificate(second.serving.cert);
    expect(cert.checkHost('kube.example.test')).toBe('kube.example.test');
    expect(cert.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(cert.checkIssued(new X509Certificate(first.ca.cert))).toBe(true);
  });

  it('remakes a pair whose files do not belong together (an interrupted first start)', async () => {
    const first = await prepareDataDir(options(), logger);
    await rm(join(dataDir, 'serving.key'));
    const second = await prepareDataDir(options(), logger);
    expect(second.ca).toEqual(first.ca);
    expect(second.serving.key).not.toBe(first.serving.key);
  });

  it('puts a specific bind address, not a wildcard, into the serving certificate', () => {
    expect(servingHosts({ tlsSans: ['a.test', 'localhost'], bindAddress: '127.0.0.2' })).toEqual(['localhost', '127.0.0.1', '::1', 'a.test', '127.0.0.2']);
    expect(servingHosts({ tlsSans: [], bindAddress: '0.0.0.0' })).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(servingHosts({ tlsSans: [], bindAddress: '::' })).toEqual(['localhost', '127.0.0.1', '::1']);
  });
});

describe('ensureAdminKubeconfig', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kubeconfig-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes the kubeconfig once, then only points it at the new port', async () => {
    const spec = { server: 'https://127.0.0.1:6443', caCert: 'PEM', token: 'secret' };
    const path = await ensureAdminKubeconfig(dataDir, spec, logger);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const first = parse(await readFile(path, 'utf8'));
    expect(first).toMatchObject({
      'current-context': 'admin@kube-spaces',
      clusters: [{ name: 'kube-spaces', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64') } }],
      users: [{ name: 'admin', user: { token: 'secret' } }],
    });

    await ensureAdminKubeconfig(dataDir, { ...spec, server: 'https://127.0.0.1:7443' }, logger);
    const second = parse(await readFile(path, 'utf8'));
    expect(second.clusters[0].cluster.server).toBe('https://127.0.0.1:7443');
    expect(second.users).toEqual(first.users);
  });

  it('names a client-reachable server URL', () => {
    expect(serverUrl('127.0.0.1', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('0.0.0.0', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('::', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('::1', 6443)).toBe('https://[::1]:6443');
  });
});
