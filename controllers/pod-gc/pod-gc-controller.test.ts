/**
 * The pod garbage collector: the threshold arithmetic alone, then its reconcile step against the
 * whole server in process, as its own identity (its least-privilege role) and over informers of
 * every space: orphaned pods go after the quarantine, terminated pods past the threshold go per
 * space, and same-named pods of two spaces are never confused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import { CONTROLLER_USERS } from '../../authz/rbac/bootstrap-policy.js';
import { nodes, pods, tenants, type KubeClient } from '../../src/client/index.js';
import { sleep } from '../../src/client/sleep.js';
import { startInProcessServer, testUser, type InProcessServer } from '../../src/testing/in-process-server.js';
import { clientSources } from '../runtime/client-source.js';
import { InformerFactory } from '../runtime/informer-factory.js';
import type { Informer } from '../runtime/informer.js';
import { MissingNodes, reconcilePodGc, terminatedPodsToDelete, type PodGcDeps } from './pod-gc-controller.js';

const pod = (name: string, phase: string, created: string): Pod => ({ metadata: { name, creationTimestamp: created }, status: { phase } });

describe('terminatedPodsToDelete', () => {
  const somePods = [
    pod('new-done', 'Succeeded', '2026-01-03T00:00:00Z'),
    pod('running', 'Running', '2026-01-01T00:00:00Z'),
    pod('old-failed', 'Failed', '2026-01-01T00:00:00Z'),
    pod('mid-done', 'Succeeded', '2026-01-02T00:00:00Z'),
  ];
  it.each([
    [3, []],
    [2, ['old-failed']],
    [1, ['old-failed', 'mid-done']],
    [0, []],
  ])('threshold %d deletes %j, oldest first, never running pods', (threshold, expected) => {
    expect(terminatedPodsToDelete(somePods, threshold).map((p) => p.metadata.name)).toEqual(expected);
  });
});

describe('pod garbage collection over every space', () => {
  const QUARANTINE_MS = 400;
  let server: InProcessServer;
  let admin: KubeClient;
  let informers: InformerFactory;
  let podInformer: Informer;
  let nodeInformer: Informer;
  const errors: object[] = [];

  /** The collector's dependencies, acting as the pod garbage collector. */
  const deps = (terminatedPodThreshold = 100): PodGcDeps => ({
    client: server.clientAs(testUser(CONTROLLER_USERS.podGarbageCollector, 'system')),
    pods: podInformer,
    nodes: nodeInformer,
    terminatedPodThreshold,
    orphanQuarantineMs: QUARANTINE_MS,
    log: { error: (obj) => errors.push(obj) },
  });

  const podsOf = (tenant: string) => admin.space(tenant).namespace('default').resource(pods);
  const names = async (tenant: string) => (await podsOf(tenant).list()).items.map((p) => p.metadata.name).sort();

  async function createPod(tenant: string, name: string, nodeName: string, phase?: 'Succeeded' | 'Failed') {
    const created = await podsOf(tenant).create({ metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }] } });
    if (!phase) return created;
    return podsOf(tenant).updateStatus({ ...created, status: { ...created.status, phase } });
  }

  /** Waits until the collector's pod cache holds what the server holds for these spaces. */
  async function cacheCaughtUp(...spaces: string[]): Promise<void> {
    for (const tenant of spaces) {
      const live = (await podsOf(tenant).list()).items;
      await vi.waitFor(() => {
        const cached = podInformer.lister<Pod>().list({ tenant });
        expect(cached.map((p) => `${p.metadata.name}:${p.status?.phase}`).sort()).toEqual(live.map((p) => `${p.metadata.name}:${p.status?.phase}`).sort());
      });
    }
  }

  beforeAll(async () => {
    server = await startInProcessServer();
    admin = server.clientAs(testUser('pod-gc-test-admin', 'system', ['system:masters']));
    for (const name of ['t1', 't2']) await admin.resource(tenants).create({ apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
    await vi.waitFor(async () => {
      for (const name of ['t1', 't2']) expect((await admin.resource(tenants).get(name)).status?.phase).toBe('Active');
    }, { timeout: 20_000, interval: 50 });
    for (const name of ['kept', 'doomed']) await admin.resource(nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
    informers = new InformerFactory(clientSources(admin), (err) => errors.push(err));
    podInformer = informers.informerFor(pods);
    nodeInformer = informers.informerFor(nodes);
    informers.start();
    await Promise.all([podInformer.waitForSync(), nodeInformer.waitForSync()]);
  }, 30_000);

  afterAll(async () => {
    informers?.stop();
    await server?.close();
  });

  it('deletes the pods of a node that is gone, only after the quarantine, in every space holding one', async () => {
    await createPod('t1', 'orphan', 'doomed');
    await createPod('t1', 'placed', 'kept');
    await createPod('t2', 'orphan', 'doomed');
    await admin.resource(nodes).delete('doomed');
    await vi.waitFor(() => expect(nodeInformer.get({ tenant: '', namespace: '', name: 'doomed' })).toBeUndefined());
    await cacheCaughtUp('t1', 't2');

    const d = deps();
    const missing = new MissingNodes(d);
    const first = await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' });
    // Quarantined: a node missing from the cache a moment may be one the cache has not seen yet.
    expect(first.kind).toBe('after');
    expect(await names('t1')).toEqual(['orphan', 'placed']);

    await sleep(QUARANTINE_MS + 50, undefined);
    expect(await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' })).toEqual({ kind: 'done' });
    expect(await names('t1')).toEqual(['placed']);
    // t2's same-named pod is t2's key to collect.
    expect(await names('t2')).toEqual(['orphan']);
    await reconcilePodGc(d, missing, { tenant: 't2', namespace: '', name: '' });
    expect(await names('t2')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps the pods of a node that comes back during the quarantine', async () => {
    await admin.resource(nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'flapping' } });
    await createPod('t1', 'steady', 'flapping');
    await admin.resource(nodes).delete('flapping');
    await vi.waitFor(() => expect(nodeInformer.get({ tenant: '', namespace: '', name: 'flapping' })).toBeUndefined());
    await cacheCaughtUp('t1');
    const d = deps();
    const missing = new MissingNodes(d);
    expect((await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' })).kind).toBe('after');
    await admin.resource(nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'flapping' } });
    await vi.waitFor(() => expect(nodeInformer.get({ tenant: '', namespace: '', name: 'flapping' })).toBeDefined());
    await sleep(QUARANTINE_MS + 50, undefined);
    expect(await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' })).toEqual({ kind: 'done' });
    expect(await names('t1')).toContain('steady');
    await podsOf('t1').delete('steady', { gracePeriodSeconds: 0 });
  });

  it('quarantines a node anew when it went, came back and went again', async () => {
    await admin.resource(nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'again' } });
    await createPod('t1', 'twice', 'again');
    const d = deps();
    const missing = new MissingNodes(d);
    const nodeCached = (present: boolean) => vi.waitFor(() => expect(nodeInformer.get({ tenant: '', namespace: '', name: 'again' }) !== undefined).toBe(present));
    await admin.resource(nodes).delete('again');
    await nodeCached(false);
    await cacheCaughtUp('t1');
    expect((await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' })).kind).toBe('after');
    // Back (no reconcile looks at it meanwhile), then gone again after the first quarantine ran out.
    await admin.resource(nodes).create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'again' } });
    await nodeCached(true);
    await sleep(QUARANTINE_MS + 50, undefined);
    await admin.resource(nodes).delete('again');
    await nodeCached(false);
    expect((await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' })).kind).toBe('after');
    expect(await names('t1')).toContain('twice');
    await podsOf('t1').delete('twice', { gracePeriodSeconds: 0 });
  });

  it('holds the terminated-pod threshold per space, oldest first, and leaves same-named pods of the other space alone', async () => {
    for (const tenant of ['t1', 't2']) for (const name of ['placed', 'steady']) await podsOf(tenant).delete(name, { gracePeriodSeconds: 0 }).catch(() => undefined);
    // Creation timestamps have one-second resolution: a second apart, so "oldest" is well defined.
    await createPod('t1', 'done-a', 'kept', 'Succeeded');
    await createPod('t2', 'done-a', 'kept', 'Succeeded');
    await sleep(1_050, undefined);
    await createPod('t1', 'done-b', 'kept', 'Failed');
    await createPod('t1', 'running', 'kept');
    await sleep(1_050, undefined);
    await createPod('t1', 'done-c', 'kept', 'Succeeded');
    await createPod('t2', 'done-b', 'kept', 'Succeeded');
    await cacheCaughtUp('t1', 't2');

    const d = deps(2);
    const missing = new MissingNodes(d);
    // t1 holds three terminated pods, one over the threshold; t2 two, which it may keep.
    await reconcilePodGc(d, missing, { tenant: 't1', namespace: '', name: '' });
    await reconcilePodGc(d, missing, { tenant: 't2', namespace: '', name: '' });
    expect(await names('t1')).toEqual(['done-b', 'done-c', 'running']);
    expect(await names('t2')).toEqual(['done-a', 'done-b']);
    expect(errors).toEqual([]);
  });
});
