import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TokenFile } from '../../authz/token-file.js';
import { ensureAdminKubeconfig, serverUrl } from './admin-kubeconfig.js';
import { createCa, issueServingCertificate } from './certificates.js';
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
    expect(await readFile(join(dataDir, 'ca.crt'), 'utf8')).toBe(prepared.servingCaBundle);
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
    expect(second.servingCaBundle).toBe(first.servingCaBundle);
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.serving.cert).not.toBe(first.serving.cert);
    const cert = new X509Certificate(second.serving.cert);
    expect(cert.checkHost('kube.example.test')).toBe('kube.example.test');
    expect(cert.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(cert.checkIssued(new X509Certificate(first.servingCaBundle))).toBe(true);
  });

  it('remakes a pair whose files do not belong together (an interrupted first start)', async () => {
    const first = await prepareDataDir(options(), logger);
    await rm(join(dataDir, 'serving.key'));
    const second = await prepareDataDir(options(), logger);
    expect(second.servingCaBundle).toBe(first.servingCaBundle);
    expect(second.serving.key).not.toBe(first.serving.key);
  });

  it('serves the operator\'s certificate and trusts the operator\'s client CAs when given files', async () => {
    const operatorCa = await createCa('operator-ca');
    const serving = await issueServingCertificate(operatorCa, ['kube.example.test']);
    const otherCa = await createCa('other-client-ca');
    await rm(root, { recursive: true, force: true });
    await mkdir(root, { recursive: true });
    const files = { cert: join(root, 'tls.crt'), key: join(root, 'tls.key'), clientCa: join(root, 'client-ca.pem') };
    await writeFile(files.cert, serving.cert + operatorCa.cert);
    await writeFile(files.key, serving.key);
    await writeFile(files.clientCa, operatorCa.cert + otherCa.cert);
    const prepared = await prepareDataDir({ ...options(), servingFiles: { certFile: files.cert, keyFile: files.key }, clientCaFile: files.clientCa }, logger);
    // Each PEM block on its own lines again, though the file had them touching.
    expect(prepared.serving).toEqual({ cert: `${serving.cert}\n${operatorCa.cert}\n`, key: serving.key });
    expect(prepared.servingCaBundle).toBe(`${operatorCa.cert}\n`);
    expect(prepared.clientCaBundle).toBe(`${operatorCa.cert}\n${otherCa.cert}\n`);
    // Nothing of the data directory's serving PKI is made; its client CA still is, for `kube-spaces kubeconfig`.
    await expect(stat(join(dataDir, 'serving.crt'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dataDir, 'client-ca.crt'), 'utf8')).toBe(prepared.clientCa.cert);
  });

  it('refuses a key that is not the certificate\'s, and a client CA file holding a leaf', async () => {
    const ca = await createCa('operator-ca');
    const serving = await issueServingCertificate(ca, ['a.test']);
    const other = await issueServingCertificate(ca, ['b.test']);
    await mkdir(dataDir, { recursive: true });
    const files = { cert: join(root, 'tls.crt'), key: join(root, 'tls.key'), leaf: join(root, 'leaf.pem') };
    await writeFile(files.cert, serving.cert);
    await writeFile(files.key, other.key);
    await writeFile(files.leaf, serving.cert);
    await expect(prepareDataDir({ ...options(), servingFiles: { certFile: files.cert, keyFile: files.key } }, logger)).rejects.toThrow(/is not the key of the first certificate/);
    await expect(prepareDataDir({ ...options(), clientCaFile: files.leaf }, logger)).rejects.toThrow(/certificate 1 is not a CA/);
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

  it('writes the kubeconfig once and never rewrites it (replicas sharing the data dir start on other ports)', async () => {
    const spec = { server: 'https://127.0.0.1:6443', caCert: 'PEM', token: 'secret' };
    const path = await ensureAdminKubeconfig(dataDir, spec, logger);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const first = parse(await readFile(path, 'utf8'));
    expect(first).toMatchObject({
      'current-context': 'admin@kube-spaces',
      clusters: [{ name: 'kube-spaces', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64') } }],
      users: [{ name: 'admin', user: { token: 'secret' } }],
    });

    const written = await readFile(path, 'utf8');
    await ensureAdminKubeconfig(dataDir, { ...spec, server: 'https://127.0.0.1:7443' }, logger);
    expect(await readFile(path, 'utf8')).toBe(written);
  });

  it('names a client-reachable server URL', () => {
    expect(serverUrl('127.0.0.1', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('0.0.0.0', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('::', 6443)).toBe('https://127.0.0.1:6443');
    expect(serverUrl('::1', 6443)).toBe('https://[::1]:6443');
  });
});
