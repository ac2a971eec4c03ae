/**
 * TokenRequest and service-account authentication through the HTTP layer: a token issued by
 * `serviceaccounts/<name>/token` authenticates as that account in its own space, and stops
 * working when the account is deleted and recreated (new uid), even where another space has an
 * account of the same namespace and name.
 */
import { WatchCaches } from '../../../api/registry/watch-cache.js';
import { Authorizer } from '../../../authz/authorize.js';
import { RbacIndex } from '../../../authz/rbac/rbac-index.js';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinKinds } from '../../../api/kinds/index.js';
import { GenericStore } from '../../../api/registry/generic-store.js';
import { ResourceRegistry } from '../../../api/registry/registry.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../../authz/authenticate.js';
import { serviceAccountAuthenticator, storeServiceAccountLookup } from '../../../authz/service-account-authenticator.js';
import { ServiceAccountTokens } from '../../../authz/service-account-token.js';
import type { UserInfo } from '../../../api/access.js';
import { openSqliteStore } from '../../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../../storage/store.js';
import { buildApp, type KubeApp } from '../app.js';

const alice: UserInfo = { name: 'alice', uid: 'u-1', groups: [], tenant: 't1', extra: {} };
const bob: UserInfo = { name: 'bob', uid: 'u-2', groups: [], tenant: 't2', extra: {} };
const users: Record<string, UserInfo> = { 'alice-token': alice, 'bob-token': bob };
/** RBAC where every authenticated identity of these spaces may do anything in its own space. */
function everyoneMayDoAnythingIn(tenants: string[]): RbacIndex {
  const rbac = new RbacIndex();
  for (const tenant of tenants) {
    const metadata = { name: 'everything', tenant };
    rbac.apply('ClusterRole', tenant, '', 'everything', { metadata, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] });
    const subjects = [{ kind: 'Group', name: 'system:authenticated' }];
    rbac.apply('ClusterRoleBinding', tenant, '', 'everything', { metadata, roleRef: { kind: 'ClusterRole', name: 'everything' }, subjects });
  }
  return rbac;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const tokenUrl = (name: string) => `/api/v1/namespaces/ns1/serviceaccounts/${name}/token`;
const tokenRequest = (spec: Record<string, unknown> = {}) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });

describe('serviceaccounts/<name>/token and service-account authentication', () => {
  let dir: string;
  let store: Store;
  let app: KubeApp;
  let generic: GenericStore;
  let serviceAccounts: ResourceDefinition;
  const log = { info: vi.fn() };

  const createAccount = (tenant: string, name: string) =>
    generic.create(serviceAccounts, { tenant, namespace: 'ns1' }, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns1' } });
  const issue = async (asUser: string, name: string, spec?: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: tokenUrl(name), headers: bearer(asUser), payload: tokenRequest(spec) });
  const tokenOf = async (asUser: string, name: string): Promise<string> => {
    const res = await issue(asUser, name);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { status: { token: string } }).status.token;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'token-request-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    const registry = new ResourceRegistry(builtinKinds);
    generic = new GenericStore(store);
    serviceAccounts = registry.lookup('', 'v1', 'serviceaccounts')!;
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const tokens = new ServiceAccountTokens(key);
    app = buildApp({
      store,
      authenticate: authenticationChain([
        bearerTokenAuthenticator({ lookup: async (token) => (users[token] ? structuredClone(users[token]) : null) }),
        serviceAccountAuthenticator({ tokens, lookup: storeServiceAccountLookup(generic, registry), log }),
      ]),
      logger: pino({ level: 'silent' }),
      buildInfo: { version: '0.1.0', gitCommit: 'abc', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z' },
      registry,
      generic,
      watchCaches: new WatchCaches(generic),
      authorizer: new Authorizer(everyoneMayDoAnythingIn(['t1', 't2']), []),
      // Every tenant these tests name exists.
      tenantExists: () => true,
      serviceAccountTokens: tokens,
    });
    await createAccount('t1', 'builder');
    await createAccount('t2', 'builder');
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a TokenRequest with a token for the API server, valid for an hour by default', async () => {
    const res = await issue('alice-token', 'builder');
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json() as { kind: string; metadata: { name: string; namespace: string }; spec: { audiences: string[]; expirationSeconds: number }; status: { token: string; expirationTimestamp: string } };
    expect(answer).toMatchObject({ kind: 'TokenRequest', metadata: { name: 'builder', namespace: 'ns1' }, spec: { audiences: ['https://kube-spaces.local'], expirationSeconds: 3600 } });
    const claims = jwt.decode(answer.status.token) as jwt.JwtPayload;
    expect(claims['kubernetes.io']).toMatchObject({ namespace: 'ns1', tenant: 't1', serviceaccount: { name: 'builder' } });
    expect(new Date(answer.status.expirationTimestamp).getTime() / 1000).toBe(claims.exp);
  });

  it('authenticates the token as the service account of its space', async () => {
    const token = await tokenOf('alice-token', 'builder');
    const whoami = await app.inject({ method: 'POST', url: '/apis/authentication.k8s.io/v1/selfsubjectreviews', headers: bearer(token), payload: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    expect(whoami.statusCode, whoami.body).toBe(201);
    expect(whoami.json()).toMatchObject({
      status: { userInfo: { username: 'system:serviceaccount:ns1:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'], extra: { 'kube-spaces.io/tenant': ['t1'] } } },
    });
    const list = await app.inject({ method: 'GET', url: '/api/v1/namespaces/ns1/configmaps', headers: bearer(token) });
    expect(list.statusCode, list.body).toBe(200);
    const otherSpace = await app.inject({ method: 'GET', url: '/api/v1/tenants/t2/namespaces/ns1/configmaps', headers: bearer(token) });
    expect(otherSpace.statusCode).toBe(403);
  });

  it('refuses tokens of a deleted and recreated account, though another space has the same name', async () => {
    await createAccount('t1', 'recreated');
    const token = await tokenOf('alice-token', 'recreated');
    await createAccount('t2', 'recreated');
    await generic.delete(serviceAccounts, { tenant: 't1', namespace: 'ns1', name: 'recreated' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/namespaces/ns1/configmaps', headers: bearer(token) })).statusCode).toBe(401);
    await createAccount('t1', 'recreated');
    expect((await app.inject({ method: 'GET', url: '/api/v1/namespaces/ns1/configmaps', headers: bearer(token) })).statusCode).toBe(401);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ tenant: 't1', serviceAccount: 'recreated' }), expect.any(String));
    const fresh = await tokenOf('alice-token', 'recreated');
    expect((await app.inject({ method: 'GET', url: '/api/v1/namespaces/ns1/configmaps', headers: bearer(fresh) })).statusCode).toBe(200);
  });

  it('refuses a token asked for another audience', async () => {
    const res = await issue('alice-token', 'builder', { audiences: ['vault'] });
    expect(res.statusCode, res.body).toBe(201);
    const token = (res.json() as { status: { token: string } }).status.token;
    expect((await app.inject({ method: 'GET', url: '/api/v1/namespaces/ns1/configmaps', headers: bearer(token) })).statusCode).toBe(401);
  });

  it.each([
    [{ expirationSeconds: 599 }, 'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes'],
    [{ boundObjectRef: { kind: 'Pod', name: 'web' } }, 'spec.boundObjectRef: Forbidden: tokens bound to objects are not supported'],
  ])('refuses the spec %j with 422', async (spec, message) => {
    const res = await issue('alice-token', 'builder', spec);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'Invalid', message: `TokenRequest.authentication.k8s.io "builder" is invalid: ${message}` });
  });

  it.each([
    [{ expirationSeconds: 'soon' }, 'string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64'],
    [{ expirationSeconds: 600.5 }, 'number 600.5 into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64'],
    [{ audiences: 'vault' }, 'string into Go struct field TokenRequestSpec.spec.audiences of type []string'],
    [{ audiences: ['vault', 1] }, 'number into Go struct field TokenRequestSpec.spec.audiences of type string'],
  ])('refuses the spec %j with 400 as Go’s decoder does', async (spec, message) => {
    const res = await issue('alice-token', 'builder', spec);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'BadRequest', message: `TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal ${message}` });
  });

  it('answers 404 for an account that does not exist in the caller’s space, and 405 for other verbs', async () => {
    expect((await issue('alice-token', 'missing')).statusCode).toBe(404);
    await createAccount('t2', 'only-in-t2');
    const res = await issue('alice-token', 'only-in-t2');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'serviceaccounts "only-in-t2" not found' });
    expect((await app.inject({ method: 'GET', url: tokenUrl('builder'), headers: bearer('alice-token') })).statusCode).toBe(405);
  });
});
