/**
 * Protobuf through the whole request path, as client-go's typed clients use it: protobuf bodies
 * in, protobuf answers, errors and watch streams out, JSON and Tables unchanged for others.
 */
import { WatchCaches } from '../../api/registry/watch-cache.js';
import { Authorizer } from '../../authz/authorize.js';
import { RbacIndex } from '../../authz/rbac/rbac-index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../api/kinds/index.js';
import { decodeObject, decodeWatchFrames, encodeObject } from '../../api/protobuf/codec.js';
import { GenericStore } from '../../api/registry/generic-store.js';
import { ResourceRegistry } from '../../api/registry/registry.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../authz/authenticate.js';
import type { UserInfo } from '../../api/access.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { buildApp, type KubeApp } from './app.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters'], tenant: 'system', extra: {} };
/** What client-go's typed clients send. */
const typed = { authorization: 'Bearer admin-token', accept: `${PROTOBUF},application/json`, 'content-type': PROTOBUF };
const base = '/api/v1/namespaces/default/configmaps';

describe('protobuf over HTTP', () => {
  let dir: string;
  let store: Store;
  let app: KubeApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'protobuf-http-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    const tokens = { lookup: async (token: string) => (token === 'admin-token' ? structuredClone(admin) : null) };
    app = buildApp({
      store,
      authenticate: authenticationChain([bearerTokenAuthenticator(tokens)]),
      logger: pino({ level: 'silent' }),
      buildInfo: { version: '0.1.0', gitCommit: 'abc', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z' },
      registry: new ResourceRegistry(builtinKinds),
      generic: new GenericStore(store),
      watchCaches: new WatchCaches(new GenericStore(store)),
      authorizer: new Authorizer(new RbacIndex(), []),
      // Every tenant these tests name exists.
      tenantExists: () => true,
    });
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates from a protobuf body and answers in protobuf', async () => {
    const body = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', creationTimestamp: null }, data: { a: 'b' } });
    const res = await app.inject({ method: 'POST', url: `${base}?fieldManager=kubectl-create&fieldValidation=Strict`, headers: typed, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toBe(PROTOBUF);
    const created = decodeObject(res.rawPayload);
    expect(created).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm1', namespace: 'default', tenant: 'system' }, data: { a: 'b' } });

    const json = await app.inject({ url: `${base}/cm1`, headers: { authorization: typed.authorization } });
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.json()).toEqual(created);
  });

  it('reads single objects and lists in protobuf, Tables in JSON', async () => {
    const one = await app.inject({ url: `${base}/cm1`, headers: typed });
    expect(decodeObject(one.rawPayload)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm1' } });
    const list = decodeObject((await app.inject({ url: base, headers: typed })).rawPayload);
    expect(list).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', items: [{ metadata: { name: 'cm1' }, data: { a: 'b' } }] });
    const table = await app.inject({ url: base, headers: { authorization: typed.authorization, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    expect(table.json()).toMatchObject({ kind: 'Table', rows: [{ cells: ['cm1', 1, expect.any(String)] }] });
  });

  it('answers errors with a protobuf Status', async () => {
    const res = await app.inject({ url: `${base}/missing`, headers: typed });
    expect(res.statusCode).toBe(404);
    expect(decodeObject(res.rawPayload)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "missing" not found', reason: 'NotFound', details: { name: 'missing', kind: 'configmaps' }, code: 404 });
    const unknownPath = await app.inject({ url: '/no/such/path', headers: typed });
    expect(decodeObject(unknownPath.rawPayload)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('refuses a body whose kind is not the URL\'s, and one that is not protobuf, with 400', async () => {
    const secret = encodeObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    const wrongKind = await app.inject({ method: 'POST', url: base, headers: typed, payload: secret });
    expect(wrongKind.statusCode).toBe(400);
    expect(decodeObject(wrongKind.rawPayload)).toMatchObject({ reason: 'BadRequest', message: expect.stringContaining('Secret in version "v1" cannot be handled as a ConfigMap') });
    const notProtobuf = await app.inject({ method: 'POST', url: base, headers: typed, payload: '{"apiVersion":"v1","kind":"ConfigMap"}' });
    expect(notProtobuf.statusCode).toBe(400);
    expect(decodeObject(notProtobuf.rawPayload)).toMatchObject({ reason: 'BadRequest', message: expect.stringMatching(/^error decoding protobuf/) });
  });

  it('updates and deletes with protobuf bodies', async () => {
    const current = decodeObject((await app.inject({ url: `${base}/cm1`, headers: typed })).rawPayload);
    const updated = await app.inject({ method: 'PUT', url: `${base}/cm1`, headers: typed, payload: encodeObject({ ...current, data: { a: 'c' } }) });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(decodeObject(updated.rawPayload)).toMatchObject({ data: { a: 'c' } });
    const options = encodeObject({ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background' });
    const deleted = await app.inject({ method: 'DELETE', url: `${base}/cm1`, headers: typed, payload: options });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(decodeObject(deleted.rawPayload)).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'cm1', kind: 'configmaps' } });
  });

  it('streams a watch as length-prefixed protobuf frames', async () => {
    const created = await app.inject({ method: 'POST', url: base, headers: typed, payload: encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } }) });
    expect(created.statusCode).toBe(201);
    const res = await app.inject({ url: `${base}?watch=true&resourceVersion=0&timeoutSeconds=1&fieldSelector=metadata.name%3Dwatched`, headers: typed });
    expect(res.headers['content-type']).toBe(`${PROTOBUF};stream=watch`);
    expect(decodeWatchFrames(res.rawPayload)).toEqual([{ type: 'ADDED', object: expect.objectContaining({ kind: 'ConfigMap', apiVersion: 'v1', metadata: expect.objectContaining({ name: 'watched' }) }) }]);
  });
});
