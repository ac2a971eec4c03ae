/**
 * Cross-space leak suite, credentials of an earlier incarnation (issue 16, item 5): deleting
 * tenant acme and creating acme again leaves the old admin's certificate and token dead (401,
 * as a wrong credential), while credentials issued for the new acme work; `kube-spaces
 * kubeconfig` refuses a tenant that does not exist.
 */
import { execFile } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl } from '../harness/kubectl.js';
import { CLI_PATH } from '../harness/server.js';
import { certificateKubeconfig, createTenants, eventually, grantAndWait, userKubeconfig, type CertificateCredentials, type UserCredentials } from '../harness/spaces.js';

const run = promisify(execFile);
const kubectlPath = kubectlForTests(['1.33']);

describe.each(backendCases(kubectlPath !== undefined))('credentials of a recreated tenant on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('acme deleted and created again', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let oldAdmin: CertificateCredentials;
    let oldToken: UserCredentials;
    let newAdmin: CertificateCredentials;
    let oldAdminKubeconfig: string;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 'acme');
      oldAdmin = await certificateKubeconfig(cluster, { tenant: 'acme', user: 'admin' });
      oldToken = await userKubeconfig(cluster, { tenant: 'acme', user: 'ops' });
      await grantAndWait(cluster, { tenant: 'acme', clusterRole: 'cluster-admin', user: 'admin' }, oldAdmin.api, '/api/v1/namespaces');
      expect((await oldToken.api.request('GET', '/api')).status).toBe(200);
      // The new admin's kubeconfig is written to the same path: keep the old one apart.
      oldAdminKubeconfig = join(cluster.server.dataDir, 'old-admin-acme.kubeconfig');
      await copyFile(oldAdmin.kubeconfig, oldAdminKubeconfig);

      expect((await cluster.api.request('DELETE', '/api/v1/tenants/acme')).status).toBe(200);
      await eventually('acme to be gone', async () => (await cluster.read('/api/v1/tenants/acme')) === null, 60_000);
      await createTenants(cluster, 'acme');
      newAdmin = await certificateKubeconfig(cluster, { tenant: 'acme', user: 'admin' });
      await grantAndWait(cluster, { tenant: 'acme', clusterRole: 'cluster-admin', user: 'admin' }, newAdmin.api, '/api/v1/namespaces');
    });

    afterAll(async () => {
      for (const c of [oldAdmin, oldToken, newAdmin]) c?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('refuses the old admin certificate with 401, though a binding for admin exists in the new acme', async () => {
      expect((await oldAdmin.api.request('GET', '/api/v1/namespaces')).status).toBe(401);
      const result = await kubectl.run(['get', 'namespaces'], { kubeconfig: oldAdminKubeconfig });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/You must be logged in to the server/);
      expect(cluster.server.output()).toMatch(/credential refused: issued for an earlier incarnation of its tenant/);
    });

    it('refuses the old token with 401', async () => {
      expect((await oldToken.api.request('GET', '/api')).status).toBe(401);
    });

    it('accepts the new admin certificate', async () => {
      const result = await kubectl.run(['get', 'namespaces', '-o', 'name'], { kubeconfig: newAdmin.kubeconfig });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('namespace/default');
    });

    it('issues no credential for a tenant that does not exist', async () => {
      const attempt = run(process.execPath, [CLI_PATH, 'kubeconfig', '--data-dir', cluster.server.dataDir, '--tenant', 'ghost', '--user', 'admin']);
      await expect(attempt).rejects.toThrow(/tenant "ghost" does not exist: create it first/);
    });
  });
});
