/**
 * The root CA publisher in the server's controller manager (in process, on the client): `kube-root-ca.crt` in every namespace of every
 * space, back when deleted, its data and description restored when changed, and no obstacle to
 * a namespace's or a space's deletion.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObjectLocation } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';
import type { ControlPlane } from '../../src/control-plane.js';
import { startInProcessServer, type InProcessServer } from '../../src/testing/in-process-server.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

describe('root CA publisher', () => {
  let server: InProcessServer;
  let plane: ControlPlane;
  let tenants: ResourceDefinition;
  let namespaces: ResourceDefinition;
  let configMaps: ResourceDefinition;

  const read = async (def: ResourceDefinition, loc: ObjectLocation): Promise<KubeObject | undefined> => {
    try {
      return await plane.generic.get(def, loc);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const rootCa = (tenant: string, namespace: string) => read(configMaps, { tenant, namespace, name: 'kube-root-ca.crt' });
  const published = { metadata: { name: 'kube-root-ca.crt', annotations: { 'kubernetes.io/description': DESCRIPTION } }, data: { 'ca.crt': CA } };

  beforeAll(async () => {
    server = await startInProcessServer({ log, rootCaBundle: CA });
    plane = server.plane;
    const kind = (resource: string) => plane.registry.lookup('', 'v1', resource)!;
    [tenants, namespaces, configMaps] = [kind('tenants'), kind('namespaces'), kind('configmaps')];
    await plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } });
    await plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't2' } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('publishes the CA in every namespace of the system space and of new spaces', async () => {
    for (const [tenant, ns] of [['system', 'default'], ['system', 'kube-system'], ['t1', 'default'], ['t1', 'kube-public'], ['t2', 'kube-node-lease']] as const) {
      await eventually(async () => expect(await rootCa(tenant, ns)).toMatchObject(published));
    }
  });

  it('publishes it in a new namespace, again after deletion, and restores changed data', async () => {
    await plane.generic.create(namespaces, { tenant: 't1' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
    await eventually(async () => expect(await rootCa('t1', 'ns1')).toMatchObject(published));
    const first = (await rootCa('t1', 'ns1'))!;
    const t2 = (await rootCa('t2', 'default'))!;

    await plane.generic.delete(configMaps, { tenant: 't1', namespace: 'ns1', name: 'kube-root-ca.crt' });
    await eventually(async () => {
      const again = await rootCa('t1', 'ns1');
      expect(again).toMatchObject(published);
      expect(again?.metadata.uid).not.toBe(first.metadata.uid);
    });

    await plane.generic.mutate(configMaps, { tenant: 't1', namespace: 'default', name: 'kube-root-ca.crt' }, (cm) => ({
      ...cm,
      metadata: { ...cm.metadata, annotations: { mine: 'yes' } },
      data: { 'ca.crt': 'forged' },
    }));
    await eventually(async () => expect(await rootCa('t1', 'default')).toMatchObject({ ...published, metadata: { annotations: { mine: 'yes' } } }));
    expect((await rootCa('t2', 'default'))?.metadata.resourceVersion).toBe(t2.metadata.resourceVersion);
  });

  it('lets a namespace and a whole space be deleted', async () => {
    await plane.generic.create(namespaces, { tenant: 't1' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'going' } });
    await eventually(async () => expect(await rootCa('t1', 'going')).toBeDefined());
    await plane.generic.delete(namespaces, { tenant: 't1', name: 'going' });
    await eventually(async () => expect(await read(namespaces, { tenant: 't1', name: 'going' })).toBeUndefined());
    expect(await rootCa('t1', 'going')).toBeUndefined();

    await plane.generic.delete(tenants, { tenant: '', name: 't1' });
    await eventually(async () => expect(await read(tenants, { tenant: '', name: 't1' })).toBeUndefined());
    expect((await plane.generic.list(configMaps, { tenant: 't1' })).items).toEqual([]);
    expect(await rootCa('t2', 'default')).toMatchObject(published);
    expect(log.error).not.toHaveBeenCalled();
  });
});
