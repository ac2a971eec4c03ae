import { pino } from 'pino';
import { WatchCaches } from '../../api/registry/watch-cache.js';
import { Authorizer } from '../../authz/authorize.js';
import { RbacIndex } from '../../authz/rbac/rbac-index.js';
import { GenericStore } from '../../api/registry/generic-store.js';
import { ResourceRegistry } from '../../api/registry/registry.js';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticationChain, bearerTokenAuthenticator } from '../../authz/authenticate.js';
import type { UserInfo } from '../../api/access.js';
import type { Store } from '../../storage/store.js';
import { fromStorageError } from '../../api/registry/api-errors.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { StorageError } from '../../storage/errors.js';
import { BODY_LIMIT, buildApp } from './app.js';

const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters'], tenant: 'system', extra: {} };
const buildInfo = { version: '0.1.0', gitCommit: 'abc123', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z' } as const;

let storeDown = false;
/** Only `ping` is reached by these routes. */
const store = {
  ping: async () => {
    if (storeDown) throw new Error('connection refused');
  },
} as unknown as Store;

function makeApp() {
  const tokens = { lookup: async (token: string) => (token === 'good-token' ? structuredClone(admin) : null) };
  const app = buildApp({
    store,
    authenticate: authenticationChain([bearerTokenAuthenticator(tokens)]),
    logger: pino({ level: 'silent' }),
    buildInfo,
    registry: new ResourceRegistry([]),
    generic: new GenericStore(store),
    watchCaches: new WatchCaches(new GenericStore(store)),
    authorizer: new Authorizer(new RbacIndex(), []),
    // Every tenant these tests name exists.
    tenantExists: () => true,
  });
  app.get('/whoami', async (request) => request.kube);
  app.post('/echo', async (request) => ({ type: typeof request.body, isBuffer: Buffer.isBuffer(request.body) }));
  app.get('/storage-down', async () => {
    throw fromStorageError(new StorageError('Unavailable', '/registry/core/configmaps/t1/ns/cm', 'etcd: no leader'), { group: '', resource: 'configmaps' } as ResourceDefinition, 'cm');
  });
  app.get('/write-lost', async () => {
    throw fromStorageError(new StorageError('OutcomeUnknown', '/registry/core/configmaps/t1/ns/cm', 'etcd: etcdserver: request timed out'), { group: '', resource: 'configmaps' } as ResourceDefinition, 'cm');
  });
  app.get('/boom', async () => {
    throw new Error('secret internal detail');
  });
  return app;
}

const auth = { authorization: 'Bearer good-token' };

afterEach(() => {
  storeDown = false;
});

describe('health endpoints', () => {
  it.each(['/healthz', '/livez', '/readyz', '/readyz/', '/healthz?timeout=32s'])('%s answers ok anonymously', async (url) => {
    const res = await makeApp().inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('ok');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('lists the checks with ?verbose', async () => {
    const res = await makeApp().inject({ url: '/readyz?verbose' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('[+]ping ok\n[+]storage ok\n[+]shutdown ok\nreadyz check passed\n');
  });

  it('fails readyz and healthz, not livez, when the store does not answer, withholding the reason', async () => {
    storeDown = true;
    const app = makeApp();
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(500);
    expect(ready.body).toBe('[+]ping ok\n[-]storage failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n');
    expect(ready.body).not.toContain('connection refused');
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/livez' })).body).toBe('ok');
  });

  it('runs a single check by name', async () => {
    const app = makeApp();
    expect((await app.inject({ url: '/readyz/storage' })).body).toBe('ok');
    storeDown = true;
    expect((await app.inject({ url: '/readyz/storage' })).statusCode).toBe(500);
    const unknown = await app.inject({ url: '/readyz/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });
});

describe('/version', () => {
  it.each(['/version', '/version/', '/version?timeout=5s'])('%s returns the Kubernetes version object anonymously', async (url) => {
    const res = await makeApp().inject({ url });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      major: '1',
      minor: '33',
      gitVersion: 'v1.33.0-kube-spaces.0.1.0',
      gitCommit: 'abc123',
      gitTreeState: 'clean',
      buildDate: '2025-01-01T00:00:00Z',
      compiler: 'tsc',
    });
    expect(body.goVersion).toBe(`node ${process.version}`);
    expect(body.platform).toMatch(/^linux\/(amd64|arm64)$/);
    // Valid semver 2.0 (what client-go's version parsing accepts).
    expect(body.gitVersion).toMatch(/^v\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/);
  });
});

describe('authentication', () => {
  it('refuses requests without a valid token with a 401 Status', async () => {
    const app = makeApp();
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic Zm9vOmJhcg==' }]) {
      const res = await app.inject({ url: '/whoami', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
  });

  it('puts the identity on request.kube, in system:authenticated', async () => {
    const res = await makeApp().inject({ url: '/whoami', headers: { authorization: 'bearer  good-token' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: { ...admin, groups: ['system:masters', 'system:authenticated'] },
      info: { kind: 'nonresource', verb: 'get', path: '/whoami', tenantForm: 'short' },
      tenant: 'system',
    });
  });

  it('refuses unknown paths before telling whether they exist', async () => {
    expect((await makeApp().inject({ url: '/api/v1/nope' })).statusCode).toBe(401);
  });

  it.each(['/healthz', '/livez', '/readyz', '/version'])('answers %s 401 to a bad token (anonymous only without credentials)', async (url) => {
    const res = await makeApp().inject({ url, headers: { authorization: 'Bearer wrong-token' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('takes an Authorization header that carries no bearer token as no credentials', async () => {
    expect((await makeApp().inject({ url: '/healthz', headers: { authorization: 'Bearer ' } })).statusCode).toBe(200);
  });

  it('does not open look-alike paths', async () => {
    for (const url of ['/healthzz', '/versions', '/readyzfoo']) {
      expect((await makeApp().inject({ url })).statusCode).toBe(401);
    }
  });
});

describe('errors are Status objects', () => {
  it('answers unknown paths with 404 NotFound', async () => {
    const res = await makeApp().inject({ url: '/api/v1/nope', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      code: 404,
    });
  });

  it('hands malformed JSON to the handler as a Buffer (decodeBody words the 400)', async () => {
    const res = await makeApp().inject({
      method: 'POST',
      url: '/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"kind":',
    });
    expect(res.json()).toEqual({ type: 'object', isBuffer: true });
  });

  it('answers a body over 3 MiB with 413 RequestEntityTooLarge', async () => {
    const res = await makeApp().inject({
      method: 'POST',
      url: '/echo',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ data: 'x'.repeat(BODY_LIMIT) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
  });

  it('accepts bodies with no or another Content-Type as a Buffer', async () => {
    const app = makeApp();
    const none = await app.inject({ method: 'PUT', url: '/echo', headers: auth, payload: Buffer.from('{"spec":{}}') });
    // PUT has no route: the point is that the body was accepted and routing answered 404.
    expect(none.statusCode).toBe(404);
    const yaml = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { ...auth, 'content-type': 'application/yaml' },
      payload: 'kind: ConfigMap',
    });
    expect(yaml.json()).toEqual({ type: 'object', isBuffer: true });
    const bare = await app.inject({ method: 'POST', url: '/echo', headers: auth, payload: Buffer.from('{}') });
    expect(bare.json()).toEqual({ type: 'object', isBuffer: true });
  });

  it('accepts an empty application/json body (python sends DELETE like that; decodeBody takes it as none)', async () => {
    const res = await makeApp().inject({ method: 'POST', url: '/echo', headers: { ...auth, 'content-type': 'application/json' }, payload: '' });
    expect(res.statusCode).toBe(200);
  });

  it('answers unexpected errors with 500 InternalError without leaking the cause', async () => {
    const res = await makeApp().inject({ url: '/boom', headers: auth });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
    expect(res.body).not.toContain('secret internal detail');
  });

  it.each([
    // (inject() resolves `..` and `%2e%2e` as a URL does; the e2e tests send them raw)
    ['/api/v1/namespaces/a%2Fb/configmaps', 404, 'namespaces "a/b" not found'],
    ['/api/v1/tenants/t1%2F..%2Ft2/namespaces/default/configmaps', 404, 'tenants "t1/../t2" not found'],
    ['/tenants/t%25/api/v1/namespaces', 404, 'tenants "t%" not found'],
    ['/api/v1/namespaces/default/configmaps/a%2Fb', 400, 'Name parameter invalid: "a/b": may not contain \'/\''],
  ])('refuses %s before storage (the store here has no reads)', async (url, code, message) => {
    const res = await makeApp().inject({ url, headers: auth });
    expect(res.statusCode).toBe(code);
    expect(res.json()).toMatchObject({ kind: 'Status', code, message });
  });

  it('answers storage that cannot be reached with 503 and Retry-After, in the header and the details', async () => {
    const res = await makeApp().inject({ url: '/storage-down', headers: auth });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ reason: 'ServiceUnavailable', details: { kind: 'configmaps', retryAfterSeconds: 1 } });
  });

  it('answers a write storage did not confirm with 504 Timeout saying it may have been applied, and no Retry-After', async () => {
    const res = await makeApp().inject({ url: '/write-lost', headers: auth });
    expect(res.statusCode).toBe(504);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.json()).toMatchObject({ reason: 'Timeout', code: 504 });
    expect(res.json().message).toMatch(/^Timeout: request did not complete within requested timeout - .*may have been applied/);
  });

  it('answers a malformed URL with a 400 Status', async () => {
    const res = await makeApp().inject({ url: '/api/%zz', headers: auth });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  });
});
