/**
 * DELETE's DeleteOptions through the HTTP layer: the propagation policy from the body or the
 * query, the deprecated `orphanDependents` (still honoured, never together with a policy), and
 * the 202 kube-apiserver answers a cascading delete asked for the legacy way.
 */
import { WatchCaches } from '../../../api/registry/watch-cache.js';
import { Authorizer } from '../../../authz/authorize.js';
import { RbacIndex } from '../../../authz/rbac/rbac-index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../../api/kinds/index.js';
import { GenericStore } from '../../../api/registry/generic-store.js';
import { ResourceRegistry } from '../../../api/registry/registry.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../../authz/authenticate.js';
import type { UserInfo } from '../../../api/access.js';
import { openSqliteStore } from '../../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../../storage/store.js';
import { buildApp, type KubeApp } from '../app.js';

const admin: UserInfo = { name: 'admin', uid: 'u-1', groups: ['system:masters'], tenant: 'system', extra: {} };
const auth = { authorization: 'Bearer admin-token' };
const base = '/api/v1/namespaces/default/configmaps';

describe('DELETE with DeleteOptions', () => {
  let dir: string;
  let store: Store;
  let app: KubeApp;
  let n = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'delete-handler-'));
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

  /** Creates a ConfigMap and DELETEs it with `query` and `body`. */
  async function createAndDelete(query: string, body: Record<string, unknown> | undefined, finalizers?: string[]) {
    n += 1;
    const name = `cm-${n}`;
    const created = await app.inject({ method: 'POST', url: base, headers: auth, payload: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers } } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${base}/${name}${query}`;
    return body === undefined ? app.inject({ method: 'DELETE', url, headers: auth }) : app.inject({ method: 'DELETE', url, headers: auth, payload: body });
  }

  it.each([
    ['propagationPolicy in the body', '', { propagationPolicy: 'Foreground' }, ['foregroundDeletion']],
    ['propagationPolicy in the query', '?propagationPolicy=Orphan', undefined, ['orphan']],
    ['orphanDependents in the body', '', { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true }, ['orphan']],
    ['orphanDependents in the query', '?orphanDependents=true', undefined, ['orphan']],
  ])('hands the object to the garbage collector: %s', async (_case, query, body, finalizers) => {
    const res = await createAndDelete(query, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().metadata).toMatchObject({ finalizers, deletionTimestamp: expect.any(String) });
  });

  it('deletes at once in the background', async () => {
    const res = await createAndDelete('', { propagationPolicy: 'Background' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it('answers 202 to orphanDependents=false while other finalizers hold the object', async () => {
    const res = await createAndDelete('', { orphanDependents: false }, ['example.com/hold']);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().metadata.finalizers).toEqual(['example.com/hold']);
  });

  it.each([
    ['both orphanDependents and propagationPolicy', { orphanDependents: true, propagationPolicy: 'Orphan' }, 422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set'],
    ['an unknown propagationPolicy', { propagationPolicy: 'Sideways' }, 422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan"'],
    ['a non-boolean orphanDependents', { orphanDependents: 'yes' }, 400, 'DeleteOptions.orphanDependents must be a boolean'],
  ])('refuses %s', async (_case, body, code, message) => {
    const res = await createAndDelete('', body);
    expect(res.statusCode, res.body).toBe(code);
    expect(res.json()).toMatchObject({ kind: 'Status', code, message });
  });
});
