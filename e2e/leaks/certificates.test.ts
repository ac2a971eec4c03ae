/**
 * Cross-space leak suite, CertificateSigningRequests (issue 16, item 5): the requests of t1 and
 * t2, same names included, are apart. t1's admin lists and watches only t1's, cannot read,
 * approve, deny or delete t2's (NotFound with stock kubectl, 403 through t2's or every space's
 * path), approving its own never issues t2's, and a certificate issued through a t1 request
 * works in t1 only.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opensslCertificateRequest } from '../../api/kinds/certificates/testing.js';
import { renderKubeconfig } from '../../src/bootstrap/kubeconfig.js';
import { createApiClient } from '../harness/api-client.js';
import { startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from '../harness/kubectl.js';
import { createTenants, eventually, grant, spaceAdmin, type UserCredentials } from '../harness/spaces.js';

const kubectlPath = kubectlForTests(['1.33']);
const GROUP_PATH = '/apis/certificates.k8s.io/v1';

function csrManifest(name: string, subject: string): { manifest: string; key: string } {
  const { csr, key } = opensslCertificateRequest(subject);
  const spec = { request: Buffer.from(csr).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] };
  return { manifest: JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec }), key };
}

describe.skipIf(kubectlPath === undefined)('certificate signing requests across spaces', () => {
  let cluster: TestCluster;
  let kubectl: Kubectl;
  let admin1: UserCredentials;
  let admin2: UserCredentials;
  let sameKeyT1: string;

  const csrOf = async (admin: UserCredentials, name: string) => (await admin.api.request('GET', `${GROUP_PATH}/certificatesigningrequests/${name}`)).json<{ status?: { conditions?: unknown[]; certificate?: string } }>();

  beforeAll(async () => {
    cluster = await startCluster('sqlite');
    await createTenants(cluster, 't1', 't2');
    [admin1, admin2] = await Promise.all([spaceAdmin(cluster, 't1', 'admin'), spaceAdmin(cluster, 't2', 'admin')]);
    await grant(cluster, { tenant: 't1', clusterRole: 'cluster-admin', group: 'dev' });
    await grant(cluster, { tenant: 't2', clusterRole: 'cluster-admin', group: 'dev' });
    kubectl = await createKubectl({ kubeconfig: admin1.kubeconfig });
    const sameT1 = csrManifest('same', '/CN=alice/O=dev');
    sameKeyT1 = sameT1.key;
    for (const [admin, manifest] of [
      [admin1, sameT1.manifest],
      [admin2, csrManifest('same', '/CN=alice/O=dev').manifest],
      [admin2, csrManifest('only-t2', '/CN=bob/O=dev').manifest],
    ] as const) {
      const created = await kubectl.run(['create', '-f', '-'], { kubeconfig: admin.kubeconfig, stdin: manifest });
      expect(created.code, created.stderr).toBe(0);
    }
  });

  afterAll(async () => {
    admin1?.api.close();
    admin2?.api.close();
    await kubectl?.cleanup();
    await cluster?.cleanup();
  });

  it("lists and watches only the caller's space's requests", async () => {
    const listed = await kubectl.run(['get', 'csr', '-o', 'name']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.trim().split('\n')).toEqual(['certificatesigningrequest.certificates.k8s.io/same']);
    const watched = await admin1.api.request('GET', `${GROUP_PATH}/certificatesigningrequests?watch=1&timeoutSeconds=1`);
    const names = watched.body.trim().split('\n').map((line) => (JSON.parse(line) as { object: { metadata: { name: string; tenant: string } } }).object.metadata);
    expect(names).toEqual([expect.objectContaining({ name: 'same', tenant: 't1' })]);
  });

  it("cannot read, approve, deny or delete another space's request", async () => {
    for (const args of [['get', 'csr', 'only-t2'], ['certificate', 'approve', 'only-t2'], ['certificate', 'deny', 'only-t2'], ['delete', 'csr', 'only-t2']]) {
      const result = await kubectl.run(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr).toMatch(/NotFound|not found/);
    }
    const t2Csr = (await admin2.api.request('GET', `${GROUP_PATH}/certificatesigningrequests/only-t2`)).json<Record<string, unknown>>();
    for (const [method, path, json] of [
      ['GET', `${GROUP_PATH}/tenants/t2/certificatesigningrequests/only-t2`, undefined],
      ['GET', `${GROUP_PATH}/tenants/all/certificatesigningrequests`, undefined],
      ['PUT', `${GROUP_PATH}/tenants/t2/certificatesigningrequests/only-t2/approval`, { ...t2Csr, status: { conditions: [{ type: 'Approved', status: 'True' }] } }],
      ['GET', `/tenants/t2${GROUP_PATH}/certificatesigningrequests`, undefined],
    ] as const) {
      const res = await admin1.api.request(method, path, json === undefined ? {} : { json });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await csrOf(admin2, 'only-t2')).status?.conditions).toBeUndefined();
  });

  it("approving a request issues that space's only, and its certificate works in that space only", async () => {
    const approved = await kubectl.run(['certificate', 'approve', 'same']);
    expect(approved.code, approved.stderr).toBe(0);
    let cert = '';
    await eventually('t1 same to be issued', async () => {
      cert = Buffer.from((await csrOf(admin1, 'same')).status?.certificate ?? '', 'base64').toString('utf8');
      return cert !== '';
    });
    expect(await csrOf(admin2, 'same')).not.toHaveProperty('status.certificate');
    expect((await csrOf(admin2, 'same')).status?.conditions).toBeUndefined();

    const clientCertificate = { cert, key: sameKeyT1 };
    const alice = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, clientCertificate });
    try {
      expect((await alice.request('GET', '/api/v1/namespaces')).status).toBe(200);
      expect((await alice.request('GET', '/tenants/t2/api/v1/namespaces')).status).toBe(403);
      expect((await alice.request('GET', '/api/v1/tenants/t2/namespaces')).status).toBe(403);
    } finally {
      alice.close();
    }
    const kubeconfig = join(cluster.server.dataDir, 'alice-t2.kubeconfig');
    await writeFile(kubeconfig, renderKubeconfig({ server: `${cluster.server.url}/tenants/t2`, caCert: cluster.server.caCert, userName: 'alice', clientCertificate }), { mode: 0o600 });
    const inT2 = await kubectl.run(['get', 'ns'], { kubeconfig });
    expect(inT2.code).not.toBe(0);
    expect(inT2.stderr).toMatch(/forbidden/i);
  });
});
