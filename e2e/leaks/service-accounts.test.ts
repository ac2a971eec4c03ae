/**
 * Cross-space leak suite: service-account tokens. A t1 account's token reaches nothing outside
 * t1 (another space by any URL form, or all spaces), a t1 user cannot have a token issued for a
 * t2 account, and a t2 account of the same namespace and name never validates a t1 token: the
 * tenant in the token is the one the account is looked up in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { createApiClient, type ApiClient } from '../harness/api-client.js';
import { configMap, namespace } from '../harness/manifests.js';
import { createTenants, grantAndWait, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const account = (name: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns1' } });
const tokenRequest = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} };

describe.each(backendCases())('service-account tokens on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('a t1 service account', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;
    let robot: ApiClient;

    async function issueToken(user: UserCredentials, path: string): Promise<string> {
      const res = await user.api.request('POST', path, { json: tokenRequest });
      expect(res.status, res.body).toBe(201);
      return (res.json() as { status: { token: string } }).status.token;
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
      bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
      await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
      for (const u of [alice, bob]) {
        expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('ns1') })).status).toBe(201);
        expect((await u.api.request('POST', '/api/v1/namespaces/ns1/serviceaccounts', { json: account('robot') })).status).toBe(201);
      }
      expect((await bob.api.request('POST', '/api/v1/namespaces/ns1/configmaps', { json: configMap('ns1', 'only-in-t2', { secret: 'of-t2' }) })).status).toBe(201);
      const token = await issueToken(alice, '/api/v1/namespaces/ns1/serviceaccounts/robot/token');
      robot = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token });
      // The t1 account may do anything in t1, and t2 binds an account of the very same name: what
      // the t1 token is refused below, the tenant gate refuses, not a missing or foreign grant.
      const robotUser = 'system:serviceaccount:ns1:robot';
      await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: robotUser }, robot, '/api/v1/namespaces/ns1/configmaps');
      const theirs = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token: await issueToken(bob, '/api/v1/namespaces/ns1/serviceaccounts/robot/token') });
      try {
        await grantAndWait(cluster, { tenant: 't2', clusterRole: 'view', user: robotUser, namespace: 'ns1' }, theirs, '/api/v1/namespaces/ns1/configmaps');
      } finally {
        theirs.close();
      }
    });

    afterAll(async () => {
      for (const client of [alice?.api, bob?.api, robot]) client?.close();
      await cluster?.cleanup();
    });

    it('works in its own space', async () => {
      expect((await robot.request('GET', '/api/v1/namespaces/ns1/configmaps')).status).toBe(200);
    });

    it.each([
      ['GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps'],
      ['GET', '/api/v1/tenants/t2/namespaces/ns1/configmaps/only-in-t2'],
      ['GET', '/tenants/t2/api/v1/namespaces/ns1/configmaps'],
      ['GET', '/api/v1/tenants/all/configmaps'],
      ['GET', '/tenants/all/api/v1/serviceaccounts'],
      ['GET', '/api/v1/tenants/all/configmaps?watch=true'],
      ['GET', '/api/v1/tenants'],
      ['POST', '/api/v1/tenants/t2/namespaces/ns1/serviceaccounts/robot/token'],
      ['POST', '/tenants/t2/api/v1/namespaces/ns1/serviceaccounts/robot/token'],
    ])('%s %s is 403 Forbidden', async (method, path) => {
      const res = await robot.request(method, path, method === 'POST' ? { json: tokenRequest } : {});
      expect(res.status, res.body).toBe(403);
      expect(res.body).not.toContain('of-t2');
    });

    it('cannot be used by a t1 user to get a token for the t2 account of the same name', async () => {
      for (const path of ['/api/v1/tenants/t2/namespaces/ns1/serviceaccounts/robot/token', '/tenants/t2/api/v1/namespaces/ns1/serviceaccounts/robot/token']) {
        const res = await alice.api.request('POST', path, { json: tokenRequest });
        expect(res.status, res.body).toBe(403);
        expect(res.body).not.toContain('"token"');
      }
    });

    it('is not validated by the t2 account of the same namespace and name once the t1 account is gone', async () => {
      const t1Token = await issueToken(alice, '/api/v1/namespaces/ns1/serviceaccounts/robot/token');
      const bobRobot = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token: await issueToken(bob, '/api/v1/namespaces/ns1/serviceaccounts/robot/token') });
      const aliceRobot = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token: t1Token });
      try {
        expect((await alice.api.request('DELETE', '/api/v1/namespaces/ns1/serviceaccounts/robot')).status).toBe(200);
        const refused = await aliceRobot.request('GET', '/api/v1/namespaces/ns1/configmaps');
        expect(refused.status).toBe(401);
        expect(refused.body).not.toContain('of-t2');
        // The t2 account still works for its own tokens, in t2 only.
        const theirs = await bobRobot.request('GET', '/api/v1/namespaces/ns1/configmaps');
        expect(theirs.status).toBe(200);
        expect(theirs.body).toContain('only-in-t2');
      } finally {
        bobRobot.close();
        aliceRobot.close();
      }
    });
  });
});
