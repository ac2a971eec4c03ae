/**
 * Discovery per space, against the server in process: a space's own CRD is served in that space
 * alone; every space at once (`allSpaces()`) serves the kinds every space has, so a list of the
 * space's own resource across spaces is answered 404, and its discovery does not list it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customResourceDefinition } from '../../e2e/harness/manifests.js';
import { startInProcessServer, testUser, type InProcessServer } from '../testing/in-process-server.js';
import { isNotFound } from './api-status.js';
import { tenants } from './builtin-kinds.js';
import type { KubeClient } from './kube-client.js';

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };

describe('discovery per space', () => {
  let server: InProcessServer;
  let admin: KubeClient;

  beforeAll(async () => {
    server = await startInProcessServer();
    admin = server.clientAs(testUser('admin', 'system', ['system:masters']));
    await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } });
    await vi.waitFor(async () => expect((await admin.resource(tenants).get('t1')).status?.phase).toBe('Active'), { timeout: 10_000, interval: 20 });
    await admin.space('t1').resource(CRDS).create(customResourceDefinition('example.com', 'Widget', 'widgets'));
  });
  afterAll(() => server?.close());

  const servesWidgets = async (scope: ReturnType<KubeClient['space']>) => (await scope.preferredResources()).some((r) => r.resource === 'widgets' && r.group === 'example.com');

  it('lists a space’s own CRD in that space only', async () => {
    await vi.waitFor(async () => expect(await servesWidgets(admin.space('t1'))).toBe(true), { timeout: 10_000, interval: 50 });
    expect(await servesWidgets(admin.space('system'))).toBe(false);
    expect(await servesWidgets(admin.allSpaces())).toBe(false);
    expect((await admin.allSpaces().preferredResources()).some((r) => r.resource === 'configmaps')).toBe(true);
  });

  it('answers 404 for that resource across every space, and resolves its kind in its space only', async () => {
    expect(isNotFound(await admin.allSpaces().resource(WIDGETS).list().catch((err: unknown) => err))).toBe(true);
    expect((await admin.space('t1').resource(WIDGETS).list()).items).toEqual([]);
    const acrossSpaces = await admin.allSpaces().resourceFor({ apiVersion: 'example.com/v1', kind: 'Widget' }).catch((err: unknown) => err);
    expect(String(acrossSpaces)).toMatch(/no resource serves Widget/);
    expect((await admin.space('t1').resourceFor({ apiVersion: 'example.com/v1', kind: 'Widget' })).resource).toEqual(WIDGETS);
  });
});
