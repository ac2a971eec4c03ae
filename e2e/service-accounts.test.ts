/**
 * Service accounts with stock kubectl (1.27 sends JSON, 1.33 protobuf): every namespace gets a
 * `default` account, `kubectl create token` issues a token that works as a kubeconfig of its own,
 * in its own space, and the tokens of a deleted and recreated account stop working. Forged,
 * unsigned, expired and wrong-audience tokens are refused with 401 and logged.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ACCOUNT_KEY_FILE } from '../src/bootstrap/service-account-key.js';
import { createApiClient } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { writeKubeconfig } from './harness/kubeconfig.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlVersion } from './harness/kubectl.js';
import { eventually, grantAndWait, userKubeconfig, waitForTenantPhase, type UserCredentials } from './harness/spaces.js';

const VERSIONS = ['1.27', '1.33'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

/** The claims of a JWT, unverified (the test only reads what the server put there). */
function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe.each(backendCases(kubectlPath !== undefined))('service accounts on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    let kubectl: Kubectl;
    let alice: UserCredentials;

    /** `kubectl create token` as alice; the token it prints. */
    async function createToken(version: KubectlVersion, ...extra: string[]): Promise<string> {
      const result = await kubectl.run(['create', 'token', 'default', '-n', 'ns1', ...extra], { kubeconfig: alice.kubeconfig, version });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout.trim();
    }

    async function accountUid(): Promise<string> {
      const result = await kubectl.run(['get', 'serviceaccount', 'default', '-n', 'ns1', '-o', 'jsonpath={.metadata.uid}'], { kubeconfig: alice.kubeconfig });
      return result.code === 0 ? result.stdout : '';
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      kubectl = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      const created = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } } });
      expect(created.status, created.body).toBe(201);
      await waitForTenantPhase(cluster, 't1', 'Active');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      // alice manages her space; ns1's default account may read in ns1, by name, as an admin
      // would bind it (`kubectl create rolebinding --clusterrole view --serviceaccount ns1:default`).
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      const ns = await kubectl.run(['create', 'namespace', 'ns1'], { kubeconfig: alice.kubeconfig });
      expect(ns.code, ns.stderr).toBe(0);
      await eventually('the default service account in ns1', async () => (await accountUid()) !== '');
      const issued = await alice.api.request('POST', '/api/v1/namespaces/ns1/serviceaccounts/default/token', { json: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
      expect(issued.status, issued.body).toBe(201);
      const account = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token: issued.json<{ status: { token: string } }>().status.token });
      try {
        await grantAndWait(cluster, { tenant: 't1', clusterRole: 'view', user: 'system:serviceaccount:ns1:default', namespace: 'ns1' }, account, '/api/v1/namespaces/ns1/configmaps');
      } finally {
        account.close();
      }
    });

    afterAll(async () => {
      alice?.api.close();
      await kubectl?.cleanup();
      await cluster?.cleanup();
    });

    it('gives a new namespace its default service account', async () => {
      await eventually('the default service account in ns1', async () => (await accountUid()) !== '');
      for (const version of VERSIONS) {
        const result = await kubectl.run(['get', 'serviceaccounts', '-n', 'ns1', '-o', 'name'], { kubeconfig: alice.kubeconfig, version });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout.trim()).toBe('serviceaccount/default');
      }
    });

    it.each(VERSIONS)('kubectl %s create token prints a token that works in its space', async (version) => {
      await eventually('the default service account in ns1', async () => (await accountUid()) !== '');
      const token = await createToken(version, '--duration', '15m');
      const claims = claimsOf(token);
      expect(claims).toMatchObject({ sub: 'system:serviceaccount:ns1:default', 'kubernetes.io': { namespace: 'ns1', tenant: 't1', serviceaccount: { name: 'default', uid: await accountUid() } } });
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);

      const kubeconfig = await writeKubeconfig(cluster.server, { userName: `sa-${version}`, token });
      const cms = await kubectl.run(['get', 'configmaps', '-n', 'ns1', '-o', 'name'], { kubeconfig, version });
      expect(cms.code, cms.stderr).toBe(0);
      const whoami = await kubectl.run(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.extra}'], { kubeconfig, version });
      expect(whoami.code, whoami.stderr).toBe(0);
      expect(whoami.stdout).toContain('system:serviceaccount:ns1:default');
      expect(whoami.stdout).toContain('t1');
    });

    it('stops accepting old tokens once the account is deleted and recreated', async () => {
      await eventually('the default service account in ns1', async () => (await accountUid()) !== '');
      const token = await createToken('1.33');
      const kubeconfig = await writeKubeconfig(cluster.server, { userName: 'sa-old', token });
      expect((await kubectl.run(['get', 'configmaps', '-n', 'ns1'], { kubeconfig })).code).toBe(0);

      const before = await accountUid();
      const deleted = await kubectl.run(['delete', 'serviceaccount', 'default', '-n', 'ns1'], { kubeconfig: alice.kubeconfig });
      expect(deleted.code, deleted.stderr).toBe(0);
      // The controller puts `default` back, with a new uid.
      await eventually('default to be recreated', async () => !['', before].includes(await accountUid()));
      // Tokens are checked against the server's cache of accounts, which sees the change a moment later (as in Kubernetes).
      await eventually('the old token to be refused', async () => (await cluster.api.request('GET', '/api/v1/namespaces/ns1/configmaps', { headers: { authorization: `Bearer ${token}` } })).status === 401);

      const refused = await kubectl.run(['get', 'configmaps', '-n', 'ns1'], { kubeconfig });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/Unauthorized|must be logged in/);
      const raw = await cluster.api.request('GET', '/api/v1/namespaces/ns1/configmaps', { headers: { authorization: `Bearer ${token}` } });
      expect(raw.status).toBe(401);

      const fresh = await writeKubeconfig(cluster.server, { userName: 'sa-new', token: await createToken('1.27') });
      expect((await kubectl.run(['get', 'configmaps', '-n', 'ns1'], { kubeconfig: fresh })).code).toBe(0);
    });
    it.each<[string, (genuine: string) => Promise<string>, RegExp]>([
      ['signed by another key', async (genuine) => jwt.sign(claimsOf(genuine), generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey, { algorithm: 'ES256' }), /invalid signature/],
      ['unsigned (alg none)', async (genuine) => jwt.sign(claimsOf(genuine), '', { algorithm: 'none' }), /signature is required|invalid algorithm/],
      [
        'that has expired',
        async (genuine) => {
          const key = await readFile(join(cluster.server.dataDir, SERVICE_ACCOUNT_KEY_FILE), 'utf8');
          const past = Math.floor(Date.now() / 1000) - 3600;
          return jwt.sign({ ...claimsOf(genuine), iat: past - 600, nbf: past - 600, exp: past }, key, { algorithm: 'ES256' });
        },
        /expired/,
      ],
      ['issued for another audience', async () => createToken('1.33', '--audience', 'vault'), /audience/],
    ])('refuses a token %s with 401, logs why, and keeps serving', async (_what, make, logged) => {
      const token = await make(await createToken('1.27'));
      const raw = await cluster.api.request('GET', '/api/v1/namespaces/ns1/configmaps', { headers: { authorization: `Bearer ${token}` } });
      expect(raw.status, raw.body).toBe(401);
      expect(raw.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized' });
      const kubeconfig = await writeKubeconfig(cluster.server, { userName: 'sa-bad', token });
      const refused = await kubectl.run(['get', 'configmaps', '-n', 'ns1'], { kubeconfig });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/Unauthorized|must be logged in/);
      await eventually('the refusal to be logged', async () => cluster.server.output().split('\n').some((line) => line.includes('refused a service-account token') && logged.test(line)));
      const ready = await kubectl.run(['get', '--raw', '/readyz']);
      expect(ready.code, ready.stderr).toBe(0);
    });
  });
});
