/**
 * Cross-space leak suite: admission policies. A tenant's ValidatingAdmissionPolicy reads its
 * params from its own space only: a binding naming a param that exists only in t2 (same
 * namespace and name, even with `paramRef.namespace` set) finds nothing, and the policy's
 * messageExpression can never print t2's data. t1's policies never act on t2's requests, and
 * neither tenant sees the other's policies or bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { configMap, namespace } from '../harness/manifests.js';
import { createTenants, eventually, userKubeconfig, type UserCredentials } from '../harness/spaces.js';

const POLICIES = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const BINDINGS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

/** A policy that refuses every ConfigMap named `probe`, saying what its param holds. */
const echoPolicy = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'echo' },
  spec: {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'], resourceNames: ['probe'] }] },
    validations: [{ expression: 'false', messageExpression: "'param says ' + params.data.secret" }],
  },
};

const echoBinding = (parameterNotFoundAction: string) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'echo' },
  spec: { policyName: 'echo', paramRef: { name: 'secrets', namespace: 'shared', parameterNotFoundAction }, validationActions: ['Deny'] },
});

describe.each(backendCases())('admission policies on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('of two spaces with the same names', () => {
    let cluster: TestCluster;
    let alice: UserCredentials;
    let bob: UserCredentials;

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      [alice, bob] = (await Promise.all(
        ['t1', 't2'].map(async (tenant) => {
          const admin = await userKubeconfig(cluster, { tenant, user: 'admin' });
          await eventually(`admin to manage ${tenant}`, async () => (await admin.api.request('GET', '/api/v1/namespaces')).status === 200);
          return admin;
        }),
      )) as [UserCredentials, UserCredentials];
      for (const u of [alice, bob]) expect((await u.api.request('POST', '/api/v1/namespaces', { json: namespace('shared') })).status).toBe(201);
      // Only t2 holds the param.
      expect((await bob.api.request('POST', '/api/v1/namespaces/shared/configmaps', { json: configMap('shared', 'secrets', { secret: 't2-only' }) })).status).toBe(201);
    });

    afterAll(async () => {
      alice?.api.close();
      bob?.api.close();
      await cluster?.cleanup();
    });

    it('never gives t1\'s policy t2\'s params', async () => {
      expect((await alice.api.request('POST', POLICIES, { json: echoPolicy })).status).toBe(201);
      expect((await alice.api.request('POST', BINDINGS, { json: echoBinding('Deny') })).status).toBe(201);
      const probe = configMap('shared', 'probe');
      let message = '';
      await eventually('the policy to act', async () => {
        const res = await alice.api.request('POST', '/api/v1/namespaces/shared/configmaps?dryRun=All', { json: probe });
        message = (res.json() as { message?: string }).message ?? '';
        return res.status !== 201;
      });
      expect(message).toBe(
        "configmaps \"probe\" is forbidden: ValidatingAdmissionPolicy 'echo' with binding 'echo' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
      );
      expect(message).not.toContain('t2-only');
      // With Allow, a missing param means the policy does not run: still nothing of t2.
      const res = await alice.api.request('PUT', `${BINDINGS}/echo`, { json: { ...echoBinding('Allow'), metadata: { name: 'echo' } } });
      expect(res.status, res.body).toBe(200);
      await eventually('the Allow binding to act', async () => (await alice.api.request('POST', '/api/v1/namespaces/shared/configmaps?dryRun=All', { json: probe })).status === 201);
      // Once t1 has its own param, the policy reads that one.
      expect((await alice.api.request('POST', '/api/v1/namespaces/shared/configmaps', { json: configMap('shared', 'secrets', { secret: 't1-own' }) })).status).toBe(201);
      await eventually('t1\'s own param', async () => {
        const refused = await alice.api.request('POST', '/api/v1/namespaces/shared/configmaps?dryRun=All', { json: probe });
        return refused.status === 422 && (refused.json() as { message: string }).message.endsWith('denied request: param says t1-own');
      });
    });

    it('keeps t1\'s policies off t2\'s requests and out of t2\'s sight', async () => {
      const created = await bob.api.request('POST', '/api/v1/namespaces/shared/configmaps', { json: configMap('shared', 'probe') });
      expect(created.status, created.body).toBe(201);
      for (const path of [POLICIES, BINDINGS]) {
        expect(((await bob.api.request('GET', path)).json() as { items: unknown[] }).items).toEqual([]);
        expect((await bob.api.request('GET', `${path}/echo`)).status).toBe(404);
        expect((await bob.api.request('DELETE', `${path}/echo`)).status).toBe(404);
      }
      expect((await alice.api.request('GET', `${POLICIES}/echo`)).status).toBe(200);
    });
  });
});
