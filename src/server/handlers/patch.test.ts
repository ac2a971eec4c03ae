/**
 * PATCH through the HTTP layer: which patch types a kind takes (415 otherwise, worded as
 * kube-apiserver words it), strategic merge patch driven by the kind's schema, and the 409 a
 * stale resourceVersion in a patch earns (kubectl apply retries on it).
 */
import { WatchCaches } from '../../../api/registry/watch-cache.js';
import { Authorizer } from '../../../authz/authorize.js';
import { RbacIndex } from '../../../authz/rbac/rbac-index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenericStore } from '../../../api/registry/generic-store.js';
import { ResourceRegistry } from '../../../api/registry/registry.js';
import { defineKind } from '../../../api/registry/resource-definition.js';
import { define, list, object, ref, string } from '../../../api/schema/schema.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../../authz/authenticate.js';
import type { UserInfo } from '../../../api/access.js';
import { openSqliteStore } from '../../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../../storage/store.js';
import { buildApp, type KubeApp } from '../app.js';

const gadgets = defineKind({
  group: 'test.kube-spaces.io',
  version: 'v1',
  kind: 'Gadget',
  resource: 'gadgets',
  scope: 'namespace',
  schema: define(
    'io.kubespaces.test.v1.Gadget',
    object('A kind with a schema.', {
      apiVersion: string('API version.'),
      kind: string('Kind.'),
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
      parts: list(object('A part.', { name: string('Name.'), size: string('Size.') }), 'Parts, merged by name.', { mergeKey: 'name', strategy: 'merge' }),
    }),
  ),
});

// Free-form, as custom resources are: Kubernetes takes no strategic merge patch for them.
const blobs = defineKind({
  group: 'test.kube-spaces.io',
  version: 'v1',
  kind: 'Blob',
  resource: 'blobs',
  scope: 'namespace',
  schema: define('io.kubespaces.test.v1.Blob', { type: 'object', description: 'Anything.', 'x-kubernetes-preserve-unknown-fields': true }),
});

const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters'], tenant: 'system', extra: {} };
const auth = { authorization: 'Bearer admin-token' };
const base = '/apis/test.kube-spaces.io/v1/namespaces/default';

describe('PATCH', () => {
  let dir: string;
  let store: Store;
  let app: KubeApp;

  beforeAll(async () => {
    await import('../../../api/schema/meta.js');
    dir = mkdtempSync(join(tmpdir(), 'patch-handler-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    const tokens = { lookup: async (token: string) => (token === 'admin-token' ? structuredClone(admin) : null) };
    app = buildApp({
      store,
      authenticate: authenticationChain([bearerTokenAuthenticator(tokens)]),
      logger: pino({ level: 'silent' }),
      buildInfo: { version: '0.1.0', gitCommit: 'abc', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z' },
      registry: new ResourceRegistry([gadgets, blobs]),
      generic: new GenericStore(store),
      watchCaches: new WatchCaches(new GenericStore(store)),
      authorizer: new Authorizer(new RbacIndex(), []),
      // Every tenant these tests name exists.
      tenantExists: () => true,
    });
    for (const [resource, body] of [
      ['gadgets', { apiVersion: 'test.kube-spaces.io/v1', kind: 'Gadget', metadata: { name: 'g' }, parts: [{ name: 'a', size: 's' }, { name: 'b', size: 's' }] }],
      ['blobs', { apiVersion: 'test.kube-spaces.io/v1', kind: 'Blob', metadata: { name: 'b' }, data: { x: 1 } }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: `${base}/${resource}`, headers: auth, payload: body });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  afterAll(async () => {
    await app?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const patch = (url: string, contentType: string, body: unknown) =>
    app.inject({ method: 'PATCH', url: `${base}/${url}`, headers: { ...auth, 'content-type': contentType }, payload: JSON.stringify(body) });

  it('merges a strategic merge patch by the schema’s merge keys', async () => {
    const res = await patch('gadgets/g', 'application/strategic-merge-patch+json', {
      '$setElementOrder/parts': [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
      parts: [
        { name: 'b', size: 'l' },
        { name: 'c', size: 'm' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().parts).toEqual([
      { name: 'a', size: 's' },
      { name: 'b', size: 'l' },
      { name: 'c', size: 'm' },
    ]);
  });

  it('answers a strategic merge patch of a kind without a schema with 415', async () => {
    const res = await patch('blobs/b', 'application/strategic-merge-patch+json', { data: { y: 2 } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
  });

  it('takes merge patches of a kind without a schema', async () => {
    const res = await patch('blobs/b', 'application/merge-patch+json', { data: { y: 2 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ x: 1, y: 2 });
  });

  it('answers an unknown patch type with 415 listing what the kind takes', async () => {
    const res = await patch('gadgets/g', 'application/x-unknown-patch', {});
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('answers a strategic merge patch error with the Status its words call for', async () => {
    const res = await patch('gadgets/g', 'application/strategic-merge-patch+json', { parts: [{ size: 'xl' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ reason: 'Invalid', message: 'map: map[size:xl] does not contain declared merge key: name' });
  });

  it('answers 409 Conflict to a strategic patch pinned to a stale resourceVersion', async () => {
    const current = (await app.inject({ method: 'GET', url: `${base}/gadgets/g`, headers: auth })).json();
    const stale = String(Number(current.metadata.resourceVersion) - 1);
    const res = await patch('gadgets/g', 'application/strategic-merge-patch+json', { metadata: { resourceVersion: stale }, parts: [{ name: 'a', size: 'xs' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ reason: 'Conflict' });
    const fresh = await patch('gadgets/g', 'application/strategic-merge-patch+json', { metadata: { resourceVersion: current.metadata.resourceVersion }, parts: [{ name: 'a', size: 'xs' }] });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
