/**
 * Client certificates end to end (issue 6, items 1, 2 and 4): `kube-spaces kubeconfig` issues a
 * tenant user a certificate signed by the server's client CA, and stock kubectl works with it in
 * that user's space. Certificates from another CA, without exactly one tenant, or expired are
 * refused with 401 ("You must be logged in to the server"), logged, and the server keeps serving.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CertificateAndKey, createCa, issueClientCertificate } from '../src/bootstrap/certificates.js';
import { readClientCa } from '../src/bootstrap/client-ca.js';
import { renderKubeconfig } from '../src/bootstrap/kubeconfig.js';
import { craftCertificate } from './harness/certificates.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { certificateKubeconfig, eventually, grantAndWait, tenantManifest, waitForTenantPhase, type CertificateCredentials } from './harness/spaces.js';

const versions: KubectlVersion[] = ['1.27', '1.33'];
const kubectlPath = kubectlForTests(versions);

describe.each(backendCases(kubectlPath !== undefined))('client certificates on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let carol: CertificateCredentials;
    let clientCa: CertificateAndKey;

    /** Writes a kubeconfig presenting `certificate` as user `name`. */
    async function kubeconfigWith(name: string, certificate: CertificateAndKey): Promise<string> {
      const path = join(cluster.server.dataDir, `${name}.kubeconfig`);
      const text = renderKubeconfig({ server: cluster.server.url, caCert: cluster.server.caCert, userName: name, clientCertificate: certificate });
      await writeFile(path, text, { mode: 0o600 });
      return path;
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      const applied = await kubectl.run(['apply', '-f', '-'], { stdin: tenantManifest('t1') });
      expect(applied.code, applied.stderr).toBe(0);
      await waitForTenantPhase(cluster, 't1', 'Active');
      carol = await certificateKubeconfig(cluster, { tenant: 't1', user: 'carol', groups: ['dev', 'ops'] });
      // carol's rights come from a group her certificate names (an OU), as a team's would.
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', group: 'dev' }, carol.api, '/api/v1/namespaces');
      clientCa = await readClientCa(cluster.server.dataDir);
    });

    afterAll(async () => {
      carol?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('names the client CA in the TLS handshake, so clients choosing a certificate by CA pick ours', () => {
      const probe = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${cluster.server.port}`], { input: '', encoding: 'utf8', timeout: 20_000 });
      expect(probe.error).toBeUndefined();
      const listed = probe.stdout.split('Acceptable client certificate CA names\n')[1]?.split('\n')[0];
      // openssl prints `CN = x` where Node's subject reads `CN=x`.
      expect(listed?.replace(/ = /g, '=')).toBe(new X509Certificate(clientCa.cert).subject);
    });

    for (const version of versions) {
      it(`lets a tenant user's certificate kubeconfig work in their space (kubectl ${version})`, async () => {
        const name = `carol-${version.replace('.', '-')}`;
        const created = await kubectl.run(['create', 'namespace', name], { kubeconfig: carol.kubeconfig, version });
        expect(created.code, created.stderr).toBe(0);
        const listed = await kubectl.run(['get', 'namespaces', '-o', 'name'], { kubeconfig: carol.kubeconfig, version });
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout.trim().split('\n')).toEqual(expect.arrayContaining(['namespace/default', 'namespace/kube-system', `namespace/${name}`]));
        // Made in t1, the space the certificate names, not in the system space.
        expect(await cluster.read(`/api/v1/tenants/t1/namespaces/${name}`)).not.toBeNull();
        expect(await cluster.read(`/api/v1/namespaces/${name}`)).toBeNull();
      });

      it(`shows the certificate's user, groups and tenant in auth whoami (kubectl ${version})`, async () => {
        const result = await kubectl.run(['auth', 'whoami'], { kubeconfig: carol.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^Username\s+carol$/m);
        expect(result.stdout).toMatch(/^Groups\s+\[dev ops system:authenticated\]$/m);
        expect(result.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t1\]$/m);
      });
    }

    it.each<[string, () => Promise<CertificateAndKey>, RegExp]>([
      ['signed by another CA', async () => issueClientCertificate(await createCa('kube-spaces-client-ca'), { user: 'mallory', tenant: 't1', groups: ['system:masters'] }), /not signed by the client CA/],
      ['without a tenant', () => craftCertificate(clientCa, [{ CN: ['dave'] }, { O: ['system:masters'] }]), /names 0 tenants/],
      ['with two tenants', () => craftCertificate(clientCa, [{ CN: ['erin'] }, { O: ['tenant:t1'] }, { O: ['tenant:system'] }]), /names 2 tenants/],
      ['that has expired', () => craftCertificate(clientCa, [{ CN: ['frank'] }, { O: ['tenant:t1'] }], { notAfter: new Date(Date.now() - 60_000) }), /expired/],
    ])('refuses a certificate %s with 401, logs why, and keeps serving', async (what, make, logged) => {
      const kubeconfig = await kubeconfigWith(what.replaceAll(' ', '-'), await make());
      for (const version of versions) {
        const result = await kubectl.run(['get', 'namespaces'], { kubeconfig, version });
        expect(result.code).not.toBe(0);
        expect(result.stderr).toContain('You must be logged in to the server');
      }
      await eventually('the refusal to be logged', async () => cluster.server.output().split('\n').some((line) => line.includes('client certificate refused') && logged.test(line)));
      const admin = await kubectl.run(['get', '--raw', '/readyz']);
      expect(admin.code, admin.stderr).toBe(0);
    });
  });
});
