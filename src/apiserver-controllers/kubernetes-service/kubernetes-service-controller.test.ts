/**
 * The kubernetes-service controller in the control plane (with the tenant controller in the
 * in-process controller manager laying out spaces): every space, the system space included,
 * has `default/kubernetes` (Service on the range's first IP, Endpoints, EndpointSlice) with the
 * advertised endpoint; each is put back when deleted or changed, within its own space only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ObjectLocation } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { ApiError } from '../../../api/status.js';
import type { ControlPlane } from '../../control-plane.js';
import { startInProcessServer, type InProcessServer } from '../../testing/in-process-server.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
const endpoint = { address: '192.0.2.10', port: 6443 };

describe('kubernetes-service controller', () => {
  let server: InProcessServer;
  let plane: ControlPlane;
  let defs: Record<'tenants' | 'services' | 'endpoints' | 'endpointslices', ResourceDefinition>;

  const read = async (def: ResourceDefinition, loc: ObjectLocation): Promise<KubeObject | undefined> => {
    try {
      return await plane.generic.get(def, loc);
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const at = (tenant: string): ObjectLocation => ({ tenant, namespace: 'default', name: 'kubernetes' });
  const createTenant = (name: string) => plane.generic.create(defs.tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
  const expectDefaults = async (tenant: string) => {
    await eventually(async () => {
      expect(await read(defs.services, at(tenant))).toMatchObject({
        metadata: { labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], sessionAffinity: 'None', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
      });
      expect(await read(defs.endpoints, at(tenant))).toMatchObject({
        metadata: { labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
        subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
      });
      expect(await read(defs.endpointslices, at(tenant))).toMatchObject({
        metadata: { labels: { 'kubernetes.io/service-name': 'kubernetes' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['192.0.2.10'], conditions: { ready: true } }],
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      });
    });
  };

  beforeAll(async () => {
    server = await startInProcessServer({ log, advertise: endpoint });
    plane = server.plane;
    const kind = (group: string, resource: string) => plane.registry.all().find((d) => d.group === group && d.resource === resource)!;
    defs = { tenants: kind('', 'tenants'), services: kind('', 'services'), endpoints: kind('', 'endpoints'), endpointslices: kind('discovery.k8s.io', 'endpointslices') };
  });

  afterAll(async () => {
    await server?.close();
  });

  it('publishes the objects in the system space once the server advertises itself', async () => {
    await expectDefaults('system');
  });

  it('gives a new space its Service before the space turns Active', async () => {
    await createTenant('t1');
    await eventually(async () => expect((await read(defs.tenants, { tenant: '', name: 't1' }))?.status).toEqual({ phase: 'Active' }));
    expect(await read(defs.services, at('t1'))).toMatchObject({ spec: { clusterIP: '10.96.0.1' } });
    await expectDefaults('t1');
  });

  it('keeps the first IP from a Service asking for it', async () => {
    const asking = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'mine' }, spec: { clusterIP: '10.96.0.1', ports: [{ port: 80 }] } };
    await expect(plane.generic.create(defs.services, { tenant: 't1', namespace: 'default' }, asking)).rejects.toThrow('spec.clusterIPs[0]: Invalid value: "10.96.0.1": provided IP is already allocated');
  });

  it('recreates deleted objects and restores changed ones, in their own space only', async () => {
    await createTenant('t2');
    await expectDefaults('t2');
    const t2Service = (await read(defs.services, at('t2')))!;
    const t2Endpoints = (await read(defs.endpoints, at('t2')))!;
    const first = (await read(defs.services, at('t1')))!;
    // Endpoints changed before the Service goes: the endpoints controller deletes a deleted Service's Endpoints, as kube's does.
    await plane.generic.mutate(defs.endpoints, at('t1'), (ep) => ({ ...ep, subsets: [{ addresses: [{ ip: '192.0.2.99' }], ports: [{ name: 'https', port: 1 }] }] }));
    await plane.generic.delete(defs.services, at('t1'));
    await plane.generic.delete(defs.endpointslices, at('t1'));
    await eventually(async () => expect((await read(defs.services, at('t1')))?.metadata.uid).not.toBe(first.metadata.uid));
    await expectDefaults('t1');

    await plane.generic.mutate(defs.services, at('t1'), (svc) => ({ ...svc, spec: { ...(svc.spec as object), ports: [{ name: 'web', port: 80 }] } }));
    await expectDefaults('t1');

    expect((await read(defs.services, at('t2')))?.metadata.resourceVersion).toBe(t2Service.metadata.resourceVersion);
    expect((await read(defs.endpoints, at('t2')))?.metadata.resourceVersion).toBe(t2Endpoints.metadata.resourceVersion);
  });

  it('lets a whole space be torn down', async () => {
    expect(log.error).not.toHaveBeenCalled();
    await plane.generic.delete(defs.tenants, { tenant: '', name: 't1' });
    await eventually(async () => expect(await read(defs.tenants, { tenant: '', name: 't1' })).toBeUndefined());
    for (const def of [defs.services, defs.endpoints, defs.endpointslices]) expect((await plane.generic.list(def, { tenant: 't1' })).items).toEqual([]);
    await expectDefaults('t2');
  });
});
