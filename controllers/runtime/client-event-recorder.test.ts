/**
 * The client EventRecorder against the whole server in process, writing as system:kube-scheduler
 * (so RBAC and both event validations apply): isomorphic events become one event with a series,
 * the spam filter caps what one source writes about one object, events land in the regarding
 * object's own space, and a full queue drops instead of waiting.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Event as CoreEvent } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { startInProcessServer, testUser, type InProcessServer } from '../../src/testing/in-process-server.js';
import { ClientEventRecorder, eventName, microTime } from './client-event-recorder.js';
import { EventSpamFilter } from './event-spam-filter.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
const pod = (tenant: string, name: string, uid = `uid-${tenant}-${name}`): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { tenant, namespace: 'default', name, uid, resourceVersion: '7' } });

describe('ClientEventRecorder', () => {
  let server: InProcessServer;
  let coreEvents: ResourceDefinition;
  let now = Date.now();

  const recorder = (extra: Partial<ConstructorParameters<typeof ClientEventRecorder>[0]> = {}) =>
    new ClientEventRecorder({ client: server.clientAs(testUser('system:kube-scheduler', 'system')), reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-host', log, now: () => now, ...extra });
  const eventsOf = async (tenant: string, name: string) =>
    (await server.plane.generic.list(coreEvents, { tenant, namespace: 'default' })).items.filter((e) => (e as CoreEvent).involvedObject?.name === name) as CoreEvent[];

  beforeAll(async () => {
    server = await startInProcessServer({ log });
    coreEvents = server.plane.registry.lookup('', 'v1', 'events')!;
    const tenants = server.plane.registry.lookup('', 'v1', 'tenants')!;
    for (const t of ['t1', 't2']) await server.plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: t } });
    const namespaces = server.plane.registry.lookup('', 'v1', 'namespaces')!;
    await eventually(async () => expect((await server.plane.generic.get(namespaces, { tenant: 't2', name: 'default' })).status).toMatchObject({ phase: 'Active' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  it('names events as kube does and writes microsecond times', () => {
    expect(eventName('web', Date.parse('2024-05-01T10:00:00Z'), 5)).toBe(`web.${(BigInt(Date.parse('2024-05-01T10:00:00Z')) * 1_000_000n + 5n).toString(16)}`);
    expect(microTime(Date.parse('2024-05-01T10:00:00.123Z'))).toBe('2024-05-01T10:00:00.123000Z');
  });

  it('writes an isomorphic repeat as a series of the first event, counting later ones until the series is written', async () => {
    const r = recorder();
    const failed = { regarding: pod('t1', 'web'), type: 'Warning' as const, reason: 'FailedScheduling', action: 'Scheduling', note: '0/1 nodes are available' };
    r.record(failed);
    await r.flush();
    const [first] = await eventsOf('t1', 'web');
    expect(first).toMatchObject({ reason: 'FailedScheduling', message: '0/1 nodes are available', reportingComponent: 'default-scheduler', reportingInstance: 'default-scheduler-host', type: 'Warning', action: 'Scheduling' });
    expect(first!.involvedObject).toEqual({ kind: 'Pod', namespace: 'default', name: 'web', uid: 'uid-t1-web', apiVersion: 'v1', resourceVersion: '7' });
    now += 1000;
    r.record(failed);
    await r.flush();
    expect((await eventsOf('t1', 'web')).map((e) => e.series?.count)).toEqual([2]);
    r.record(failed);
    r.record(failed);
    await r.flush();
    expect((await eventsOf('t1', 'web')).map((e) => e.series?.count)).toEqual([2]);
    // Six quiet minutes end the series: its count is written.
    now += 6 * 60_000;
    r.flushSeries();
    await r.flush();
    expect((await eventsOf('t1', 'web')).map((e) => [e.metadata.name, e.series?.count])).toEqual([[first!.metadata.name, 4]]);
    await r.stop();
  });

  it('keeps each space’s events in that space, for same-named objects', async () => {
    const r = recorder();
    for (const t of ['t1', 't2']) r.record({ regarding: pod(t, 'twin'), type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `to ${t}` });
    await r.flush();
    expect((await eventsOf('t1', 'twin')).map((e) => e.message)).toEqual(['to t1']);
    expect((await eventsOf('t2', 'twin')).map((e) => e.message)).toEqual(['to t2']);
    await r.stop();
  });

  it('lets 25 events about one object through, then drops', async () => {
    const r = recorder({ spamFilter: new EventSpamFilter({ now: () => now }) });
    for (let i = 0; i < 40; i += 1) r.record({ regarding: pod('t1', 'busy'), type: 'Normal', reason: `Reason${i}`, action: 'Act', note: 'n' });
    await r.flush();
    expect(await eventsOf('t1', 'busy')).toHaveLength(25);
    await r.stop();
  });

  it('drops events when its queue is full, without blocking or throwing, and logs it', async () => {
    const r = recorder({ queueSize: 2 });
    log.info.mockClear();
    for (let i = 0; i < 10; i += 1) r.record({ regarding: pod('t1', `many-${i}`), type: 'Normal', reason: 'R', action: 'A', note: 'n' });
    await r.flush();
    const written = (await server.plane.generic.list(coreEvents, { tenant: 't1', namespace: 'default' })).items.filter((e) => (e as CoreEvent).involvedObject?.name?.startsWith('many-'));
    expect(written.length).toBeLessThan(10);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ dropped: 1 }), 'event queue full, dropping events');
    await r.stop();
  });
});
