import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { services } from '../kinds/core/service.js';
import { GenericStore } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import { ApiError } from '../status.js';
import { NodePortAllocator, nodePortAdmission } from './node-port.js';

describe('node port allocation (one range for every space)', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  const svc = (name: string, type: string, nodePort?: number): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { type, ports: [{ port: 80, ...(nodePort ? { nodePort } : {}) }], selector: { app: name } },
  });
  const nodePortOf = (obj: KubeObject): number | undefined => (obj.spec as { ports: Array<{ nodePort?: number }> }).ports[0]!.nodePort;
  const refusal = async (write: Promise<unknown>): Promise<string> => {
    const err = await write.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(422);
    return (err as ApiError).message;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'node-port-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store, [nodePortAdmission(new NodePortAllocator(store))]);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('allocates a port in 30000-32767 and refuses it to a service of another space', async () => {
    const created = await generic.create(services, { tenant: 't1', namespace: 'default' }, svc('web', 'NodePort'));
    const port = nodePortOf(created)!;
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(port).toBeLessThanOrEqual(32767);
    const message = await refusal(generic.create(services, { tenant: 't2', namespace: 'default' }, svc('web', 'NodePort', port)));
    expect(message).toBe(`Service "web" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`);
  });

  it('refuses a port out of range', async () => {
    const message = await refusal(generic.create(services, { tenant: 't1', namespace: 'default' }, svc('low', 'NodePort', 80)));
    expect(message).toContain('provided port is not in the valid range. The range of valid ports is 30000-32767');
  });

  it('releases the port on delete and on a change to ClusterIP', async () => {
    const a = await generic.create(services, { tenant: 't1', namespace: 'ns' }, svc('a', 'NodePort', 31000));
    expect(nodePortOf(a)).toBe(31000);
    await generic.delete(services, { tenant: 't1', namespace: 'ns', name: 'a' });
    await generic.create(services, { tenant: 't2', namespace: 'ns' }, svc('b', 'LoadBalancer', 31000));
    await generic.mutate(services, { tenant: 't2', namespace: 'ns', name: 'b' }, (s) => ({ ...s, spec: { ...(s.spec as object), type: 'ClusterIP', ports: [{ port: 80 }] } }));
    const c = await generic.create(services, { tenant: 't3', namespace: 'ns' }, svc('c', 'NodePort', 31000));
    expect(nodePortOf(c)).toBe(31000);
  });

  it('keeps the port through updates of the same service', async () => {
    await generic.create(services, { tenant: 't4', namespace: 'ns' }, svc('keep', 'NodePort', 31500));
    const updated = await generic.mutate(services, { tenant: 't4', namespace: 'ns', name: 'keep' }, (s) => ({ ...s, metadata: { ...s.metadata, labels: { x: 'y' } } }));
    expect(nodePortOf(updated)).toBe(31500);
  });
});
