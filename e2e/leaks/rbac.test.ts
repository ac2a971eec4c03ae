/**
 * Cross-space leak suite, RBAC. Roles and bindings are per space, and so are their
 * subjects: a binding in t1 naming `User alice`, `Group x` or a ServiceAccount grants nothing to
 * t2's identities of those names; reviews asked in t1 (SubjectAccessReview, TokenReview) never
 * look into t2; impersonation never crosses a tenant for a tenant user; refusals say nothing about
 * whether a t2 object exists; aggregation never gathers another space's rules; a deleted tenant's
 * users get refusals, never data.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from '../harness/cluster.js';
import { configMap, namespace, secret, type Manifest } from '../harness/manifests.js';
import { certificateKubeconfig, createInSpace, createTenants, eventually, inSpace, userKubeconfig, waitForTenantPhase } from '../harness/spaces.js';

const RBAC = 'rbac.authorization.k8s.io';
const RBAC_V1 = `${RBAC}/v1`;
const TENANT_EXTRA_HEADER = 'Impersonate-Extra-kube-spaces.io%2ftenant';

type SubjectRef = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

function subjectOf(s: SubjectRef): Record<string, string> {
  return s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { apiGroup: RBAC, kind: s.kind, name: s.name };
}

function binding(name: string, clusterRole: string, subjects: SubjectRef[], ns?: string): Manifest {
  return {
    apiVersion: RBAC_V1,
    kind: ns === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: { name, ...(ns !== undefined ? { namespace: ns } : {}) },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: clusterRole },
    subjects: subjects.map(subjectOf),
  };
}

function clusterRole(name: string, rules: unknown[], labels?: Record<string, string>, aggregationRule?: unknown): Manifest {
  return { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name, ...(labels ? { labels } : {}) }, rules, ...(aggregationRule ? { aggregationRule } : {}) };
}

function forbiddenMessage(user: string, a: { verb: string; group?: string; resource: string; namespace?: string; name?: string }): string {
  const group = a.group ?? '';
  const qualified = group ? `${a.resource}.${group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${user}" cannot ${a.verb} resource "${a.resource}" in API group "${group}" ${where}`;
}

const ssar = (attrs: Record<string, string>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } });
const sar = (spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
const tokenReview = (token: string, audiences?: string[]) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });

describe.each(backendCases())('RBAC across spaces on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('t1 and t2', () => {
    let cluster: TestCluster;
    const clients: ApiClient[] = [];
    /** Clients by `tenant/user`. */
    const users = new Map<string, ApiClient>();
    const tokens = new Map<string, string>();
    const u = (tenant: string, name: string): ApiClient => users.get(`${tenant}/${name}`)!;



    /** A service-account token issued in `tenant` (TokenRequest by the system admin) and a client using it. */
    async function serviceAccountClient(tenant: string, ns: string, name: string): Promise<{ token: string; api: ApiClient }> {
      const res = await inSpace(cluster, tenant, 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
      if (res.status !== 201) throw new Error(`token for ${ns}/${name} in ${tenant}: ${res.status} ${res.body}`);
      const token = res.json<{ status: { token: string } }>().status.token;
      const api = createApiClient({ url: cluster.server.url, caCert: cluster.server.caCert, token });
      clients.push(api);
      return { token, api };
    }

    const allowedSoon = (api: ApiClient, path: string, what: string): Promise<void> =>
      eventually(what, async () => (await api.request('GET', path)).status === 200);

    beforeAll(async () => {
      cluster = await startCluster(backend);
      await createTenants(cluster, 't1', 't2');
      // Token rows go into one file: one at a time. Certificates are issued together.
      for (const [t, name] of [['t1', 'admin'], ['t2', 'alice'], ['t1', 'system:controller:namespace-controller']] as const) {
        const issued = await userKubeconfig(cluster, { tenant: t, user: name });
        users.set(`${t}/${name}`, issued.api);
        tokens.set(`${t}/${name}`, issued.token);
        clients.push(issued.api);
      }
      await Promise.all(
        ([['t1', 'alice'], ['t1', 'gina', ['x']], ['t1', 'viewer'], ['t2', 'admin'], ['t2', 'gina', ['x']], ['t2', 'sam'], ['t2', 'nobody'], ['t2', 'ns-viewer'], ['t1', 'borrower']] as const).map(async ([t, name, groups]) => {
          const issued = await certificateKubeconfig(cluster, { tenant: t, user: name, groups: groups ? [...groups] : undefined });
          users.set(`${t}/${name}`, issued.api);
          clients.push(issued.api);
        }),
      );
      await createInSpace(cluster, 't2', namespace('t2-ns'), secret('default', 'only-in-t2', { password: 'of-t2' }), configMap('t2-ns', 'cm-of-t2', { value: 'of-t2' }), configMap('default', 'cm-default-t2', { value: 'of-t2' }));
      await createInSpace(cluster, 't2', clusterRole('t2-only', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
      await createInSpace(cluster, 't2', binding('ns-viewer', 'view', [{ kind: 'User', name: 'ns-viewer' }], 't2-ns'));
      await createInSpace(cluster, 't1', binding('viewer', 'view', [{ kind: 'User', name: 'viewer' }]));
      await Promise.all([
        allowedSoon(u('t2', 'ns-viewer'), '/api/v1/namespaces/t2-ns/configmaps', 't2 ns-viewer to read t2-ns'),
        allowedSoon(u('t1', 'viewer'), '/api/v1/pods', 't1 viewer to list pods'),
      ]);
    }, 120_000);

    afterAll(async () => {
      for (const c of clients) c.close();
      await cluster?.cleanup();
    });

    it('a t1 binding to User alice, Group x and ServiceAccount default/default grants nothing to t2’s alice, x or default', async () => {
      const subjects: SubjectRef[] = [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'x' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      ];
      await createInSpace(cluster, 't1', binding('cross-subjects', 'cluster-admin', subjects), binding('cross-subjects', 'edit', subjects, 'default'));
      const sa1 = await serviceAccountClient('t1', 'default', 'default');
      const sa2 = await serviceAccountClient('t2', 'default', 'default');
      // Applied in t1, for each kind of subject: a refusal in t2 is not a matter of timing.
      for (const [api, who] of [[u('t1', 'alice'), 'alice'], [u('t1', 'gina'), 'gina (group x)'], [sa1.api, 'default/default']] as const) {
        await allowedSoon(api, '/api/v1/namespaces/default/secrets', `t1 ${who} to read secrets`);
      }
      const t2Identities: Array<[ApiClient, string]> = [
        [u('t2', 'alice'), 'alice'],
        [u('t2', 'gina'), 'gina'],
        [sa2.api, 'system:serviceaccount:default:default'],
      ];
      for (const [api, name] of t2Identities) {
        const list = await api.request('GET', '/api/v1/namespaces/default/secrets');
        expect(list.status, `${name}: ${list.body}`).toBe(403);
        expect(list.json<{ message: string }>().message).toBe(forbiddenMessage(name, { verb: 'list', resource: 'secrets', namespace: 'default' }));
        expect(list.body).not.toContain('of-t2');
        const get = await api.request('GET', '/api/v1/namespaces/default/secrets/only-in-t2');
        expect(get.status).toBe(403);
        expect(get.body).not.toContain('of-t2');
        expect((await api.request('GET', `/apis/${RBAC_V1}/clusterroles`)).status).toBe(403);
        const review = await api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { json: ssar({ verb: 'get', resource: 'secrets', namespace: 'default' }) });
        expect(review.status, review.body).toBe(201);
        expect(review.json<{ status: { allowed: boolean } }>().status.allowed).toBe(false);
        const rules = await api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
          json: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } },
        });
        expect(rules.status, rules.body).toBe(201);
        const resourceRules = rules.json<{ status: { resourceRules: Array<{ resources?: string[]; verbs: string[] }> } }>().status.resourceRules;
        expect(resourceRules.filter((r) => r.resources?.some((res) => res === '*' || res === 'secrets'))).toEqual([]);
      }
    });

    it('a t1 user named like a system controller gets none of that controller’s powers, in t1 or anywhere', async () => {
      const lookalike = u('t1', 'system:controller:namespace-controller');
      for (const [method, path] of [
        ['GET', '/api/v1/namespaces/default/secrets'],
        ['DELETE', '/apis/apps/v1/namespaces/default/deployments'],
        ['PUT', '/api/v1/namespaces/default/finalize'],
        ['GET', '/api/v1/tenants/t2/namespaces/default/secrets'],
        ['GET', '/api/v1/tenants/all/secrets'],
      ] as const) {
        const res = await lookalike.request(method, path, method === 'PUT' ? { json: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } } } : {});
        expect(res.status, `${method} ${path}: ${res.body}`).toBe(403);
        expect(res.body).not.toContain('of-t2');
      }
      expect((await lookalike.request('GET', '/apis')).status).toBe(200);
    });

    it('SubjectAccessReview in t1 never reflects t2’s bindings', async () => {
      await createInSpace(cluster, 't2', binding('sam', 'cluster-admin', [{ kind: 'User', name: 'sam' }, { kind: 'Group', name: 'sam-group' }]));
      await allowedSoon(u('t2', 'sam'), '/api/v1/namespaces/default/secrets', 't2 sam to read secrets');
      const attrs = { verb: 'get', resource: 'secrets', namespace: 'default', name: 'only-in-t2' };
      // In t2 the answer is yes: the question is meaningful.
      const inT2 = await u('t2', 'admin').request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { json: sar({ user: 'sam', resourceAttributes: attrs }) });
      expect(inT2.status, inT2.body).toBe(201);
      expect(inT2.json<{ status: { allowed: boolean } }>().status.allowed).toBe(true);

      const admin1 = u('t1', 'admin');
      for (const spec of [
        { user: 'sam', resourceAttributes: attrs },
        { user: 'someone', groups: ['sam-group'], resourceAttributes: attrs },
        { user: 'sam', groups: ['sam-group'], extra: { 'kube-spaces.io/tenant': ['t2'] }, resourceAttributes: attrs },
        { user: 'sam', nonResourceAttributes: { verb: 'get', path: '/metrics' } },
      ]) {
        const res = await admin1.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { json: sar(spec) });
        expect(res.status, res.body).toBe(201);
        const status = res.json<{ status: { allowed: boolean; reason?: string } }>().status;
        expect({ spec, allowed: status.allowed }).toEqual({ spec, allowed: false });
        expect(status.reason ?? '').not.toContain('sam');
      }
      const local = await admin1.request('POST', '/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', {
        json: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'sam', groups: ['sam-group'], resourceAttributes: attrs } },
      });
      expect(local.status, local.body).toBe(201);
      expect(local.json<{ status: { allowed: boolean } }>().status.allowed).toBe(false);
      // Nor by asking in t2's space from t1.
      const viaPath = await admin1.request('POST', '/tenants/t2/apis/authorization.k8s.io/v1/subjectaccessreviews', { json: sar({ user: 'sam', resourceAttributes: attrs }) });
      expect(viaPath.status).toBe(403);
      expect(viaPath.body).not.toContain('"allowed":true');
    });

    it('TokenReview in t1 of a t2 token: not authenticated, no user info', async () => {
      const sa2 = await serviceAccountClient('t2', 't2-ns', 'default');
      const admin1 = u('t1', 'admin');
      for (const [token, what] of [[tokens.get('t2/alice')!, 't2 alice’s token'], [sa2.token, 't2’s t2-ns/default token']] as const) {
        // Known in t2: the refusal in t1 is about the space, not the token.
        const inT2 = await u('t2', 'admin').request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { json: tokenReview(token) });
        expect(inT2.status, inT2.body).toBe(201);
        expect(inT2.json<{ status: { authenticated?: boolean } }>().status.authenticated, what).toBe(true);
        for (const audiences of [undefined, ['https://kube-spaces.local']]) {
          const res = await admin1.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { json: tokenReview(token, audiences) });
          expect(res.status, res.body).toBe(201);
          const status = res.json<{ status: { authenticated?: boolean; user?: Record<string, unknown>; audiences?: string[] } }>().status;
          expect(status.authenticated ?? false, what).toBe(false);
          expect(status.user ?? {}).toEqual({});
          const shown = JSON.stringify(status);
          for (const secretWord of ['alice', 't2', 'system:serviceaccount', 'uid']) expect(shown, what).not.toContain(secretWord);
        }
      }
      // A t1 token reviewed in t1 is known, with t1 as its tenant (the positive case of the same request).
      const own = await admin1.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { json: tokenReview(tokens.get('t1/admin')!) });
      expect(own.json()).toMatchObject({ status: { authenticated: true, user: { username: 'admin', extra: { 'kube-spaces.io/tenant': ['t1'] } } } });
    });

    it('impersonation never crosses tenants for a tenant user', async () => {
      const admin1 = u('t1', 'admin');
      const secrets = '/api/v1/namespaces/default/secrets';
      const refused: Array<[string, Record<string, string>, string]> = [
        ['alice of t2', { 'Impersonate-User': 'alice', [TENANT_EXTRA_HEADER]: 't2' }, secrets],
        ['admin of t2', { 'Impersonate-User': 'admin', [TENANT_EXTRA_HEADER]: 't2' }, secrets],
        ['t2’s default account', { 'Impersonate-User': 'system:serviceaccount:default:default', [TENANT_EXTRA_HEADER]: 't2' }, secrets],
        ['alice (t1’s) on a t2 path', { 'Impersonate-User': 'alice' }, `/tenants/t2${secrets}`],
        ['alice with system:masters, on a t2 path', { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' }, `/tenants/t2${secrets}`],
        ['alice with system:masters, on tenants', { 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:masters' }, '/api/v1/tenants'],
      ];
      for (const [what, headers, path] of refused) {
        const res = await admin1.request('GET', path, { headers });
        expect(res.status, `${what}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
        expect(res.body).not.toContain('of-t2');
      }
      // Two tenants named at once is no way around it.
      const twice = await admin1.request('GET', secrets, { headers: { 'Impersonate-User': 'admin', [TENANT_EXTRA_HEADER]: 't1' } });
      expect(twice.status).toBe(200);
      // (Node merges repeated headers given as an object; send the pair as raw text instead.)
      const both = await rawRequest(cluster, tokens.get('t1/admin')!, 'GET', secrets, [['Impersonate-User', 'admin'], [TENANT_EXTRA_HEADER, 't1'], [TENANT_EXTRA_HEADER, 't2']]);
      expect([400, 403]).toContain(both.status);
      expect(both.body).not.toContain('of-t2');
      // A tenant that exists and one that does not are refused alike.
      const existing = await admin1.request('GET', secrets, { headers: { 'Impersonate-User': 'admin', [TENANT_EXTRA_HEADER]: 't2' } });
      const missing = await admin1.request('GET', secrets, { headers: { 'Impersonate-User': 'admin', [TENANT_EXTRA_HEADER]: 't9' } });
      expect(missing.status).toBe(existing.status);
      expect(missing.body.replaceAll('t9', 't2')).toBe(existing.body);
      // The system admin may, and then sees t2's admin's view.
      const system = await cluster.api.request('GET', secrets, { headers: { 'Impersonate-User': 'admin', [TENANT_EXTRA_HEADER]: 't2' } });
      expect(system.status, system.body).toBe(200);
      expect(system.body).toContain('only-in-t2');
    });

    describe('refusals say nothing about whether a t2 object exists', () => {
      /** Both bodies, with the names swapped out, must be identical. */
      async function expectAlike(api: ApiClient, method: string, existingPath: string, missingPath: string, names: [string, string]): Promise<void> {
        const [existing, missing] = await Promise.all([api.request(method, existingPath), api.request(method, missingPath)]);
        expect(existing.status, `${method} ${existingPath}: ${existing.body}`).toBe(403);
        expect(missing.status, `${method} ${missingPath}: ${missing.body}`).toBe(403);
        expect(missing.body.replaceAll(names[1], names[0])).toBe(existing.body);
        expect(existing.body).not.toContain('of-t2');
      }

      it.each([
        ['GET', '/tenants/t2/api/v1/namespaces/default/secrets/only-in-t2', '/tenants/t2/api/v1/namespaces/default/secrets/not-in-t2', ['only-in-t2', 'not-in-t2']],
        ['DELETE', '/tenants/t2/api/v1/namespaces/default/secrets/only-in-t2', '/tenants/t2/api/v1/namespaces/default/secrets/not-in-t2', ['only-in-t2', 'not-in-t2']],
        ['GET', '/api/v1/tenants/t2/namespaces/t2-ns/configmaps/cm-of-t2', '/api/v1/tenants/t2/namespaces/t2-ns/configmaps/cm-of-t9', ['cm-of-t2', 'cm-of-t9']],
        ['GET', '/tenants/t2/api/v1/namespaces/t2-ns/configmaps', '/tenants/t2/api/v1/namespaces/no-ns/configmaps', ['t2-ns', 'no-ns']],
        ['GET', '/tenants/t2/api/v1/namespaces/t2-ns', '/tenants/t2/api/v1/namespaces/no-ns', ['t2-ns', 'no-ns']],
        ['GET', `/tenants/t2/apis/${RBAC_V1}/clusterroles/t2-only`, `/tenants/t2/apis/${RBAC_V1}/clusterroles/t9-only`, ['t2-only', 't9-only']],
        ['GET', `/tenants/t2/apis/${RBAC_V1}/clusterrolebindings/sam`, `/tenants/t2/apis/${RBAC_V1}/clusterrolebindings/pam`, ['sam', 'pam']],
      ] as const)('to a t1 admin: %s %s', async (method, existing, missing, names) => {
        await expectAlike(u('t1', 'admin'), method, existing, missing, [...names]);
      });

      it.each([
        ['nobody', 'GET', '/api/v1/namespaces/default/secrets/only-in-t2', '/api/v1/namespaces/default/secrets/not-in-t2', ['only-in-t2', 'not-in-t2']],
        ['nobody', 'DELETE', '/api/v1/namespaces/default/secrets/only-in-t2', '/api/v1/namespaces/default/secrets/not-in-t2', ['only-in-t2', 'not-in-t2']],
        ['nobody', 'GET', '/api/v1/namespaces/t2-ns/configmaps', '/api/v1/namespaces/no-ns/configmaps', ['t2-ns', 'no-ns']],
        ['nobody', 'GET', `/apis/${RBAC_V1}/clusterroles/t2-only`, `/apis/${RBAC_V1}/clusterroles/t9-only`, ['t2-only', 't9-only']],
        ['ns-viewer', 'GET', '/api/v1/namespaces/default/configmaps/cm-default-t2', '/api/v1/namespaces/default/configmaps/not-there', ['cm-default-t2', 'not-there']],
        ['ns-viewer', 'GET', '/api/v1/namespaces/default/serviceaccounts/default', '/api/v1/namespaces/no-ns/serviceaccounts/default', ['default', 'no-ns']],
        ['ns-viewer', 'GET', '/api/v1/namespaces/t2-ns/secrets/only-in-t2', '/api/v1/namespaces/t2-ns/secrets/not-in-t2', ['only-in-t2', 'not-in-t2']],
      ] as const)('to t2’s %s: %s %s', async (who, method, existing, missing, names) => {
        await expectAlike(u('t2', who), method, existing, missing, [...names]);
      });
    });

    it('keeps each space’s roles and bindings to itself', async () => {
      await createInSpace(cluster, 't1', clusterRole('t1-only', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), binding('t1-only-binding', 't1-only', [{ kind: 'User', name: 'alice' }]));
      const admin2 = u('t2', 'admin');
      const roles2 = await admin2.request('GET', `/apis/${RBAC_V1}/clusterroles`);
      const names2 = roles2.json<{ items: Array<{ metadata: { name: string; tenant?: string; uid: string } }> }>().items.map((i) => i.metadata.name);
      expect(names2).toContain('t2-only');
      expect(names2).not.toContain('t1-only');
      expect(names2.filter((n) => n === 'admin-role')).toHaveLength(1);
      expect((await admin2.request('GET', `/apis/${RBAC_V1}/clusterroles/t1-only`)).status).toBe(404);
      expect((await admin2.request('GET', `/apis/${RBAC_V1}/clusterrolebindings/t1-only-binding`)).status).toBe(404);
      const bindings2 = await admin2.request('GET', `/apis/${RBAC_V1}/clusterrolebindings`);
      expect(bindings2.body).not.toContain('t1-only-binding');
      expect(bindings2.body).not.toContain('cross-subjects');
      const roleBindings2 = await admin2.request('GET', `/apis/${RBAC_V1}/rolebindings`);
      expect(roleBindings2.body).not.toContain('cross-subjects');
      // The two admin-roles are two objects.
      const uid = async (api: ApiClient) => (await api.request('GET', `/apis/${RBAC_V1}/clusterroles/admin-role`)).json<{ metadata: { uid: string; tenant: string } }>().metadata;
      const [mine, theirs] = await Promise.all([uid(u('t1', 'admin')), uid(admin2)]);
      expect(mine.uid).not.toBe(theirs.uid);
      expect([mine.tenant, theirs.tenant]).toEqual(['t1', 't2']);
      // And the system space lists neither.
      const systemRoles = await cluster.api.request('GET', `/apis/${RBAC_V1}/clusterroles`);
      expect(systemRoles.body).not.toContain('"t1-only"');
      expect(systemRoles.body).not.toContain('"t2-only"');
      // t2 cannot reach t1's by the prefix either.
      expect((await admin2.request('GET', `/tenants/t1/apis/${RBAC_V1}/clusterroles/t1-only`)).status).toBe(403);
    });

    it('a t1 binding to a ClusterRole that exists only in t2 grants nothing', async () => {
      const admin1 = u('t1', 'admin');
      // Written by t1's admin, who may bind anything in t1 (bind is among admin-role's verbs).
      const borrow = await admin1.request('POST', `/apis/${RBAC_V1}/clusterrolebindings`, { json: binding('borrow', 't2-only', [{ kind: 'User', name: 'borrower' }]) });
      expect(borrow.status, borrow.body).toBe(201);
      // A later binding of the same kind for the same user: once it applies, so has `borrow`.
      await createInSpace(cluster, 't1', clusterRole('t1-marker', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]), binding('marker', 't1-marker', [{ kind: 'User', name: 'borrower' }]));
      const borrower = u('t1', 'borrower');
      await allowedSoon(borrower, '/api/v1/namespaces/default/pods', 't1 borrower to list pods');
      const res = await borrower.request('GET', '/api/v1/namespaces/default/configmaps/anything');
      expect(res.status, res.body).toBe(403);
      expect(res.json<{ message: string }>().message).toBe(forbiddenMessage('borrower', { verb: 'get', resource: 'configmaps', namespace: 'default', name: 'anything' }));
      const review = await borrower.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { json: ssar({ verb: 'get', resource: 'configmaps', namespace: 'default' }) });
      expect(review.json<{ status: { allowed: boolean } }>().status.allowed).toBe(false);
    });

    it('aggregates only the space’s own ClusterRoles (and the shared defaults), never another space’s', async () => {
      const leak = { 'example.com/leak-me': 'true' };
      await createInSpace(cluster, 't2', clusterRole('t2-secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }], { ...leak, 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }));
      await createInSpace(cluster, 
        't1',
        clusterRole('t1-configmaps', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], leak),
        clusterRole('grab', [], undefined, { clusterRoleSelectors: [{ matchLabels: leak }] }),
      );
      type Role = { rules?: Array<{ resources?: string[] }> };
      const grab = async (): Promise<Role> => (await u('t1', 'admin').request('GET', `/apis/${RBAC_V1}/clusterroles/grab`)).json<Role>();
      // t1's own labeled role is gathered: aggregation ran.
      await eventually('grab to gather t1-configmaps', async () => ((await grab()).rules ?? []).some((r) => r.resources?.includes('configmaps')));
      expect(((await grab()).rules ?? []).filter((r) => r.resources?.includes('secrets'))).toEqual([]);
      // The shared view, seen from t1, t2 and the system space, gained nothing from t2's aggregate-to-view role.
      for (const read of [
        () => u('t1', 'admin').request('GET', `/apis/${RBAC_V1}/clusterroles/view`),
        () => u('t2', 'admin').request('GET', `/apis/${RBAC_V1}/clusterroles/view`),
        () => cluster.api.request('GET', `/apis/${RBAC_V1}/clusterroles/view`),
      ]) {
        const view = (await read()).json<Role>();
        expect((view.rules ?? []).length).toBeGreaterThan(0);
        expect((view.rules ?? []).filter((r) => r.resources?.includes('secrets'))).toEqual([]);
      }
      const viewer = await u('t1', 'viewer').request('GET', '/api/v1/namespaces/default/secrets');
      expect(viewer.status).toBe(403);
    });

    it('a user of a deleted tenant gets 401 or 403, never data', async () => {
      const created = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't3' } } });
      expect(created.status, created.body).toBe(201);
      await waitForTenantPhase(cluster, 't3', 'Active');
      const byToken = await userKubeconfig(cluster, { tenant: 't3', user: 'admin' });
      const byCert = await certificateKubeconfig(cluster, { tenant: 't3', user: 'admin' });
      clients.push(byToken.api, byCert.api);
      await eventually('t3 admin to be allowed', async () => (await byToken.api.request('GET', '/api/v1/namespaces')).status === 200);
      const planted = await byToken.api.request('POST', '/api/v1/namespaces/default/configmaps', { json: configMap('default', 'of-t3', { value: 'secret-of-t3' }) });
      expect(planted.status, planted.body).toBe(201);
      expect((await byCert.api.request('GET', '/api/v1/namespaces/default/configmaps/of-t3')).status).toBe(200);

      const deleted = await cluster.api.request('DELETE', '/api/v1/tenants/t3');
      expect([200, 202]).toContain(deleted.status);
      await eventually('t3 to be gone', async () => (await cluster.api.request('GET', '/api/v1/tenants/t3')).status === 404, 60_000);

      const requests: Array<[string, string, unknown?]> = [
        ['GET', '/api/v1/namespaces'],
        ['GET', '/api/v1/namespaces/default/configmaps'],
        ['GET', '/api/v1/namespaces/default/configmaps/of-t3'],
        ['GET', '/api/v1/configmaps'],
        ['GET', '/api/v1/configmaps?watch=true&timeoutSeconds=1'],
        ['GET', `/apis/${RBAC_V1}/clusterroles`],
        ['GET', `/apis/${RBAC_V1}/clusterrolebindings/admin-role-binding`],
        ['GET', '/tenants/t3/api/v1/namespaces/default/configmaps'],
        ['POST', '/api/v1/namespaces', namespace('revived')],
        ['POST', '/api/v1/namespaces/default/configmaps', configMap('default', 'again')],
      ];
      for (const api of [byToken.api, byCert.api]) {
        for (const [method, path, json] of requests) {
          const res = await api.request(method, path, json === undefined ? {} : { json });
          expect([401, 403], `${method} ${path}: ${res.status} ${res.body}`).toContain(res.status);
          expect(res.body).not.toContain('secret-of-t3');
        }
      }
      // Nothing was written into the dead space.
      expect((await cluster.api.request('GET', '/tenants/t3/api/v1/namespaces/revived')).status).toBe(404);
    }, 90_000);
  });
});

/** A request with repeated headers exactly as listed (Node's object form would join them). */
async function rawRequest(cluster: TestCluster, token: string, method: string, path: string, headers: Array<[string, string]>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const flat: string[] = ['Authorization', `Bearer ${token}`, 'Accept', 'application/json'];
    for (const [k, v] of headers) flat.push(k, v);
    const req = request(new URL(path, cluster.server.url), { method, headers: flat, ca: cluster.server.caCert }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
