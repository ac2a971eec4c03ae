/**
 * RBAC in the running server: the default policy is written into the system space, the
 * aggregation controller (in the in-process controller manager) fills `admin`/`edit`/`view` and a space's own aggregated roles (from its
 * own roles and the shared defaults, never another space's), and bindings written through the
 * store reach the authorizer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { PolicyRule } from '../../api/kinds/rbac/rules.js';
import type { UserInfo } from '../../api/access.js';
import type { ControlPlane } from '../../src/control-plane.js';
import { startInProcessServer, type InProcessServer } from '../../src/testing/in-process-server.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
const RBAC = 'rbac.authorization.k8s.io';

describe('RBAC in the control plane', () => {
  let server: InProcessServer;
  let plane: ControlPlane;
  let clusterRoles: ResourceDefinition;
  let clusterRoleBindings: ResourceDefinition;

  const rulesOf = async (tenant: string, name: string) => ((await plane.generic.get(clusterRoles, { tenant, name })) as KubeObject & { rules?: PolicyRule[] }).rules ?? [];
  const role = (name: string, labels: Record<string, string>, rules: PolicyRule[]): KubeObject => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, labels }, rules });

  beforeAll(async () => {
    server = await startInProcessServer({ log });
    plane = server.plane;
    clusterRoles = plane.registry.lookup(RBAC, 'v1', 'clusterroles')!;
    clusterRoleBindings = plane.registry.lookup(RBAC, 'v1', 'clusterrolebindings')!;
    const tenants = plane.registry.lookup('', 'v1', 'tenants')!;
    for (const name of ['a1', 'a2', 'b1']) await plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
    for (const name of ['a1', 'a2', 'b1']) {
      await eventually(async () => expect(((await plane.generic.get(tenants, { tenant: '', name })).status as { phase?: string } | undefined)?.phase).toBe('Active'));
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  it('writes the default policy into the system space and aggregates admin ⊇ edit ⊇ view', async () => {
    await eventually(async () => expect((await rulesOf('system', 'view')).length).toBeGreaterThan(0));
    const view = await rulesOf('system', 'view');
    expect(view.every((r) => (r.verbs ?? []).every((v) => ['get', 'list', 'watch'].includes(v)))).toBe(true);
    // The aggregation controller fills each role in its own time: edit and admin may lag view.
    await eventually(async () => {
      for (const rule of view) expect(await rulesOf('system', 'edit')).toContainEqual(rule);
      for (const rule of await rulesOf('system', 'edit')) expect(await rulesOf('system', 'admin')).toContainEqual(rule);
    });
    expect((await rulesOf('system', 'admin')).some((r) => r.resources?.includes('rolebindings'))).toBe(true);
  });

  it("fills a space's aggregated role from its own roles and the shared defaults only", async () => {
    const aggregate = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/monitoring': 'true' } }] } };
    const podRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
    const secretRule = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] };
    await plane.generic.create(clusterRoles, { tenant: 'a1' }, aggregate);
    await plane.generic.create(clusterRoles, { tenant: 'a1' }, role('pods', { 'example.com/monitoring': 'true' }, [podRule]));
    await plane.generic.create(clusterRoles, { tenant: 'a2' }, role('secrets', { 'example.com/monitoring': 'true' }, [secretRule]));
    await eventually(async () => expect(await rulesOf('a1', 'monitoring')).toEqual([podRule]));
    // Selecting the shared defaults' labels reaches the system's roles.
    await plane.generic.mutate(clusterRoles, { tenant: 'a1', name: 'monitoring' }, (obj) => ({ ...obj, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] } }));
    await eventually(async () => expect(await rulesOf('a1', 'monitoring')).toEqual(await rulesOf('system', 'system:aggregate-to-view')));
  });

  it('applies bindings written through the store to authorization, and refuses escalation through the store', async () => {
    const alice: UserInfo = { name: 'alice', uid: '', groups: ['system:authenticated'], tenant: 'b1', extra: {} };
    const listPods = { verb: 'list', group: '', resource: 'pods', namespace: 'default', tenant: 'b1' };
    expect(plane.authorizer.authorize(alice, listPods).allowed).toBe(false);
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'alice-view' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }] };
    await plane.generic.create(clusterRoleBindings, { tenant: 'b1' }, binding);
    await eventually(() => expect(plane.authorizer.authorize(alice, listPods).allowed).toBe(true));
    // alice may not hand herself edit.
    const escalation = { ...binding, metadata: { name: 'alice-edit' }, roleRef: { ...binding.roleRef, name: 'edit' } };
    await expect(plane.generic.create(clusterRoleBindings, { tenant: 'b1' }, escalation, { user: alice })).rejects.toThrow(/attempting to grant RBAC permissions not currently held/);
  });
});
