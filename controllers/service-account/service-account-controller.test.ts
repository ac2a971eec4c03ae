/**
 * The service-account controller running in the server's controller manager (in process, on the client): `default` appears in every
 * namespace of every space, comes back when deleted, and does not hold up the deletion of a
 * namespace or of a whole space.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObjectLocation } from '../../api/registry/generic-store.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';
import type { ControlPlane } from '../../src/control-plane.js';
import { startInProcessServer, type InProcessServer } from '../../src/testing/in-process-server.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

describe('service-account controller', () => {
  let server: InProcessServer;
  let plane: ControlPlane;
  let tenants: ResourceDefinition;
  let namespaces: ResourceDefinition;
  let serviceAccounts: ResourceDefinition;

  const read = async (def: ResourceDefinition, loc: ObjectLocation) => {
    try {
      return await plane.generic.get(def, loc);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const defaultAccount = (tenant: string, namespace: string) => read(serviceAccounts, { tenant, namespace, name: 'default' });

  beforeAll(async () => {
    server = await startInProcessServer({ log });
    plane = server.plane;
    const kind = (resource: string) => plane.registry.lookup('', 'v1', resource)!;
    [tenants, namespaces, serviceAccounts] = [kind('tenants'), kind('namespaces'), kind('serviceaccounts')];
    await plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('creates default in the namespaces of the system space and of a new space', async () => {
    await eventually(async () => expect(await defaultAccount('system', 'kube-system')).toBeDefined());
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await eventually(async () => expect(await defaultAccount('t1', ns)).toMatchObject({ metadata: { tenant: 't1', namespace: ns, name: 'default' } }));
    }
  });

  it('creates default in a new namespace and again after it is deleted', async () => {
    await plane.generic.create(namespaces, { tenant: 't1' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
    await eventually(async () => expect(await defaultAccount('t1', 'ns1')).toBeDefined());
    const first = (await defaultAccount('t1', 'ns1'))!;
    await plane.generic.delete(serviceAccounts, { tenant: 't1', namespace: 'ns1', name: 'default' });
    await eventually(async () => {
      const again = await defaultAccount('t1', 'ns1');
      expect(again).toBeDefined();
      expect(again?.metadata.uid).not.toBe(first.metadata.uid);
    });
  });

  it('lets a namespace being deleted go, without recreating its account', async () => {
    await plane.generic.create(namespaces, { tenant: 't1' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'going' } });
    await eventually(async () => expect(await defaultAccount('t1', 'going')).toBeDefined());
    await plane.generic.delete(namespaces, { tenant: 't1', name: 'going' });
    await eventually(async () => expect(await read(namespaces, { tenant: 't1', name: 'going' })).toBeUndefined());
    expect(await defaultAccount('t1', 'going')).toBeUndefined();
  });

  it('lets a whole space be torn down', async () => {
    await plane.generic.delete(tenants, { tenant: '', name: 't1' });
    await eventually(async () => expect(await read(tenants, { tenant: '', name: 't1' })).toBeUndefined());
    const left = await plane.generic.list(serviceAccounts, { tenant: 't1' });
    expect(left.items).toEqual([]);
  });
});
