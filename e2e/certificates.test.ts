/**
 * Onboarding users with CertificateSigningRequests, and revoking credentials (issue 16, item 5),
 * with stock kubectl: t1's admin submits a CSR made by openssl, approves it with `kubectl
 * certificate approve` (JSON from kubectl 1.27, protobuf from 1.33), and the certificate the
 * signer issues works in t1 as the user the request named; a denied request gets no
 * certificate; `kubectl get csr` prints kube's columns. `kube-spaces credentials revoke` then
 * makes that certificate, and a token-file token, answer 401 within about a second. (The
 * cross-space cases are in e2e/leaks/certificates.test.ts.) One backend: nothing here touches
 * storage beyond what the other suites cover on both.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opensslCertificateRequest } from '../api/kinds/certificates/testing.js';
import { tokenDigest } from '../authz/token-file.js';
import { renderKubeconfig } from '../src/bootstrap/kubeconfig.js';
import { createApiClient, type ApiClient } from './harness/api-client.js';
import { startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { CLI_PATH } from './harness/server.js';
import { createTenants, eventually, grant, spaceAdmin, userKubeconfig, type UserCredentials } from './harness/spaces.js';

const run = promisify(execFile);
const versions: KubectlVersion[] = ['1.27', '1.33'];
const kubectlPath = kubectlForTests(versions);
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

function csrManifest(name: string, request: string, expirationSeconds?: number): string {
  const spec = { request: Buffer.from(request).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...(expirationSeconds ? { expirationSeconds } : {}) };
  return JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec });
}

describe.skipIf(kubectlPath === undefined)('certificate signing requests and revocation', () => {
  let cluster: TestCluster;
  let kubectl: Kubectl;
  let admin: UserCredentials;
  /** alice's certificate, issued through the CSR kubectl 1.33 approved. */
  let alice: { kubeconfig: string; api: ApiClient };

  /** Creates a CSR for `subject` as t1's admin; returns the key the user keeps. */
  async function submit(name: string, subject: string, expirationSeconds?: number): Promise<string> {
    const { csr, key } = opensslCertificateRequest(subject);
    const created = await kubectl.run(['create', '-f', '-'], { stdin: csrManifest(name, csr, expirationSeconds) });
    expect(created.code, created.stderr).toBe(0);
    return key;
  }

  /** The issued certificate of t1's CSR `name`, once the signer wrote it. */
  async function issuedCertificate(name: string): Promise<string> {
    let certificate = '';
    await eventually(`${name}'s certificate`, async () => {
      const csr = (await admin.api.request('GET', `${CSRS}/${name}`)).json<{ status?: { certificate?: string } }>();
      certificate = Buffer.from(csr.status?.certificate ?? '', 'base64').toString('utf8');
      return certificate !== '';
    });
    return certificate;
  }

  async function certificateUser(name: string, key: string): Promise<{ kubeconfig: string; api: ApiClient }> {
    const clientCertificate = { cert: await issuedCertificate(name), key };
    const kubeconfig = join(cluster.server.dataDir, `${name}-csr.kubeconfig`);
    await writeFile(kubeconfig, renderKubeconfig({ server: `${cluster.server.url}/tenants/t1`, caCert: cluster.server.caCert, userName: name, clientCertificate }), { mode: 0o600 });
    return { kubeconfig, api: createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, clientCertificate }) };
  }

  const credentials = (...args: string[]) => run(process.execPath, [CLI_PATH, 'credentials', ...args, '--data-dir', cluster.server.dataDir]);

  beforeAll(async () => {
    cluster = await startCluster('sqlite');
    await createTenants(cluster, 't1');
    admin = await spaceAdmin(cluster, 't1', 'root');
    kubectl = await createKubectl({ kubeconfig: admin.kubeconfig });
    // The users onboarded here are in group dev, which may do everything in t1.
    await grant(cluster, { tenant: 't1', clusterRole: 'cluster-admin', group: 'dev' });
    const key = await submit('alice', '/CN=alice/O=dev', 86400);
    const approved = await kubectl.run(['certificate', 'approve', 'alice'], { version: '1.33' });
    expect(approved.code, approved.stderr).toBe(0);
    alice = await certificateUser('alice', key);
  });

  afterAll(async () => {
    admin?.api.close();
    alice?.api.close();
    await kubectl?.cleanup();
    await cluster?.cleanup();
  });

  it('prints requests with the columns kubectl users know, the requester set by the server', async () => {
    const listed = await kubectl.run(['get', 'csr', 'alice']);
    expect(listed.code, listed.stderr).toBe(0);
    const [header, row] = listed.stdout.trim().split('\n');
    expect(header!.split(/\s+/)).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(row!.split(/\s+/)).toEqual(['alice', expect.any(String), 'kubernetes.io/kube-apiserver-client', 'root', '24h', 'Approved,Issued']);
    const described = await kubectl.run(['describe', 'csr', 'alice']);
    expect(described.code, described.stderr).toBe(0);
    expect(described.stdout).toMatch(/^Requesting User:\s+root$/m);
    expect(described.stdout).toMatch(/^Status:\s+Approved,Issued$/m);
  });

  for (const version of versions) {
    it(`issues a certificate that works in t1 as the requested user once approved (kubectl ${version})`, async () => {
      const name = `bob-${version.replace('.', '-')}`;
      const key = await submit(name, `/CN=${name}/O=dev/O=qa`);
      const approved = await kubectl.run(['certificate', 'approve', name], { version });
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout.trim()).toBe(`certificatesigningrequest.certificates.k8s.io/${name} approved`);
      const user = await certificateUser(name, key);
      try {
        const namespaces = await kubectl.run(['get', 'ns', '-o', 'name'], { kubeconfig: user.kubeconfig, version });
        expect(namespaces.code, namespaces.stderr).toBe(0);
        expect(namespaces.stdout).toMatch(/^namespace\/default$/m);
        const whoami = await kubectl.run(['auth', 'whoami'], { kubeconfig: user.kubeconfig, version });
        expect(whoami.code, whoami.stderr).toBe(0);
        expect(whoami.stdout).toMatch(new RegExp(`^Username\\s+${name}$`, 'm'));
        expect(whoami.stdout).toMatch(/^Groups\s+\[dev qa system:authenticated\]$/m);
        expect(whoami.stdout).toMatch(/kube-spaces\.io\/tenant\s+\[t1\]/);
      } finally {
        user.api.close();
      }
    });
  }

  it('issues nothing for a denied request', async () => {
    await submit('dave', '/CN=dave/O=dev');
    const denied = await kubectl.run(['certificate', 'deny', 'dave']);
    expect(denied.code, denied.stderr).toBe(0);
    await eventually('dave to be denied', async () => (await kubectl.run(['get', 'csr', 'dave', '--no-headers'])).stdout.includes('Denied'));
    // Time for a signer that would (wrongly) issue it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const csr = (await admin.api.request('GET', `${CSRS}/dave`)).json<{ status?: { certificate?: string } }>();
    expect(csr.status?.certificate).toBeUndefined();
    const approveDenied = await kubectl.run(['certificate', 'approve', 'dave']);
    expect(approveDenied.code).not.toBe(0);
  });

  it('refuses a request for system:masters', async () => {
    const { csr } = opensslCertificateRequest('/CN=mallory/O=system:masters');
    const created = await kubectl.run(['create', '-f', '-'], { stdin: csrManifest('mallory', csr) });
    expect(created.code).not.toBe(0);
    expect(created.stderr).toMatch(/use of kubernetes.io\/kube-apiserver-client signer with system:masters group is not allowed/);
  });

  it('lists what was issued and revokes a certificate: 401 within about a second', async () => {
    expect((await alice.api.request('GET', '/api/v1/namespaces')).status).toBe(200);
    const { stdout: listed } = await credentials('list');
    const aliceRow = listed.split('\n').find((line) => line.includes('\tcsr/alice\t'));
    expect(aliceRow?.split('\t')).toEqual(['certificate', expect.stringMatching(/^[0-9a-f]+$/), 't1', 'alice', 'dev', 'csr/alice', expect.any(String), expect.any(String), 'no']);

    const { stdout } = await credentials('revoke', '--tenant', 't1', '--user', 'alice');
    expect(stdout).toMatch(/^certificate [0-9a-f]+ revoked$/m);
    const revokedAt = Date.now();
    await eventually('alice to be refused', async () => (await alice.api.request('GET', '/api/v1/namespaces')).status === 401, 3000);
    expect(Date.now() - revokedAt).toBeLessThan(3000);
    const result = await kubectl.run(['get', 'ns'], { kubeconfig: alice.kubeconfig });
    expect(result.stderr).toMatch(/You must be logged in to the server/);
    expect(cluster.server.output()).toMatch(/client certificate refused: revoked/);
  });

  it('revokes a token: 401 within about a second', async () => {
    const erin = await userKubeconfig(cluster, { tenant: 't1', user: 'erin' });
    try {
      await credentials('revoke', tokenDigest(erin.token));
      await eventually('erin to be refused', async () => (await erin.api.request('GET', '/api')).status === 401, 3000);
      const { stdout } = await credentials('list');
      expect(stdout.split('\n').find((line) => line.startsWith(`token\t${tokenDigest(erin.token)}\t`))?.endsWith('\tyes')).toBe(true);
    } finally {
      erin.api.close();
    }
  });
});
