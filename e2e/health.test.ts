/**
 * The first end-to-end check: the built server on each backend, reached over HTTPS by stock
 * kubectl with the admin kubeconfig it wrote; a wrong token is refused, on the paths anonymous users
 * may read too (kubectl 1.27 and 1.33, as kube-apiserver refuses them); SIGTERM stops it cleanly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from './harness/etcd.js';
import { createKubectl, kubectlForTests, type Kubectl } from './harness/kubectl.js';
import { writeKubeconfig } from './harness/kubeconfig.js';
import { startServer, type ServerProcess } from './harness/server.js';

const kubectlPath = kubectlForTests(['dispatcher', '1.27', '1.33']);
const etcdBinary = etcdBinaryForTests();

describe.each([
  { backend: 'sqlite', missing: kubectlPath === undefined },
  { backend: 'etcd', missing: kubectlPath === undefined || etcdBinary === undefined },
])('health and version on the $backend backend', ({ backend, missing }) => {
  describe.skipIf(missing)('with stock kubectl', () => {
    let etcd: EtcdProcess | undefined;
    let server: ServerProcess;
    let kubectl: Kubectl;

    beforeAll(async () => {
      if (backend === 'etcd') etcd = await startEtcd({ binary: etcdBinary });
      server = await startServer({ etcdServers: etcd ? [etcd.endpoint] : [] });
      kubectl = await createKubectl({ kubeconfig: server.adminKubeconfig });
    });

    afterAll(async () => {
      await kubectl?.cleanup();
      await server?.cleanup();
      await etcd?.cleanup();
    });

    it.each(['dispatcher', '1.27'] as const)('kubectl version (%s) shows the server version v1.33', async (version) => {
      const result = await kubectl.run(['version'], { version });
      expect(result.code, result.stderr).toBe(0);
      // 1.27 prints the whole version.Info struct, 1.28+ the bare version.
      const serverLine = result.stdout.split('\n').find((line) => line.startsWith('Server Version: '));
      expect(serverLine).toMatch(/\bv1\.33\.\d+-kube-spaces\.\d+\.\d+\.\d+\b/);
      // The dispatcher ran the kubectl matching the minor we report.
      if (version === 'dispatcher') expect(result.stdout).toMatch(/^Client Version: v1\.33\./m);
    });

    it('get --raw /readyz prints ok', async () => {
      const result = await kubectl.run(['get', '--raw', '/readyz']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('ok');
    });

    it('get --raw /readyz?verbose lists the checks', async () => {
      const result = await kubectl.run(['get', '--raw', '/readyz?verbose']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual(['[+]ping ok', '[+]storage ok', '[+]shutdown ok', 'readyz check passed']);
    });

    it('refuses a wrong token with 401', async () => {
      const kubeconfig = await writeKubeconfig(server, { userName: 'intruder', token: 'not-a-valid-token' });
      const result = await kubectl.run(['get', '--raw', '/api'], { kubeconfig, version: '1.33' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('You must be logged in to the server');
    });

    it.each(['1.27', '1.33'] as const)('kubectl %s: a wrong token is 401 on /healthz, /livez, /readyz and /version too', async (version) => {
      const kubeconfig = await writeKubeconfig(server, { userName: 'intruder', token: 'not-a-valid-token' });
      for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
        const result = await kubectl.run(['get', '--raw', path], { kubeconfig, version });
        expect(result.code, `${path}: ${result.stdout}`).toBe(1);
        expect(result.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
      }
    });

    it('stops cleanly on SIGTERM', async () => {
      const status = await server.stop('SIGTERM');
      expect(status).toEqual({ code: 0, signal: null });
      expect(server.output()).toContain('"shutdown complete"');
    });
  });
});
