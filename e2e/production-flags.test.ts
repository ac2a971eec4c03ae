/**
 * Production flags end to end (issue 16, item 6): the server on an etcd that requires client
 * certificates (`--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`), every key under
 * `--etcd-prefix`, two servers sharing one etcd under two prefixes without seeing each other;
 * the operator's own serving certificate and client CA (`--tls-cert-file`,
 * `--tls-private-key-file`, `--client-ca-file`) given through a `--config` file and a
 * KUBE_SPACES_* variable; and the `kube-spaces` bin, executable as built.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueClientCertificate, issueServingCertificate } from '../src/bootstrap/certificates.js';
import { renderKubeconfig } from '../src/bootstrap/kubeconfig.js';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from './harness/etcd.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { CLI_PATH, startServer, type ServerProcess } from './harness/server.js';
import { eventually } from './harness/spaces.js';

const run = promisify(execFile);
const kubectlPath = kubectlForTests(['dispatcher']);
const etcdBinary = kubectlPath === undefined ? undefined : etcdBinaryForTests();

describe('the kube-spaces bin', () => {
  it('is executable as built, with a shebang, so npx kube-spaces and npm link run it', async () => {
    accessSync(CLI_PATH, constants.X_OK);
    expect(readFileSync(CLI_PATH, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const { stdout } = await run(CLI_PATH, ['--help']);
    expect(stdout).toMatch(/kube-spaces serve/);
  });
});

describe.skipIf(etcdBinary === undefined)('an etcd with client-certificate auth, under --etcd-prefix', () => {
  let etcd: EtcdProcess;
  let a: ServerProcess;
  let b: ServerProcess;
  let kubectl: Kubectl;

  const etcdTlsArgs = (): string[] => {
    const tls = etcd.clientTls!;
    return [`--etcd-cafile=${tls.caFile}`, `--etcd-certfile=${tls.certFile}`, `--etcd-keyfile=${tls.keyFile}`];
  };

  /** etcdctl with the client certificate: the keys under `prefix`. */
  async function etcdKeys(prefix: string): Promise<string[]> {
    const tls = etcd.clientTls!;
    const { stdout } = await run('etcdctl', [`--endpoints=${etcd.endpoint}`, `--cacert=${tls.caFile}`, `--cert=${tls.certFile}`, `--key=${tls.keyFile}`, 'get', prefix, '--prefix', '--keys-only'], {
      env: { ...process.env, ETCDCTL_API: '3' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.split('\n').filter((line) => line !== '');
  }

  beforeAll(async () => {
    etcd = await startEtcd({ binary: etcdBinary, tls: true });
    expect(etcd.endpoint).toMatch(/^https:/);
    [a, b] = await Promise.all([
      startServer({ etcdServers: [etcd.endpoint], extraArgs: [...etcdTlsArgs(), '--etcd-prefix=/kube-spaces-a'] }),
      // The prefix from the environment, as a container would pass it.
      startServer({ etcdServers: [etcd.endpoint], extraArgs: etcdTlsArgs(), env: { KUBE_SPACES_ETCD_PREFIX: '/kube-spaces-b' } }),
    ]);
    kubectl = await createKubectl({ kubeconfig: a.adminKubeconfig });
  });

  afterAll(async () => {
    await kubectl?.cleanup();
    await a?.cleanup();
    await b?.cleanup();
    await etcd?.cleanup();
  });

  it('refuses a client without a certificate', async () => {
    const tls = etcd.clientTls!;
    const attempt = run('etcdctl', [`--endpoints=${etcd.endpoint}`, `--cacert=${tls.caFile}`, '--dial-timeout=2s', '--command-timeout=3s', 'get', '/', '--prefix', '--keys-only'], {
      env: { ...process.env, ETCDCTL_API: '3' },
    });
    await expect(attempt).rejects.toThrow();
  });

  it('serves stock kubectl over it', async () => {
    const created = await kubectl.run(['create', 'namespace', 'on-mtls']);
    expect(created.code, created.stderr).toBe(0);
    const got = await kubectl.run(['get', 'namespace', 'on-mtls', '-o', 'name']);
    expect(got.stdout.trim()).toBe('namespace/on-mtls');
  });

  it('keeps every key of each server under its prefix, and the servers apart', async () => {
    const all = await etcdKeys('/');
    const [underA, underB] = [all.filter((k) => k.startsWith('/kube-spaces-a/registry/')), all.filter((k) => k.startsWith('/kube-spaces-b/registry/'))];
    expect(underA.length).toBeGreaterThan(0);
    expect(underB.length).toBeGreaterThan(0);
    expect(all.length).toBe(underA.length + underB.length);
    expect(underA).toContain('/kube-spaces-a/registry/core/namespaces/system/on-mtls');
    expect(underB).not.toContain('/kube-spaces-b/registry/core/namespaces/system/on-mtls');
    const fromB = await kubectl.run(['get', 'namespace', 'on-mtls'], { kubeconfig: b.adminKubeconfig });
    expect(fromB.code).not.toBe(0);
    expect(fromB.stderr).toMatch(/NotFound|not found/);
  });
});

describe.skipIf(kubectlPath === undefined)('PKI the operator brings and --event-ttl, from a --config file and the environment', () => {
  let dir: string;
  let server: ServerProcess;
  let kubectl: Kubectl;
  let operatorClientKubeconfig: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-spaces-pki-'));
    const servingCa = await createCa('operator-serving-ca');
    const serving = await issueServingCertificate(servingCa, ['127.0.0.1', 'localhost']);
    const clientCa = await createCa('operator-client-ca');
    const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key'), clientCa: join(dir, 'client-ca.pem'), config: join(dir, 'serve.yaml') };
    // A full chain, as web servers take it: the leaf, then its CA.
    await writeFile(files.cert, serving.cert + servingCa.cert);
    await writeFile(files.key, serving.key, { mode: 0o600 });
    await writeFile(files.clientCa, clientCa.cert);
    await writeFile(files.config, `tls-cert-file: ${files.cert}\ntls-private-key-file: ${files.key}\nevent-ttl: 2s\n`);
    server = await startServer({ extraArgs: [`--config=${files.config}`], env: { KUBE_SPACES_CLIENT_CA_FILE: files.clientCa }, servingCa: servingCa.cert });
    kubectl = await createKubectl({ kubeconfig: server.adminKubeconfig });
    const root = await issueClientCertificate(clientCa, { user: 'root', tenant: 'system', groups: ['system:masters'] });
    operatorClientKubeconfig = join(dir, 'root.kubeconfig');
    await writeFile(operatorClientKubeconfig, renderKubeconfig({ server: server.url, caCert: servingCa.cert, userName: 'root', clientCertificate: root }), { mode: 0o600 });
  });

  afterAll(async () => {
    await kubectl?.cleanup();
    await server?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves the operator\'s certificate: the admin kubeconfig trusts the operator\'s CA and works', async () => {
    const result = await kubectl.run(['get', 'namespaces', '-o', 'name']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('namespace/default');
  });

  it('trusts client certificates of the operator\'s client CA', async () => {
    const result = await kubectl.run(['auth', 'whoami'], { kubeconfig: operatorClientKubeconfig });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Username\s+root$/m);
  });

  it('lets events go --event-ttl after their last write', async () => {
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'short-lived', namespace: 'default' }, involvedObject: { kind: 'Namespace', name: 'default' }, reason: 'Test', message: 'kept two seconds' };
    const created = await kubectl.run(['create', '-f', '-'], { stdin: JSON.stringify(event) });
    expect(created.code, created.stderr).toBe(0);
    await eventually('the event to expire', async () => (await kubectl.run(['get', 'event', 'short-lived', '-n', 'default'])).stderr.includes('NotFound'), 20_000);
  });

  it('trusts no certificate of the data directory\'s own client CA, which --client-ca-file replaces', async () => {
    const { stdout } = await run(CLI_PATH, ['kubeconfig', `--data-dir=${server.dataDir}`, '--tenant=system', '--user=other', '--group=system:masters']);
    const path = join(dir, 'other.kubeconfig');
    await writeFile(path, stdout, { mode: 0o600 });
    const result = await kubectl.run(['get', 'namespaces'], { kubeconfig: path });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/must be logged in|Unauthorized/);
  });
});
