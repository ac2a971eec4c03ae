import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pods } from '../kinds/core/pod.js';
import { configMaps } from '../kinds/core/config-map.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ApiError } from '../status.js';
import { GenericStore } from './generic-store.js';
import { gracefulDeletion } from './graceful-deletion.js';
import type { KubeObject } from './object.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const pod = (extra: { nodeName?: string; phase?: string; grace?: number; deletion?: { at: string; seconds: number } } = {}): KubeObject => ({
  metadata: { name: 'p', ...(extra.deletion ? { deletionTimestamp: extra.deletion.at, deletionGracePeriodSeconds: extra.deletion.seconds } : {}) },
  spec: { nodeName: extra.nodeName, terminationGracePeriodSeconds: extra.grace ?? 30, containers: [{ name: 'c', image: 'nginx' }] },
  status: { phase: extra.phase ?? 'Running' },
});

describe('gracefulDeletion (kube-apiserver BeforeDelete with the pod strategy)', () => {
  it.each([
    ['a bound pod waits its terminationGracePeriodSeconds', pod({ nodeName: 'n' }), undefined, { timestamp: '2026-01-01T00:00:30Z', gracePeriodSeconds: 30 }],
    ['the asked period wins', pod({ nodeName: 'n' }), 5, { timestamp: '2026-01-01T00:00:05Z', gracePeriodSeconds: 5 }],
    ['a negative period is one second', pod({ nodeName: 'n', grace: -3 }), undefined, { timestamp: '2026-01-01T00:00:01Z', gracePeriodSeconds: 1 }],
    ['an unscheduled pod goes at once', pod(), undefined, undefined],
    ['a succeeded pod goes at once', pod({ nodeName: 'n', phase: 'Succeeded' }), undefined, undefined],
    ['a failed pod goes at once', pod({ nodeName: 'n', phase: 'Failed' }), undefined, undefined],
    ['0 asked goes at once', pod({ nodeName: 'n' }), 0, undefined],
    ['a pending deletion stays pending', pod({ nodeName: 'n', deletion: { at: '2026-01-01T00:00:30Z', seconds: 30 } }), undefined, 'pending'],
    ['a longer period changes nothing', pod({ nodeName: 'n', deletion: { at: '2026-01-01T00:00:30Z', seconds: 30 } }), 60, 'pending'],
    ['a shorter one moves the deadline from the start', pod({ nodeName: 'n', deletion: { at: '2026-01-01T00:00:30Z', seconds: 30 } }), 10, { timestamp: '2026-01-01T00:00:10Z', gracePeriodSeconds: 10 }],
    ['0 ends a pending deletion', pod({ nodeName: 'n', deletion: { at: '2026-01-01T00:00:30Z', seconds: 30 } }), 0, { timestamp: '2026-01-01T00:00:00Z', gracePeriodSeconds: 0 }],
    ['a deletion marked without a period goes on', pod({ nodeName: 'n', deletion: { at: '2026-01-01T00:00:00Z', seconds: 0 } }), undefined, undefined],
  ])('%s', (_name, obj, asked, expected) => {
    expect(gracefulDeletion(pods, obj, asked, NOW)).toEqual(expected);
  });

  it('kinds without a grace period are never graceful', () => {
    expect(gracefulDeletion(configMaps, { metadata: { name: 'c' } }, 30, NOW)).toBeUndefined();
  });
});

describe('DELETE of a pod (generic store)', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  const loc = { tenant: 't1', namespace: 'ns1' };
  const create = (name: string, nodeName?: string) =>
    generic.create(pods, loc, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] } });
  const gone = async (name: string) => {
    await expect(generic.get(pods, { ...loc, name })).rejects.toSatisfy((err) => err instanceof ApiError && err.reason === 'NotFound');
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'graceful-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes an unscheduled pod at once', async () => {
    await create('pending');
    expect((await generic.delete(pods, { ...loc, name: 'pending' })).deleted).toBe(true);
    await gone('pending');
  });

  it('marks a bound pod, keeps it through status writes, and deletes it on a DELETE of 0', async () => {
    await create('bound', 'node-a');
    const first = await generic.delete(pods, { ...loc, name: 'bound' });
    expect(first.deleted).toBe(false);
    expect(first.object.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(Date.parse(first.object.metadata.deletionTimestamp!) - Date.now()).toBeGreaterThan(25_000);
    const again = await generic.delete(pods, { ...loc, name: 'bound' });
    expect(again).toMatchObject({ deleted: false, object: { metadata: { resourceVersion: first.object.metadata.resourceVersion } } });
    // A kubelet's status write while terminating keeps the pod.
    await generic.mutate(pods, { ...loc, name: 'bound' }, (p) => ({ ...p, status: { ...(p.status as object), phase: 'Running' } }), { subresource: 'status' });
    expect((await generic.get(pods, { ...loc, name: 'bound' })).metadata.deletionGracePeriodSeconds).toBe(30);
    const end = await generic.delete(pods, { ...loc, name: 'bound' }, { gracePeriodSeconds: 0, preconditions: { uid: first.object.metadata.uid } });
    expect(end.deleted).toBe(true);
    await gone('bound');
  });

  it('a pod with a finalizer is marked with 0 by a DELETE of 0 and goes once released', async () => {
    await generic.create(pods, loc, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fin', finalizers: ['example.com/x'] }, spec: { nodeName: 'n', containers: [{ name: 'c', image: 'nginx' }] } });
    await generic.delete(pods, { ...loc, name: 'fin' });
    const forced = await generic.delete(pods, { ...loc, name: 'fin' }, { gracePeriodSeconds: 0 });
    expect(forced).toMatchObject({ deleted: false, object: { metadata: { deletionGracePeriodSeconds: 0 } } });
    await generic.mutate(pods, { ...loc, name: 'fin' }, (p) => ({ ...p, metadata: { ...p.metadata, finalizers: [] } }));
    await gone('fin');
  });
});
