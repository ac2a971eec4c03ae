/**
 * The scheduler in the server's controller manager (in process, on the client, as
 * system:kube-scheduler): pods of two spaces bound to nodes, a Scheduled event in each pod's own
 * space, a pod no node fits told why (event and PodScheduled condition) and placed once a node
 * that fits appears, and the last slot of a node never given twice.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Event, Pod } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { startInProcessServer, type InProcessServer } from '../../src/testing/in-process-server.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });

const node = (name: string, cpu: string, pods = '110'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu, memory: '8Gi', pods }, capacity: { cpu, memory: '8Gi', pods }, conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'ready' }] },
});
const pod = (name: string, cpu = '100m'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] } });

describe('scheduler', () => {
  let server: InProcessServer;
  let kinds: Record<'pods' | 'nodes' | 'events' | 'tenants' | 'namespaces', ResourceDefinition>;

  const getPod = (tenant: string, name: string) => server.plane.generic.get(kinds.pods, { tenant, namespace: 'default', name }) as Promise<Pod>;
  const eventsAbout = async (tenant: string, name: string) =>
    ((await server.plane.generic.list(kinds.events, { tenant, namespace: 'default' })).items as Event[]).filter((e) => e.involvedObject?.name === name);
  const createPod = (tenant: string, obj: KubeObject) => server.plane.generic.create(kinds.pods, { tenant, namespace: 'default' }, obj);

  beforeAll(async () => {
    server = await startInProcessServer({ log });
    const kind = (resource: string) => server.plane.registry.lookup('', 'v1', resource)!;
    kinds = { pods: kind('pods'), nodes: kind('nodes'), events: kind('events'), tenants: kind('tenants'), namespaces: kind('namespaces') };
    for (const t of ['t1', 't2']) await server.plane.generic.create(kinds.tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: t } });
    await eventually(async () => expect((await server.plane.generic.get(kinds.namespaces, { tenant: 't2', name: 'default' })).status).toMatchObject({ phase: 'Active' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('tells a pod there are no nodes, then places it once one appears', async () => {
    await createPod('t1', pod('early'));
    await eventually(async () => expect((await eventsAbout('t1', 'early')).map((e) => [e.reason, e.message])).toContainEqual(['FailedScheduling', 'no nodes available to schedule pods']));
    await server.plane.generic.create(kinds.nodes, { tenant: '' }, node('node-1', '1', '3'));
    await eventually(async () => expect((await getPod('t1', 'early')).spec?.nodeName).toBe('node-1'));
  });

  it('binds same-named pods of two spaces independently, each Scheduled event in its own space', async () => {
    await createPod('t1', pod('web'));
    await createPod('t2', pod('web'));
    for (const t of ['t1', 't2']) {
      await eventually(async () => expect((await getPod(t, 'web')).spec?.nodeName).toBe('node-1'));
      await eventually(async () => {
        const scheduled = (await eventsAbout(t, 'web')).filter((e) => e.reason === 'Scheduled');
        expect(scheduled.map((e) => [e.message, e.involvedObject?.uid, e.reportingComponent, e.type])).toEqual([
          ['Successfully assigned default/web to node-1', (await getPod(t, 'web')).metadata.uid, 'default-scheduler', 'Normal'],
        ]);
      });
    }
    const pod1 = await getPod('t1', 'web');
    expect(pod1.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'True' });
  });

  it('refuses the fourth pod of a three-pod node (pods of every space count), with kube’s message and condition, and places it when room appears', async () => {
    // node-1 holds t1/early, t1/web and t2/web: full.
    await createPod('t2', pod('extra'));
    const message = '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
    await eventually(async () => expect((await getPod('t2', 'extra')).status?.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message })));
    await eventually(async () => expect((await eventsAbout('t2', 'extra')).map((e) => [e.type, e.reason, e.message])).toContainEqual(['Warning', 'FailedScheduling', message]));
    expect(await eventsAbout('t1', 'extra')).toEqual([]);
    // At once: a pod on a node is otherwise deleted by its kubelet after its grace period, and holds its slot until then.
    await server.plane.generic.delete(kinds.pods, { tenant: 't1', namespace: 'default', name: 'early' }, { gracePeriodSeconds: 0 });
    await eventually(async () => expect((await getPod('t2', 'extra')).spec?.nodeName).toBe('node-1'));
  });

  it('never gives the last slot of a node to two pods created together', async () => {
    await server.plane.generic.create(kinds.nodes, { tenant: '' }, node('node-2', '1'));
    const big = ['a', 'b', 'c'].map((n) => `big-${n}`);
    await Promise.all(big.map((name, i) => createPod(i === 1 ? 't2' : 't1', pod(name, '600m'))));
    await eventually(async () => {
      const placed = await Promise.all(big.map(async (name, i) => (await getPod(i === 1 ? 't2' : 't1', name)).spec?.nodeName));
      // node-1 has 3 pods of 100m and room for nothing (3 pods max); node-2 takes one 600m pod.
      expect(placed.filter((n) => n === 'node-2')).toHaveLength(1);
      expect(placed.filter((n) => n === undefined)).toHaveLength(2);
    });
    expect(log.error.mock.calls).toEqual([]);
  });
});
