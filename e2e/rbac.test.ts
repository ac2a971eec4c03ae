/**
 * RBAC inside each space, as a user of stock kubectl sees it (1.27 sends JSON, the dispatcher's
 * 1.33 protobuf): a tenant admin manages access with `kubectl create clusterrolebinding`,
 * `kubectl auth can-i` agrees with what the server then does (and both with kube-apiserver),
 * escalation is refused, the shared default roles are visible but read-only, service-account
 * tokens, impersonation and the access/token reviews stay inside the caller's space.
 *
 * Spaces, so that the cases do not change each other's users:
 *   t1, t2  the demo (the same binding name in two spaces), shared defaults, service accounts,
 *           bindings to names that also exist in another space;
 *   t3      the can-i table (alice: view space-wide; bob: edit in `dev`; carol: a Role with
 *           resourceNames and pods/log), `can-i --list`, impersonation, reviews;
 *   t4      escalation prevention (alice: view plus the right to write roles and bindings).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './harness/api-client.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';
import { createKubectl, kubectlForTests, type Kubectl, type KubectlResult, type KubectlVersion, type RunOptions } from './harness/kubectl.js';
import { parseTable } from './harness/kubectl-output.js';
import { configMap, deployment, namespace, pod, secret, type Manifest } from './harness/manifests.js';
import { certificateKubeconfig, createInSpace, createTenants, eventually, inSpace, userKubeconfig } from './harness/spaces.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';

const VERSIONS = ['1.27', 'dispatcher'] as const satisfies readonly KubectlVersion[];
const kubectlPath = kubectlForTests(VERSIONS);

const RBAC = 'rbac.authorization.k8s.io';
const RBAC_V1 = `${RBAC}/v1`;
const TENANT_EXTRA = 'kube-spaces.io/tenant';

/** One user of one space: a kubeconfig issued by `kube-spaces kubeconfig`, kubectl with its own HOME, an HTTPS client. */
interface User {
  tenant: string;
  name: string;
  kubeconfig: string;
  api: ApiClient;
  /** Only for users issued with `--token`. */
  token?: string;
  kubectl: Kubectl;
  run(args: readonly string[], options?: RunOptions): Promise<KubectlResult>;
}

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

function clusterRole(name: string, rules: PolicyRule[]): Manifest {
  return { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name }, rules };
}

function role(ns: string, name: string, rules: PolicyRule[]): Manifest {
  return { apiVersion: RBAC_V1, kind: 'Role', metadata: { name, namespace: ns }, rules };
}

type SubjectRef = { kind: 'User' | 'Group'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

function subjectOf(s: SubjectRef): Record<string, string> {
  return s.kind === 'ServiceAccount' ? { kind: s.kind, name: s.name, namespace: s.namespace } : { apiGroup: RBAC, kind: s.kind, name: s.name };
}

/** A ClusterRoleBinding, or a RoleBinding when `ns` is given. */
function binding(name: string, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, subjects: SubjectRef[], ns?: string): Manifest {
  return {
    apiVersion: RBAC_V1,
    kind: ns === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: { name, ...(ns !== undefined ? { namespace: ns } : {}) },
    roleRef: { apiGroup: RBAC, ...roleRef },
    subjects: subjects.map(subjectOf),
  };
}

/** A kube-apiserver refusal of a resource request, exactly as it words it when RBAC has no rule. */
function forbiddenMessage(user: string, a: { verb: string; group: string; resource: string; subresource?: string; namespace?: string; name?: string }): string {
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const asked = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${user}" cannot ${a.verb} resource "${asked}" in API group "${a.group}" ${where}`;
}

/** Runs `fn` over `items`, at most `limit` at once (kubectl processes are heavy on two cores). */
async function inBatches<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * One row of the can-i table: the attributes of an action, from which both the `kubectl auth
 * can-i` arguments and the real request are derived, and what kube-apiserver would answer.
 */
interface Action {
  verb: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** A non-resource URL (`/healthz`). */
  path?: string;
  allowed: boolean;
}

const GROUP_VERSION: Record<string, string> = { '': 'v1', apps: 'apps/v1', [RBAC]: RBAC_V1, 'authorization.k8s.io': 'authorization.k8s.io/v1' };

function canIArgs(a: Action): string[] {
  if (a.path !== undefined) return [a.verb, a.path];
  const type = a.group ? `${a.resource}.${a.group}` : a.resource!;
  const args = [a.verb, a.name ? `${type}/${a.name}` : type];
  if (a.subresource) args.push(`--subresource=${a.subresource}`);
  args.push(...(a.namespace ? ['-n', a.namespace] : ['-A']));
  return args;
}

function describeAction(a: Action): string {
  return `can-i ${canIArgs(a).join(' ')}`;
}

/** The request a user's client sends for the action; writes that would pass are dry runs, so the table changes nothing. */
function requestOf(a: Action): { method: string; path: string; json?: unknown; headers?: Record<string, string> } {
  if (a.path !== undefined) return { method: 'GET', path: a.path };
  if (a.verb === 'impersonate') {
    const who = a.resource === 'serviceaccounts' ? `system:serviceaccount:${a.namespace}:${a.name}` : a.name!;
    const header: Record<string, string> = a.resource === 'groups' ? { 'impersonate-user': 'someone', 'impersonate-group': who } : { 'impersonate-user': who };
    return { method: 'GET', path: '/api', headers: header };
  }
  const gv = GROUP_VERSION[a.group ?? '']!;
  const base = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
  let path = `${base}${a.namespace ? `/namespaces/${a.namespace}` : ''}/${a.resource}`;
  if (a.name) path += `/${a.name}`;
  if (a.subresource) path += `/${a.subresource}`;
  switch (a.verb) {
    case 'get':
    case 'list':
      return { method: 'GET', path };
    case 'watch':
      return { method: 'GET', path: `${path}?watch=true&timeoutSeconds=1` };
    case 'create': {
      const body = a.resource === 'configmaps' ? configMap(a.namespace!, 'can-i-probe') : a.resource === 'deployments' ? deployment(a.namespace!, 'can-i-probe') : { apiVersion: RBAC_V1, kind: 'Role', metadata: { name: 'can-i-probe' }, rules: [] };
      return { method: 'POST', path: `${path}?dryRun=All`, json: body };
    }
    case 'patch': {
      const body = a.subresource === 'scale' ? { spec: { replicas: 1 } } : { metadata: { labels: { probe: 'can-i' } } };
      return { method: 'PATCH', path: `${path}?dryRun=All`, json: body, headers: { 'content-type': 'application/merge-patch+json' } };
    }
    case 'update':
      return { method: 'PUT', path: `${path}?dryRun=All`, json: { apiVersion: gv, kind: 'Unknown', metadata: { name: a.name } } };
    case 'delete':
      return { method: 'DELETE', path: `${path}?dryRun=All` };
    default:
      throw new Error(`no request for verb ${a.verb}`);
  }
}

function refusalOf(user: string, a: Action): string {
  if (a.path !== undefined) return `forbidden: User "${user}" cannot ${a.verb} path "${a.path}"`;
  return forbiddenMessage(user, { verb: a.verb, group: a.group ?? '', resource: a.resource!, subresource: a.subresource, namespace: a.namespace, name: a.name });
}

/** alice: `view` through a ClusterRoleBinding, so in every namespace of t3. */
const ALICE_ROWS: Action[] = [
  { verb: 'get', resource: 'pods', name: 'web', namespace: 'dev', allowed: true },
  { verb: 'list', resource: 'pods', allowed: true },
  { verb: 'watch', resource: 'pods', namespace: 'prod', allowed: true },
  { verb: 'list', resource: 'pods', namespace: 'kube-system', allowed: true },
  { verb: 'list', group: 'apps', resource: 'deployments', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'configmaps', name: 'settings', namespace: 'dev', allowed: true },
  { verb: 'get', group: 'apps', resource: 'deployments', name: 'app', subresource: 'scale', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', namespace: 'prod', allowed: true },
  { verb: 'list', resource: 'namespaces', allowed: true },
  { verb: 'list', resource: 'secrets', namespace: 'dev', allowed: false },
  { verb: 'get', resource: 'secrets', name: 's1', namespace: 'prod', allowed: false },
  { verb: 'create', resource: 'configmaps', namespace: 'dev', allowed: false },
  { verb: 'delete', resource: 'pods', name: 'web', namespace: 'dev', allowed: false },
  { verb: 'patch', group: 'apps', resource: 'deployments', name: 'app', namespace: 'dev', allowed: false },
  { verb: 'patch', group: 'apps', resource: 'deployments', name: 'app', subresource: 'scale', namespace: 'dev', allowed: false },
  { verb: 'update', resource: 'configmaps', name: 'settings', namespace: 'dev', allowed: false },
  { verb: 'list', group: RBAC, resource: 'clusterroles', allowed: false },
  { verb: 'create', group: RBAC, resource: 'roles', namespace: 'dev', allowed: false },
  { verb: 'impersonate', resource: 'users', name: 'admin', allowed: false },
  { verb: 'get', path: '/healthz', allowed: true },
  { verb: 'get', path: '/version', allowed: true },
  { verb: 'get', path: '/api', allowed: true },
  { verb: 'get', path: '/metrics', allowed: false },
];

/** bob: `edit` through a RoleBinding in `dev` only. */
const BOB_ROWS: Action[] = [
  { verb: 'get', resource: 'pods', name: 'web', namespace: 'dev', allowed: true },
  { verb: 'list', resource: 'pods', namespace: 'prod', allowed: false },
  { verb: 'list', resource: 'pods', allowed: false },
  { verb: 'create', resource: 'configmaps', namespace: 'dev', allowed: true },
  { verb: 'create', resource: 'configmaps', namespace: 'prod', allowed: false },
  { verb: 'delete', resource: 'pods', name: 'db', namespace: 'dev', allowed: true },
  { verb: 'delete', resource: 'pods', name: 'db', namespace: 'prod', allowed: false },
  { verb: 'list', resource: 'secrets', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'secrets', name: 's1', namespace: 'prod', allowed: false },
  { verb: 'patch', group: 'apps', resource: 'deployments', name: 'app', subresource: 'scale', namespace: 'dev', allowed: true },
  { verb: 'patch', group: 'apps', resource: 'deployments', name: 'app', subresource: 'scale', namespace: 'prod', allowed: false },
  { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'prod', allowed: false },
  { verb: 'watch', group: 'apps', resource: 'deployments', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', namespace: 'prod', allowed: false },
  { verb: 'create', group: RBAC, resource: 'roles', namespace: 'dev', allowed: false },
  { verb: 'list', group: RBAC, resource: 'rolebindings', namespace: 'dev', allowed: false },
  { verb: 'list', resource: 'namespaces', allowed: false },
  { verb: 'impersonate', resource: 'serviceaccounts', name: 'default', namespace: 'dev', allowed: true },
  { verb: 'impersonate', resource: 'serviceaccounts', name: 'default', namespace: 'prod', allowed: false },
  { verb: 'impersonate', resource: 'users', name: 'alice', allowed: false },
  { verb: 'get', path: '/healthz', allowed: true },
  { verb: 'get', path: '/metrics', allowed: false },
];

/** carol: a Role in `dev` naming pod `web`, every pod's log, deployments, and configmap `settings`. */
const CAROL_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['pods'], resourceNames: ['web'], verbs: ['get'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'], verbs: ['*'] },
];

const CAROL_ROWS: Action[] = [
  { verb: 'get', resource: 'pods', name: 'web', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'db', namespace: 'dev', allowed: false },
  { verb: 'list', resource: 'pods', namespace: 'dev', allowed: false },
  { verb: 'get', resource: 'pods', name: 'web', namespace: 'prod', allowed: false },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'db', subresource: 'log', namespace: 'dev', allowed: true },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', namespace: 'prod', allowed: false },
  { verb: 'get', resource: 'pods', name: 'web', subresource: 'status', namespace: 'dev', allowed: false },
  { verb: 'delete', resource: 'pods', name: 'web', namespace: 'dev', allowed: false },
  { verb: 'list', group: 'apps', resource: 'deployments', namespace: 'dev', allowed: true },
  { verb: 'get', group: 'apps', resource: 'deployments', name: 'app', namespace: 'dev', allowed: true },
  { verb: 'get', group: 'apps', resource: 'deployments', name: 'app', namespace: 'prod', allowed: false },
  { verb: 'get', group: 'apps', resource: 'deployments', name: 'app', subresource: 'scale', namespace: 'dev', allowed: false },
  { verb: 'patch', group: 'apps', resource: 'deployments', name: 'app', namespace: 'dev', allowed: false },
  { verb: 'get', resource: 'configmaps', name: 'settings', namespace: 'dev', allowed: true },
  { verb: 'patch', resource: 'configmaps', name: 'settings', namespace: 'dev', allowed: true },
  { verb: 'delete', resource: 'configmaps', name: 'other', namespace: 'dev', allowed: false },
  { verb: 'create', resource: 'configmaps', namespace: 'dev', allowed: false },
  { verb: 'list', resource: 'configmaps', namespace: 'dev', allowed: false },
  { verb: 'list', resource: 'secrets', namespace: 'dev', allowed: false },
  { verb: 'get', path: '/healthz', allowed: true },
  { verb: 'get', path: '/readyz', allowed: true },
  { verb: 'get', path: '/metrics', allowed: false },
];

describe.each(backendCases(kubectlPath !== undefined))('RBAC on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('with stock kubectl', () => {
    let cluster: TestCluster;
    /** The system admin's kubectl (admin kubeconfig, the system space). */
    let system: Kubectl;
    const users = new Map<string, User>();
    const user = (tenant: string, name: string): User => {
      const u = users.get(`${tenant}/${name}`);
      if (!u) throw new Error(`no user ${name} in ${tenant}`);
      return u;
    };



    async function addUser(tenant: string, name: string, opts: { token?: boolean; groups?: string[] } = {}): Promise<User> {
      const issued = opts.token
        ? await userKubeconfig(cluster, { tenant, user: name, groups: opts.groups })
        : await certificateKubeconfig(cluster, { tenant, user: name, groups: opts.groups });
      const kubectl = await createKubectl({ kubeconfig: issued.kubeconfig });
      const u: User = {
        tenant,
        name,
        kubeconfig: issued.kubeconfig,
        api: issued.api,
        token: 'token' in issued ? issued.token : undefined,
        kubectl,
        run: (args, options) => kubectl.run(args, options),
      };
      users.set(`${tenant}/${name}`, u);
      return u;
    }

    /** Waits until `u` gets something other than 403 for GET `path` (a grant reached the authorizer). */
    const allowedSoon = (u: User, path: string, headers?: Record<string, string>): Promise<void> =>
      eventually(`${u.name} of ${u.tenant} to be allowed GET ${path}`, async () => (await u.api.request('GET', path, { headers })).status !== 403);

    /** Waits until `u` gets 403 for GET `path` (a revocation reached the authorizer). */
    const refusedSoon = (u: User, path: string): Promise<void> =>
      eventually(`${u.name} of ${u.tenant} to be refused GET ${path}`, async () => (await u.api.request('GET', path)).status === 403);

    /** A kubeconfig like `base` whose user impersonates `as`, with extras (`as-user-extra`). */
    async function impersonatingKubeconfig(base: string, file: string, as: string, extra: Record<string, string[]>): Promise<string> {
      const config = parseYaml(await readFile(base, 'utf8')) as { users: Array<{ user: Record<string, unknown> }> };
      config.users[0]!.user.as = as;
      config.users[0]!.user['as-user-extra'] = extra;
      const path = join(cluster.server.dataDir, file);
      await writeFile(path, toYaml(config), { mode: 0o600 });
      return path;
    }

    beforeAll(async () => {
      cluster = await startCluster(backend);
      system = await createKubectl({ kubeconfig: cluster.server.adminKubeconfig });
      await createTenants(cluster, 't1', 't2', 't3', 't4');
      // Tokens are appended to one file by each `kube-spaces kubeconfig --token`: one at a time.
      for (const [t, name, groups] of [['t1', 'admin'], ['t1', 'alice'], ['t2', 'alice', ['ops']], ['t3', 'alice']] as const) {
        await addUser(t, name, { token: true, groups: groups ? [...groups] : undefined });
      }
      // Certificates need no server-side state: issued together.
      await Promise.all(
        ([['t1', 'dave'], ['t2', 'admin'], ['t2', 'dave'], ['t2', 'erin', ['ops']], ['t3', 'admin'], ['t3', 'bob'], ['t3', 'carol'], ['t3', 'dave'], ['t4', 'alice']] as const).map(([t, name, groups]) =>
          addUser(t, name, { groups: groups ? [...groups] : undefined }),
        ),
      );

      // t1, t2: a pod each, to tell what alice lists.
      await createInSpace(cluster, 't1', pod('default', 'demo-t1'));
      await createInSpace(cluster, 't2', pod('default', 'demo-t2'), secret('default', 'only-in-t2', { password: 'of-t2' }));

      // t3: two namespaces with the same objects, and the table's grants.
      await createInSpace(cluster, 't3', namespace('dev'), namespace('prod'));
      for (const ns of ['dev', 'prod']) {
        await createInSpace(cluster, 't3', pod(ns, 'web'), pod(ns, 'db'), secret(ns, 's1', { password: 'x' }), configMap(ns, 'settings', { a: '1' }), deployment(ns, 'app', 1));
      }
      await createInSpace(cluster, 
        't3',
        binding('view-alice', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'alice' }]),
        binding('edit-bob', { kind: 'ClusterRole', name: 'edit' }, [{ kind: 'User', name: 'bob' }], 'dev'),
        role('dev', 'carol-role', CAROL_RULES),
        binding('carol', { kind: 'Role', name: 'carol-role' }, [{ kind: 'User', name: 'carol' }], 'dev'),
        binding('view-viewers', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'Group', name: 'viewers' }]),
        clusterRole('impersonator', [
          { apiGroups: [''], resources: ['users'], resourceNames: ['bob'], verbs: ['impersonate'] },
          { apiGroups: [''], resources: ['groups'], resourceNames: ['viewers'], verbs: ['impersonate'] },
        ]),
        binding('dave-impersonates', { kind: 'ClusterRole', name: 'impersonator' }, [{ kind: 'User', name: 'dave' }]),
      );

      // t4: alice reads everything view allows and may write roles and bindings, nothing more.
      await createInSpace(cluster, 
        't4',
        clusterRole('rbac-writer', [{ apiGroups: [RBAC], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] }]),
        binding('view-alice', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'User', name: 'alice' }]),
        binding('rbac-writer-alice', { kind: 'ClusterRole', name: 'rbac-writer' }, [{ kind: 'User', name: 'alice' }]),
      );

      await Promise.all([
        allowedSoon(user('t3', 'alice'), '/api/v1/pods'),
        allowedSoon(user('t3', 'bob'), '/api/v1/namespaces/dev/configmaps'),
        allowedSoon(user('t3', 'carol'), '/api/v1/namespaces/dev/pods/web'),
        allowedSoon(user('t3', 'dave'), '/api/v1/namespaces/dev/pods', { 'impersonate-user': 'bob' }),
        allowedSoon(user('t3', 'admin'), '/api/v1/namespaces/dev/pods', { 'impersonate-user': 'zed', 'impersonate-group': 'viewers' }),
        allowedSoon(user('t4', 'alice'), `/apis/${RBAC_V1}/namespaces/default/roles`),
        allowedSoon(user('t4', 'alice'), '/api/v1/pods'),
      ]);
    }, 180_000);

    afterAll(async () => {
      for (const u of users.values()) {
        u.api.close();
        await u.kubectl.cleanup();
      }
      await system?.cleanup();
      await cluster?.cleanup();
    });

    describe('a tenant admin manages access in its own space (the demo)', () => {
      it('grants view with kubectl create clusterrolebinding; the same name in t2 is independent', async () => {
        const [admin1, admin2, alice1, alice2] = [user('t1', 'admin'), user('t2', 'admin'), user('t1', 'alice'), user('t2', 'alice')];
        const before = await alice1.run(['get', 'pods', '-A']);
        expect(before.code).toBe(1);
        expect(before.stderr).toContain(`Error from server (Forbidden): ${forbiddenMessage('alice', { verb: 'list', group: '', resource: 'pods' })}`);

        const created = await admin1.run(['create', 'clusterrolebinding', 'alice-view', '--clusterrole=view', '--user=alice']);
        expect(created.code, created.stderr).toBe(0);
        expect(created.stdout.trim()).toBe('clusterrolebinding.rbac.authorization.k8s.io/alice-view created');
        await allowedSoon(alice1, '/api/v1/pods');
        for (const version of VERSIONS) {
          const listed = await alice1.run(['get', 'pods', '-A'], { version });
          expect(listed.code, listed.stderr).toBe(0);
          const table = parseTable(listed.stdout);
          expect(table.names()).toContain('demo-t1');
          expect(listed.stdout).not.toContain('demo-t2');
        }
        // Nothing of t2, by name or by path.
        const byName = await alice1.run(['get', 'pod', 'demo-t2', '-n', 'default']);
        expect(byName.code).toBe(1);
        expect(byName.stderr).toContain('Error from server (NotFound): pods "demo-t2" not found');
        expect((await alice1.api.request('GET', '/tenants/t2/api/v1/pods')).status).toBe(403);
        // Still only view: no secrets, no writes.
        const secrets = await alice1.run(['get', 'secrets', '-n', 'default']);
        expect(secrets.code).toBe(1);
        expect(secrets.stderr).toContain(forbiddenMessage('alice', { verb: 'list', group: '', resource: 'secrets', namespace: 'default' }));
        // t2's alice got nothing from t1's binding.
        expect((await alice2.run(['get', 'pods', '-A'])).code).toBe(1);

        const created2 = await admin2.run(['create', 'clusterrolebinding', 'alice-view', '--clusterrole=view', '--user=alice']);
        expect(created2.code, created2.stderr).toBe(0);
        await allowedSoon(alice2, '/api/v1/pods');
        const listed2 = await alice2.run(['get', 'pods', '-A']);
        expect(listed2.code, listed2.stderr).toBe(0);
        expect(parseTable(listed2.stdout).names()).toContain('demo-t2');
        expect(listed2.stdout).not.toContain('demo-t1');

        const deleted = await admin1.run(['delete', 'clusterrolebinding', 'alice-view']);
        expect(deleted.code, deleted.stderr).toBe(0);
        await refusedSoon(alice1, '/api/v1/pods');
        const kept = await admin2.run(['get', 'clusterrolebinding', 'alice-view', '-o', 'jsonpath={.roleRef.name}/{.subjects[0].name}']);
        expect(kept.code, kept.stderr).toBe(0);
        expect(kept.stdout).toBe('view/alice');
        expect((await alice2.run(['get', 'pods', '-A'])).code).toBe(0);
        const gone = await admin1.run(['get', 'clusterrolebinding', 'alice-view']);
        expect(gone.code).toBe(1);
        expect(gone.stderr).toContain('clusterrolebindings.rbac.authorization.k8s.io "alice-view" not found');
      });

      it('gives each tenant admin everything in its space through admin-role-binding, and nothing elsewhere', async () => {
        const admin1 = user('t1', 'admin');
        const binding1 = await admin1.run(['get', 'clusterrolebinding', 'admin-role-binding', '-o', 'jsonpath={.roleRef.name}/{.subjects[0].kind}/{.subjects[0].name}']);
        expect(binding1.code, binding1.stderr).toBe(0);
        expect(binding1.stdout).toBe('admin-role/User/admin');
        for (const args of [['create', 'secrets', '-n', 'kube-system'], ['delete', 'namespaces'], ['escalate', 'clusterroles.rbac.authorization.k8s.io']]) {
          const answer = await admin1.run(['auth', 'can-i', ...args]);
          expect({ args, out: answer.stdout.trim() }).toEqual({ args, out: 'yes' });
        }
        // /metrics counts every space's requests: no space's RBAC grants it, its admin's `*` neither.
        expect((await admin1.run(['auth', 'can-i', 'get', '/metrics'])).stdout.trim()).toBe('no');
        expect((await admin1.api.request('GET', '/tenants/t2/api/v1/namespaces/default/secrets')).status).toBe(403);
        const tenants = await admin1.run(['auth', 'can-i', 'list', 'tenants']);
        expect(tenants.code).toBe(1);
      });
    });

    describe('kubectl auth can-i agrees with the server, and both with kube-apiserver', () => {
      for (const [who, rows] of [['alice', ALICE_ROWS], ['bob', BOB_ROWS], ['carol', CAROL_ROWS]] as const) {
        it(`for ${who} (${rows.length} cases, kubectl ${VERSIONS.join(' and ')})`, async () => {
          const u = user('t3', who);
          const runs = rows.flatMap((row) => VERSIONS.map((version) => ({ row, version })));
          const answers = await inBatches(runs, 4, async ({ row, version }) => {
            const result = await u.run(['auth', 'can-i', ...canIArgs(row)], { version });
            return { case: `${describeAction(row)} (kubectl ${version})`, stdout: result.stdout.trim(), code: result.code, stderr: result.stderr };
          });
          const real = await inBatches(rows, 4, async (row) => {
            const req = requestOf(row);
            return u.api.request(req.method, req.path, { json: req.json, headers: req.headers });
          });
          const mismatches: string[] = [];
          rows.forEach((row, i) => {
            const expected = row.allowed ? 'yes' : 'no';
            for (const a of answers.slice(i * VERSIONS.length, (i + 1) * VERSIONS.length)) {
              const said = a.code === 0 && a.stdout.startsWith('yes') ? 'yes' : a.code === 1 && a.stdout.startsWith('no') ? 'no' : `exit ${a.code}: ${a.stdout} ${a.stderr}`;
              if (said !== expected) mismatches.push(`${a.case}: said ${said}, kube-apiserver says ${expected}`);
            }
            const res = real[i]!;
            const req = requestOf(row);
            const what = `${describeAction(row)} → ${req.method} ${req.path}${req.headers?.['impersonate-user'] ? ` as ${req.headers['impersonate-user']}` : ''}`;
            if (row.allowed) {
              if (res.status === 403 || res.status === 401) mismatches.push(`${what}: ${res.status} ${res.body}, expected allowed`);
            } else if (res.status !== 403) {
              mismatches.push(`${what}: ${res.status}, expected 403`);
            } else {
              const status = res.json<{ reason?: string; message?: string; code?: number; kind?: string }>();
              const want = refusalOf(who, row);
              if (status.kind !== 'Status' || status.reason !== 'Forbidden' || status.code !== 403 || status.message !== want) {
                mismatches.push(`${what}: message ${JSON.stringify(status.message)}, expected ${JSON.stringify(want)}`);
              }
            }
          });
          expect(mismatches).toEqual([]);
        }, 120_000);
      }

      it('says why: no for bob outside dev, the binding that allows alice', async () => {
        const bob = user('t3', 'bob');
        const no = await bob.run(['auth', 'can-i', 'create', 'configmaps', '-n', 'prod']);
        expect(no.code).toBe(1);
        expect(no.stdout.trim()).toBe('no');
        const alice = user('t3', 'alice');
        const why = await alice.api.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
          json: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'dev' } } },
        });
        expect(why.status, why.body).toBe(201);
        expect(why.json()).toMatchObject({ status: { allowed: true, reason: expect.stringContaining('view-alice') } });
      });
    });

    describe('a list or watch pinned to one name by its field selector', () => {
      it('is authorized as a request for that name, so rules limited to resourceNames allow it (kubectl get cm settings -w)', async () => {
        const carol = user('t3', 'carol');
        const base = '/api/v1/namespaces/dev/configmaps';
        const pinned = (name: string, watch: boolean) => `${base}?fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}${watch ? '&watch=true&timeoutSeconds=1' : ''}`;
        expect((await carol.api.request('GET', pinned('settings', false))).status).toBe(200);
        expect((await carol.api.request('GET', pinned('settings', true))).status).toBe(200);
        const other = await carol.api.request('GET', pinned('other', true));
        expect(other.status).toBe(403);
        expect(other.json()).toMatchObject({ message: 'configmaps "other" is forbidden: User "carol" cannot watch resource "configmaps" in API group "" in the namespace "dev"' });
        const unpinned = await carol.api.request('GET', base);
        expect(unpinned.json()).toMatchObject({ message: 'configmaps is forbidden: User "carol" cannot list resource "configmaps" in API group "" in the namespace "dev"' });
        const watched = carol.kubectl.start(['get', 'configmap', 'settings', '-n', 'dev', '-w', '-o', 'name', '-v=6'], { timeoutMs: 30_000 });
        try {
          await watched.waitForLog(/watch=true.*200 OK/);
          await watched.waitForOutput(/configmap\/settings/);
        } finally {
          const out = await watched.stop();
          expect(out.stderr).not.toContain('Forbidden');
        }
      });
    });

    describe('kubectl auth can-i --list', () => {
      /** The rows of `can-i --list` as `resource|names|verbs` (and `url|verbs` for non-resource rules). */
      function listedRules(stdout: string): string[] {
        return parseTableLoose(stdout).map((r) => (r.resource ? `${r.resource}|${r.names}|${r.verbs}` : `${r.urls}|${r.verbs}`));
      }

      for (const version of VERSIONS) {
        it(`shows the bound rules, namespace by namespace (kubectl ${version})`, async () => {
          const [carolDev, carolProd, bobDev, bobProd, aliceProd] = await Promise.all([
            user('t3', 'carol').run(['auth', 'can-i', '--list', '-n', 'dev'], { version }),
            user('t3', 'carol').run(['auth', 'can-i', '--list', '-n', 'prod'], { version }),
            user('t3', 'bob').run(['auth', 'can-i', '--list', '-n', 'dev'], { version }),
            user('t3', 'bob').run(['auth', 'can-i', '--list', '-n', 'prod'], { version }),
            user('t3', 'alice').run(['auth', 'can-i', '--list', '-n', 'prod'], { version }),
          ]);
          for (const r of [carolDev, carolProd, bobDev, bobProd, aliceProd]) expect(r.code, r.stderr).toBe(0);

          const carol = listedRules(carolDev.stdout);
          expect(carol).toEqual(expect.arrayContaining(['pods|[web]|[get]', 'pods/log|[]|[get]', 'deployments.apps|[]|[get list]', 'configmaps|[settings]|[*]']));
          expect(carol).toEqual(expect.arrayContaining(['selfsubjectaccessreviews.authorization.k8s.io|[]|[create]', '[/healthz]|[get]']));
          expect(carol.filter((r) => r.startsWith('secrets'))).toEqual([]);
          // Her Role is in dev only.
          expect(listedRules(carolProd.stdout).filter((r) => /^(pods|deployments|configmaps)/.test(r))).toEqual([]);

          const bob = listedRules(bobDev.stdout);
          expect(bob.find((r) => r.startsWith('secrets|'))).toMatch(/^secrets\|\[\]\|\[.*\bget\b.*\]$/);
          expect(bob.find((r) => r.startsWith('configmaps|'))).toMatch(/\bcreate\b/);
          expect(bob.filter((r) => r.startsWith('roles.rbac'))).toEqual([]);
          expect(listedRules(bobProd.stdout).filter((r) => /^(pods|secrets|configmaps)\|/.test(r))).toEqual([]);

          const alice = listedRules(aliceProd.stdout);
          expect(alice).toEqual(expect.arrayContaining(['pods|[]|[get list watch]', 'pods/log|[]|[get list watch]', 'configmaps|[]|[get list watch]']));
          expect(alice.filter((r) => r.startsWith('secrets'))).toEqual([]);
        });
      }
    });

    describe('escalation prevention', () => {
      const secretReaderRefusal =
        'roles.rbac.authorization.k8s.io "secret-reader" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}';

      it('words the missing rights as kube-apiserver does (non-resource URLs; one line per resource, its verbs together)', async () => {
        const alice = user('t4', 'alice');
        // Non-resource URLs: what she holds through system:discovery she may grant, /metrics not.
        const healthz = await alice.api.request('POST', `/apis/${RBAC_V1}/clusterroles?dryRun=All`, { json: clusterRole('healthz', [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]) });
        expect(healthz.status, healthz.body).toBe(201);
        const metrics = await alice.api.request('POST', `/apis/${RBAC_V1}/clusterroles`, { json: clusterRole('metrics', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]) });
        expect(metrics.status).toBe(403);
        expect(metrics.json<{ message: string }>().message).toBe(
          'clusterroles.rbac.authorization.k8s.io "metrics" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{NonResourceURLs:["/metrics"], Verbs:["get"]}',
        );
        // kube-apiserver's ConfirmNoEscalation runs CompactRules over the missing rights before printing them.
        const twoVerbs = await alice.api.request('POST', `/apis/${RBAC_V1}/clusterroles`, {
          json: clusterRole('x', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]),
        });
        expect(twoVerbs.status).toBe(403);
        expect(twoVerbs.json<{ message: string }>().message).toBe(
          'clusterroles.rbac.authorization.k8s.io "x" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
        );
      });

      it('refuses a role or binding granting what alice (view) does not hold, and allows what she holds', async () => {
        const alice = user('t4', 'alice');
        const role1 = await alice.run(['create', 'role', 'secret-reader', '--verb=get', '--resource=secrets', '-n', 'default']);
        expect(role1.code).toBe(1);
        expect(role1.stderr).toContain(secretReaderRefusal);

        const raw = await alice.api.request('POST', `/apis/${RBAC_V1}/namespaces/default/roles`, { json: role('default', 'secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]) });
        expect(raw.status).toBe(403);
        expect(raw.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message: secretReaderRefusal, details: { name: 'secret-reader', group: RBAC, kind: 'roles' } });

        for (const args of [
          ['create', 'rolebinding', 'alice-edit', '--clusterrole=edit', '--user=alice', '-n', 'default'],
          ['create', 'clusterrolebinding', 'alice-edit', '--clusterrole=edit', '--user=alice'],
          ['create', 'clusterrolebinding', 'alice-admin-role', '--clusterrole=admin-role', '--user=alice'],
        ]) {
          const refused = await alice.run(args);
          expect(refused.code, args.join(' ')).toBe(1);
          expect(refused.stderr).toContain(`"${args[2]}" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n`);
          if (args[3] === '--clusterrole=edit') expect(refused.stderr).toMatch(/^\{APIGroups:\[""\], Resources:\["secrets"\], Verbs:\[/m);
        }
        // What she holds, she may pass on.
        const podReader = await alice.run(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods', '-n', 'default']);
        expect(podReader.code, podReader.stderr).toBe(0);
        const viewBob = await alice.run(['create', 'rolebinding', 'bob-view', '--clusterrole=view', '--user=bob', '-n', 'default']);
        expect(viewBob.code, viewBob.stderr).toBe(0);
        // Nothing was written by the refusals.
        for (const path of [`/apis/${RBAC_V1}/namespaces/default/roles/secret-reader`, `/apis/${RBAC_V1}/namespaces/default/rolebindings/alice-edit`, `/apis/${RBAC_V1}/clusterrolebindings/alice-edit`]) {
          expect((await inSpace(cluster, 't4', 'GET', path)).status, path).toBe(404);
        }
        // Nor may she widen a role she is allowed to write.
        const widened = await alice.run(['patch', 'role', 'pod-reader', '-n', 'default', '--type=json', '-p', '[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}}]']);
        expect(widened.code).toBe(1);
        expect(widened.stderr).toContain('roles.rbac.authorization.k8s.io "pod-reader" is forbidden: user "alice"');
      });

      it('allows the same once alice holds escalate on roles and bind on edit', async () => {
        const alice = user('t4', 'alice');
        await createInSpace(cluster, 
          't4',
          clusterRole('escalate-bind', [
            { apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] },
            { apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['edit'], verbs: ['bind'] },
          ]),
          binding('escalate-bind-alice', { kind: 'ClusterRole', name: 'escalate-bind' }, [{ kind: 'User', name: 'alice' }]),
        );
        await eventually('escalate to reach the authorizer', async () => (await alice.run(['auth', 'can-i', 'escalate', 'roles.rbac.authorization.k8s.io', '-n', 'default'])).code === 0);
        const role1 = await alice.run(['create', 'role', 'secret-reader', '--verb=get', '--resource=secrets', '-n', 'default']);
        expect(role1.code, role1.stderr).toBe(0);
        const bindEdit = await alice.run(['create', 'rolebinding', 'alice-edit', '--clusterrole=edit', '--user=alice', '-n', 'default']);
        expect(bindEdit.code, bindEdit.stderr).toBe(0);
        // bind is on `edit` only: admin-role stays out of reach.
        const bindAdmin = await alice.run(['create', 'clusterrolebinding', 'alice-admin-role', '--clusterrole=admin-role', '--user=alice']);
        expect(bindAdmin.code).toBe(1);
        expect(bindAdmin.stderr).toContain('is attempting to grant RBAC permissions not currently held');
        // escalate is on roles only: a ClusterRole granting secrets is still refused.
        const clusterWide = await alice.api.request('POST', `/apis/${RBAC_V1}/clusterroles`, { json: clusterRole('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]) });
        expect(clusterWide.status).toBe(403);
        // The binding she made for herself works, in its namespace.
        await allowedSoon(alice, '/api/v1/namespaces/default/secrets');
        const secrets = await alice.run(['get', 'secrets', '-n', 'default']);
        expect(secrets.code, secrets.stderr).toBe(0);
        expect((await alice.api.request('GET', '/api/v1/namespaces/kube-system/secrets')).status).toBe(403);
      });

      it("binds nothing in t2 when a t1 admin names users and groups that exist in t2", async () => {
        const [admin1, dave1, alice2, erin2, dave2] = [user('t1', 'admin'), user('t1', 'dave'), user('t2', 'alice'), user('t2', 'erin'), user('t2', 'dave')];
        const created = await admin1.run(['create', 'clusterrolebinding', 'everyone', '--clusterrole=cluster-admin', '--user=alice', '--user=dave', '--group=ops']);
        expect(created.code, created.stderr).toBe(0);
        // Applied in t1 (so a refusal below is not a matter of timing) …
        await allowedSoon(dave1, '/api/v1/namespaces/default/secrets');
        await allowedSoon(user('t1', 'alice'), '/api/v1/namespaces/default/secrets');
        // … and nowhere else: t2's alice (group ops), erin (group ops) and dave get what t2 gave them.
        for (const [u, path, message] of [
          [alice2, '/api/v1/namespaces/default/secrets', forbiddenMessage('alice', { verb: 'list', group: '', resource: 'secrets', namespace: 'default' })],
          [erin2, '/api/v1/namespaces/default/secrets', forbiddenMessage('erin', { verb: 'list', group: '', resource: 'secrets', namespace: 'default' })],
          [dave2, '/api/v1/pods', forbiddenMessage('dave', { verb: 'list', group: '', resource: 'pods' })],
        ] as const) {
          const res = await u.api.request('GET', path);
          expect(res.status, `${u.name}: ${res.body}`).toBe(403);
          expect(res.json<{ message: string }>().message).toBe(message);
          expect(res.body).not.toContain('of-t2');
          const canI = await u.run(['auth', 'can-i', 'get', 'secrets', '-n', 'default']);
          expect(canI.stdout.trim()).toBe('no');
        }
        const removed = await admin1.api.request('DELETE', `/apis/${RBAC_V1}/clusterrolebindings/everyone`);
        expect(removed.status).toBe(200);
      });
    });

    describe('the shared default roles', () => {
      it('are listed beside the space’s own roles, with aggregated rules', async () => {
        const admin1 = user('t1', 'admin');
        const listed = await admin1.run(['get', 'clusterroles']);
        expect(listed.code, listed.stderr).toBe(0);
        const names = parseTable(listed.stdout).names();
        expect(names).toEqual(expect.arrayContaining(['admin-role', 'cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer']));
        expect(names.filter((n) => n === 'admin-role')).toHaveLength(1);
        const bindings = await admin1.run(['get', 'clusterrolebindings', '-o', 'name']);
        expect(bindings.stdout.split('\n')).toEqual(expect.arrayContaining(['clusterrolebinding.rbac.authorization.k8s.io/admin-role-binding', 'clusterrolebinding.rbac.authorization.k8s.io/system:discovery']));

        for (const version of VERSIONS) {
          const view = await admin1.run(['get', 'clusterrole', 'view', '-o', 'yaml'], { version });
          expect(view.code, view.stderr).toBe(0);
          const obj = parseYaml(view.stdout) as { aggregationRule?: { clusterRoleSelectors: unknown[] }; rules: PolicyRule[]; metadata: { labels: Record<string, string> } };
          expect(obj.aggregationRule?.clusterRoleSelectors).toEqual([{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }]);
          expect(obj.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
          expect(obj.rules.some((r) => r.resources?.includes('pods') && r.verbs.includes('list') && r.apiGroups?.includes(''))).toBe(true);
          expect(obj.rules.some((r) => r.resources?.includes('secrets'))).toBe(false);
        }
        const edit = await admin1.run(['get', 'clusterrole', 'edit', '-o', 'json']);
        const editRules = (JSON.parse(edit.stdout) as { rules: PolicyRule[] }).rules;
        // edit aggregates view as well as its own rules.
        expect(editRules.some((r) => r.resources?.includes('secrets') && r.verbs.includes('create'))).toBe(true);
        expect(editRules.some((r) => r.resources?.includes('pods/log'))).toBe(true);
      });

      it('are read-only in a tenant space: delete and change are Forbidden, creating the name is AlreadyExists', async () => {
        const admin1 = user('t1', 'admin');
        const del = await admin1.run(['delete', 'clusterrole', 'view']);
        expect(del.code).toBe(1);
        expect(del.stderr).toMatch(/^Error from server \(Forbidden\): clusterroles\.rbac\.authorization\.k8s\.io "view" is forbidden: User "admin" cannot delete resource "clusterroles" in API group "rbac\.authorization\.k8s\.io" at the cluster scope/m);
        const create = await admin1.run(['create', 'clusterrole', 'view', '--verb=get', '--resource=pods']);
        expect(create.code).toBe(1);
        expect(create.stderr).toContain('AlreadyExists');
        expect(create.stderr).toContain('clusterroles.rbac.authorization.k8s.io "view" already exists');
        const label = await admin1.run(['label', 'clusterrole', 'edit', 'mine=yes']);
        expect(label.code).toBe(1);
        expect(label.stderr).toContain('Forbidden');
        const delBinding = await admin1.run(['delete', 'clusterrolebinding', 'system:basic-user']);
        expect(delBinding.code).toBe(1);
        expect(delBinding.stderr).toContain('Error from server (Forbidden): clusterrolebindings.rbac.authorization.k8s.io "system:basic-user" is forbidden');
        const createBinding = await admin1.run(['create', 'clusterrolebinding', 'cluster-admin', '--clusterrole=view', '--user=alice']);
        expect(createBinding.code).toBe(1);
        expect(createBinding.stderr).toContain('clusterrolebindings.rbac.authorization.k8s.io "cluster-admin" already exists');
        // Unchanged, for t1 and for everyone.
        const view = await inSpace(cluster, 't2', 'GET', `/apis/${RBAC_V1}/clusterroles/view`);
        expect(view.status).toBe(200);
        expect(view.json<{ metadata: { labels?: Record<string, string> } }>().metadata.labels?.mine).toBeUndefined();
        expect(((await cluster.read(`/apis/${RBAC_V1}/clusterroles/edit`))?.metadata as { labels: Record<string, string> }).labels.mine).toBeUndefined();
      });

      it('stream in a tenant space’s watch beside its own roles, never another space’s', async () => {
        const admin1 = user('t1', 'admin');
        const watch = admin1.kubectl.start(['get', 'clusterroles', '-w', '-o', 'name', '-v=6'], { timeoutMs: 30_000 });
        try {
          await watch.waitForLog(/watch=true/);
          // The initial state holds the shared defaults and t1's own role.
          await watch.waitForOutput(/clusterrole\.rbac\.authorization\.k8s\.io\/view\n/);
          await watch.waitForOutput(/clusterrole\.rbac\.authorization\.k8s\.io\/admin-role\n/);
          await createInSpace(cluster, 't2', { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name: 'watched-t2' }, rules: [] });
          await createInSpace(cluster, 't1', { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name: 'watched-t1' }, rules: [] });
          await watch.waitForOutput(/clusterrole\.rbac\.authorization\.k8s\.io\/watched-t1/);
          // A change to a shared default by the system admin reaches every space's watch.
          const before = watch.stdout().split('clusterrole.rbac.authorization.k8s.io/system:public-info-viewer').length;
          const labeled = await system.run(['label', 'clusterrole', 'system:public-info-viewer', 'watched=yes']);
          expect(labeled.code, labeled.stderr).toBe(0);
          await eventually('the shared default’s change in t1’s watch', async () => watch.stdout().split('clusterrole.rbac.authorization.k8s.io/system:public-info-viewer').length > before);
          expect(watch.stdout()).not.toContain('watched-t2');
        } finally {
          await watch.stop();
          await system.run(['label', 'clusterrole', 'system:public-info-viewer', 'watched-']);
          await inSpace(cluster, 't1', 'DELETE', `/apis/${RBAC_V1}/clusterroles/watched-t1`);
          await inSpace(cluster, 't2', 'DELETE', `/apis/${RBAC_V1}/clusterroles/watched-t2`);
        }
      });

      it('live once, in the system space, where the system admin sees (and owns) them', async () => {
        const listed = await system.run(['get', 'clusterroles', '-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'name']);
        expect(listed.code, listed.stderr).toBe(0);
        expect(listed.stdout.split('\n')).toEqual(expect.arrayContaining(['clusterrole.rbac.authorization.k8s.io/view', 'clusterrole.rbac.authorization.k8s.io/cluster-admin']));
        const own = await system.run(['get', 'clusterroles', '-o', 'name']);
        expect(own.stdout).not.toContain('admin-role');
        const view = await system.run(['get', 'clusterrole', 'view', '-o', 'jsonpath={.metadata.tenant}']);
        expect(view.code, view.stderr).toBe(0);
        expect(view.stdout).toBe('system');
        // A tenant's copy of the same object comes from the same place: same uid.
        const uid = (path: string) => cluster.read(path).then((o) => (o?.metadata as { uid: string }).uid);
        expect(await uid(`/tenants/t1/apis/${RBAC_V1}/clusterroles/view`)).toBe(await uid(`/apis/${RBAC_V1}/clusterroles/view`));
      });
    });

    describe('service-account tokens from kubectl create token', () => {
      it('work in their space once granted, never in another, and stop when the account is deleted', async () => {
        const admin1 = user('t1', 'admin');
        const admin2 = user('t2', 'admin');
        const issued = await admin1.run(['create', 'token', 'default', '-n', 'default']);
        expect(issued.code, issued.stderr).toBe(0);
        const token = issued.stdout.trim();
        const withToken = (args: string[], server?: string) => admin1.run(['--token', token, ...(server ? ['--server', server] : []), ...args]);

        const before = await withToken(['get', 'pods', '-n', 'default']);
        expect(before.code).toBe(1);
        expect(before.stderr).toContain(forbiddenMessage('system:serviceaccount:default:default', { verb: 'list', group: '', resource: 'pods', namespace: 'default' }));

        const granted = await admin1.run(['create', 'clusterrolebinding', 'sa-view', '--clusterrole=view', '--serviceaccount=default:default']);
        expect(granted.code, granted.stderr).toBe(0);
        await eventually('the service account to be allowed', async () => (await withToken(['get', 'pods', '-n', 'default'])).code === 0);
        const pods = await withToken(['get', 'pods', '-A']);
        expect(pods.code, pods.stderr).toBe(0);
        expect(pods.stdout).toContain('demo-t1');
        const whoami = await withToken(['auth', 'whoami']);
        expect(whoami.stdout).toMatch(/^Username\s+system:serviceaccount:default:default$/m);
        expect(whoami.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t1\]$/m);

        // t2's own default account in default gets view; t1's token still reads nothing there.
        const granted2 = await admin2.run(['create', 'clusterrolebinding', 'sa-view', '--clusterrole=view', '--serviceaccount=default:default']);
        expect(granted2.code, granted2.stderr).toBe(0);
        const token2 = (await admin2.run(['create', 'token', 'default', '-n', 'default'])).stdout.trim();
        await eventually('t2’s account to be allowed', async () => (await admin2.run(['--token', token2, 'get', 'pods', '-n', 'default'])).code === 0);
        const inT2 = await withToken(['get', 'pods', '-n', 'default'], `${cluster.server.url}/tenants/t2`);
        expect(inT2.code).toBe(1);
        expect(inT2.stderr).toContain('Forbidden');
        expect(inT2.stdout).not.toContain('demo-t2');
        const raw = await admin1.api.request('GET', '/tenants/t2/api/v1/namespaces/default/pods', { headers: { authorization: `Bearer ${token}` } });
        expect(raw.status).toBe(403);

        const deleted = await admin1.run(['delete', 'serviceaccount', 'default', '-n', 'default']);
        expect(deleted.code, deleted.stderr).toBe(0);
        // Tokens are checked against the server's cache of accounts, which sees the deletion a moment later (as in Kubernetes).
        await eventually('the deleted account’s token to be refused', async () => (await admin1.api.request('GET', '/api/v1/namespaces/default/pods', { headers: { authorization: `Bearer ${token}` } })).status === 401);
        const after = await withToken(['get', 'pods', '-n', 'default']);
        expect(after.code).toBe(1);
        expect(after.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
        // The controller recreates `default` with a new uid: the old token stays dead.
        await eventually('default to be recreated', async () => (await admin1.run(['get', 'serviceaccount', 'default', '-n', 'default'])).code === 0);
        expect((await withToken(['get', 'pods', '-n', 'default'])).code).toBe(1);
      });
    });

    describe('impersonation', () => {
      it('lets a t3 admin act as alice, with alice’s rights and refusals', async () => {
        const admin3 = user('t3', 'admin');
        const alice3 = user('t3', 'alice');
        for (const version of VERSIONS) {
          const asAlice = await admin3.run(['--as=alice', 'get', 'pods', '-n', 'dev'], { version });
          const herself = await alice3.run(['get', 'pods', '-n', 'dev'], { version });
          expect(asAlice.code, asAlice.stderr).toBe(0);
          expect(parseTable(asAlice.stdout).names()).toEqual(parseTable(herself.stdout).names());
          const secrets = await admin3.run(['--as=alice', 'get', 'secrets', '-n', 'dev'], { version });
          expect(secrets.code).toBe(1);
          expect(secrets.stderr).toContain(forbiddenMessage('alice', { verb: 'list', group: '', resource: 'secrets', namespace: 'dev' }));
          const whoami = await admin3.run(['--as=alice', 'auth', 'whoami'], { version });
          expect(whoami.stdout).toMatch(/^Username\s+alice$/m);
          expect(whoami.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t3\]$/m);
          const canI = await admin3.run(['--as=alice', 'auth', 'can-i', 'create', 'configmaps', '-n', 'dev'], { version });
          expect(canI.stdout.trim()).toBe('no');
        }
        // --as-group: a made-up user in group viewers has view.
        const asGroup = await admin3.run(['--as=zed', '--as-group=viewers', 'get', 'pods', '-n', 'prod']);
        expect(asGroup.code, asGroup.stderr).toBe(0);
        const noGroup = await admin3.run(['--as=zed', 'get', 'pods', '-n', 'prod']);
        expect(noGroup.code).toBe(1);
        expect(noGroup.stderr).toContain(forbiddenMessage('zed', { verb: 'list', group: '', resource: 'pods', namespace: 'prod' }));
      });

      it('refuses impersonation without the impersonate verb, in kube-apiserver’s words', async () => {
        const alice3 = user('t3', 'alice');
        const res = await alice3.run(['--as=admin', 'get', 'pods', '-n', 'dev']);
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('Error from server (Forbidden): users "admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
        const group = await alice3.run(['--as=alice', '--as-group=system:masters', 'get', 'pods']);
        expect(group.code).toBe(1);
        expect(group.stderr).toContain('User "alice" cannot impersonate resource "users"');
      });

      it('checks impersonate per user and group name (dave may be bob, with group viewers)', async () => {
        const dave = user('t3', 'dave');
        const asBob = await dave.run(['--as=bob', 'get', 'pods', '-n', 'dev']);
        expect(asBob.code, asBob.stderr).toBe(0);
        const bobProd = await dave.run(['--as=bob', 'get', 'pods', '-n', 'prod']);
        expect(bobProd.code).toBe(1);
        expect(bobProd.stderr).toContain(forbiddenMessage('bob', { verb: 'list', group: '', resource: 'pods', namespace: 'prod' }));
        const withGroup = await dave.run(['--as=bob', '--as-group=viewers', 'get', 'pods', '-n', 'prod']);
        expect(withGroup.code, withGroup.stderr).toBe(0);
        const asAlice = await dave.run(['--as=alice', 'get', 'pods', '-n', 'dev']);
        expect(asAlice.code).toBe(1);
        expect(asAlice.stderr).toContain('users "alice" is forbidden: User "dave" cannot impersonate resource "users" in API group "" at the cluster scope');
        const masters = await dave.run(['--as=bob', '--as-group=system:masters', 'get', 'pods', '-n', 'dev']);
        expect(masters.code).toBe(1);
        expect(masters.stderr).toContain('groups "system:masters" is forbidden: User "dave" cannot impersonate resource "groups" in API group "" at the cluster scope');
        expect((await dave.run(['auth', 'can-i', 'impersonate', 'users/bob'])).stdout.trim()).toBe('yes');
        expect((await dave.run(['auth', 'can-i', 'impersonate', 'users/alice'])).stdout.trim()).toBe('no');
      });

      it('keeps a tenant user in its tenant: naming another through the tenant extra is Forbidden', async () => {
        const admin3 = user('t3', 'admin');
        const own = await impersonatingKubeconfig(admin3.kubeconfig, 't3-admin-as-alice-t3.kubeconfig', 'alice', { [TENANT_EXTRA]: ['t3'] });
        const ownSpace = await admin3.run(['get', 'pods', '-n', 'dev'], { kubeconfig: own });
        expect(ownSpace.code, ownSpace.stderr).toBe(0);
        const other = await impersonatingKubeconfig(admin3.kubeconfig, 't3-admin-as-alice-t2.kubeconfig', 'alice', { [TENANT_EXTRA]: ['t2'] });
        for (const version of VERSIONS) {
          const refused = await admin3.run(['get', 'pods', '-A'], { kubeconfig: other, version });
          expect(refused.code).toBe(1);
          expect(refused.stderr).toContain('Error from server (Forbidden)');
          expect(refused.stdout).not.toContain('demo-t2');
        }
        const raw = await admin3.api.request('GET', '/api/v1/pods', { headers: { 'impersonate-user': 'alice', 'Impersonate-Extra-kube-spaces.io%2ftenant': 't2' } });
        expect(raw.status).toBe(403);
        expect(raw.json()).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
        expect(raw.body).not.toContain('demo-t2');
      });

      it('lets the system admin act as a tenant’s user through the tenant extra', async () => {
        const asAlice = await impersonatingKubeconfig(cluster.server.adminKubeconfig, 'system-admin-as-alice-t3.kubeconfig', 'alice', { [TENANT_EXTRA]: ['t3'] });
        for (const version of VERSIONS) {
          const pods = await system.run(['get', 'pods', '-n', 'dev'], { kubeconfig: asAlice, version });
          expect(pods.code, pods.stderr).toBe(0);
          // The deployment `app`'s pod is there too (its controller made it).
          expect(parseTable(pods.stdout).names().filter((n) => !n.startsWith('app-')).sort()).toEqual(['db', 'web']);
          const whoami = await system.run(['auth', 'whoami'], { kubeconfig: asAlice, version });
          expect(whoami.stdout).toMatch(/^Extra: kube-spaces\.io\/tenant\s+\[t3\]$/m);
          const create = await system.run(['create', 'configmap', 'by-system', '-n', 'dev'], { kubeconfig: asAlice, version });
          expect(create.code).toBe(1);
          expect(create.stderr).toContain(forbiddenMessage('alice', { verb: 'create', group: '', resource: 'configmaps', namespace: 'dev' }));
        }
        // Without the extra, alice is the system space's alice, who has nothing.
        const systemAlice = await system.run(['--as=alice', 'get', 'pods', '-n', 'dev']);
        expect(systemAlice.code).toBe(1);
        expect(systemAlice.stderr).toContain('Forbidden');
      });
    });

    describe('SubjectAccessReview, LocalSubjectAccessReview and TokenReview', () => {
      const sar = (spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
      const tokenReview = (token: string) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });

      /** What a review's status may hold (access reviews and token reviews alike). */
      interface ReviewStatus {
        allowed?: boolean;
        denied?: boolean;
        reason?: string;
        authenticated?: boolean;
        user?: Record<string, unknown>;
        error?: string;
      }

      /** `kubectl create -f - -o json` of a review, as `u`; the answered review. */
      async function ask(u: User, review: unknown, version: KubectlVersion = 'dispatcher'): Promise<{ status: ReviewStatus }> {
        const result = await u.run(['create', '-f', '-', '-o', 'json'], { stdin: JSON.stringify(review), version });
        expect(result.code, result.stderr).toBe(0);
        return JSON.parse(result.stdout) as { status: ReviewStatus };
      }

      it('answers SubjectAccessReview about users and groups of the requester’s space', async () => {
        const admin3 = user('t3', 'admin');
        const cases: Array<[Record<string, unknown>, boolean]> = [
          [{ user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'dev' } }, true],
          [{ user: 'alice', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'dev', name: 's1' } }, false],
          [{ user: 'bob', resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'dev' } }, true],
          [{ user: 'bob', resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'prod' } }, false],
          [{ user: 'carol', resourceAttributes: { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'dev', name: 'db' } }, true],
          [{ user: 'carol', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'dev', name: 'db' } }, false],
          [{ user: 'zed', groups: ['viewers'], resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments', namespace: 'prod' } }, true],
          [{ user: 'zed', resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments', namespace: 'prod' } }, false],
          // The subject has exactly the groups asked about: without system:authenticated, no discovery.
          [{ user: 'alice', nonResourceAttributes: { verb: 'get', path: '/api' } }, false],
          [{ user: 'alice', groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/api' } }, true],
          [{ user: 'admin', resourceAttributes: { verb: 'delete', resource: 'namespaces', name: 'dev' } }, true],
        ];
        const runs = VERSIONS.flatMap((version) => cases.map(([spec, allowed]) => ({ version, spec, allowed })));
        const answers = await inBatches(runs, 4, async ({ version, spec }) => (await ask(admin3, sar(spec), version)).status.allowed === true);
        expect(answers.map((allowed, i) => ({ ...runs[i]!, allowed }))).toEqual(runs);
        // Asking needs create on subjectaccessreviews: alice (view) may not. Without --validate=false
        // kubectl stops earlier, as against kube-apiserver: a kind without PATCH sends it to list
        // CRDs, which view does not grant.
        const refused = await user('t3', 'alice').run(['create', '--validate=false', '-f', '-'], { stdin: JSON.stringify(sar(cases[0]![0])) });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(forbiddenMessage('alice', { verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews' }));
      });

      it('judges the subject in the requester’s space only (t2’s admin asks about t3’s bob)', async () => {
        const admin2 = user('t2', 'admin');
        // t3's bob may create configmaps in dev; t2 has no bob binding at all.
        const inT2 = await ask(admin2, sar({ user: 'bob', resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'dev' } }));
        expect(inT2.status.allowed).toBe(false);
        const named = await ask(admin2, sar({ user: 'bob', extra: { [TENANT_EXTRA]: ['t3'] }, resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: 'dev' } }));
        expect(named.status.allowed).toBe(false);
        // t2's alice was granted view in t2 by the demo: that, and only that, counts.
        const alice = await ask(admin2, sar({ user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } }));
        expect(alice.status.allowed).toBe(true);
      });

      it('answers LocalSubjectAccessReview in its namespace only', async () => {
        const admin3 = user('t3', 'admin');
        const path = '/apis/authorization.k8s.io/v1/namespaces/dev/localsubjectaccessreviews';
        const lsar = (ns: string) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'dev' }, spec: { user: 'bob', resourceAttributes: { verb: 'create', resource: 'configmaps', namespace: ns } } });
        const res = await admin3.api.request('POST', path, { json: lsar('dev') });
        expect(res.status, res.body).toBe(201);
        expect(res.json()).toMatchObject({ kind: 'LocalSubjectAccessReview', status: { allowed: true } });
        const byKubectl = await ask(admin3, lsar('dev'), '1.27');
        expect(byKubectl.status.allowed).toBe(true);
        const other = await admin3.api.request('POST', path, { json: lsar('prod') });
        expect(other.status).toBe(422);
        expect(other.json()).toMatchObject({ reason: 'Invalid' });
        // bob (edit in dev) holds no localsubjectaccessreviews; in kube that is admin's.
        const bob = await user('t3', 'bob').api.request('POST', path, { json: lsar('dev') });
        expect(bob.status).toBe(403);
        expect(bob.json<{ message: string }>().message).toBe(forbiddenMessage('bob', { verb: 'create', group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', namespace: 'dev' }));
      });

      it('answers TokenReview for tokens of the requester’s space, and not for another space’s', async () => {
        const admin3 = user('t3', 'admin');
        const alice3 = user('t3', 'alice');
        const alice2 = user('t2', 'alice');
        for (const version of VERSIONS) {
          const own = await ask(admin3, tokenReview(alice3.token!), version);
          expect(own.status.authenticated).toBe(true);
          expect(own.status.user).toMatchObject({ username: 'alice', groups: expect.arrayContaining(['system:authenticated']), extra: { [TENANT_EXTRA]: ['t3'] } });
          const foreign = await ask(admin3, tokenReview(alice2.token!), version);
          expect(foreign.status.authenticated ?? false).toBe(false);
          expect(foreign.status.user ?? {}).toEqual({});
          expect(JSON.stringify(foreign.status)).not.toContain('t2');
        }
        // A service-account token of t1: known in t1, unknown in t3.
        const admin1 = user('t1', 'admin');
        const sa = await admin1.run(['create', 'token', 'default', '-n', 'kube-system']);
        expect(sa.code, sa.stderr).toBe(0);
        const inT1 = await ask(admin1, tokenReview(sa.stdout.trim()));
        expect(inT1.status.authenticated).toBe(true);
        expect(inT1.status.user).toMatchObject({ username: 'system:serviceaccount:kube-system:default', extra: { [TENANT_EXTRA]: ['t1'] } });
        const inT3 = await ask(admin3, tokenReview(sa.stdout.trim()));
        expect(inT3.status.authenticated ?? false).toBe(false);
        expect(inT3.status.user ?? {}).toEqual({});
        const garbage = await ask(admin3, tokenReview('not-a-token'));
        expect(garbage.status.authenticated ?? false).toBe(false);
        // Asking needs create on tokenreviews.
        const refused = await alice3.api.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { json: tokenReview(alice3.token!) });
        expect(refused.status).toBe(403);
        expect(refused.json<{ message: string }>().message).toBe(forbiddenMessage('alice', { verb: 'create', group: 'authentication.k8s.io', resource: 'tokenreviews' }));
      });
    });
  });
});

/**
 * `kubectl auth can-i --list` rows: `Resources  Non-Resource URLs  Resource Names  Verbs`, where
 * the first cell is empty for non-resource rules (so the generic table parser, keyed on NAME, does not fit).
 */
function parseTableLoose(text: string): Array<{ resource: string; urls: string; names: string; verbs: string }> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = lines.findIndex((l) => l.startsWith('Resources'));
  if (header < 0) throw new Error(`no can-i --list header in:\n${text}`);
  const h = lines[header]!;
  const cols = [h.indexOf('Non-Resource URLs'), h.indexOf('Resource Names'), h.indexOf('Verbs')];
  return lines.slice(header + 1).map((l) => ({
    resource: l.slice(0, cols[0]).trim(),
    urls: l.slice(cols[0], cols[1]).trim(),
    names: l.slice(cols[1], cols[2]).trim(),
    verbs: l.slice(cols[2]).trim(),
  }));
}
