import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../../api/kinds/index.js';
import { GenericStore } from '../../../api/registry/generic-store.js';
import type { KubeObject } from '../../../api/registry/object.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { WatchCaches } from '../../../api/registry/watch-cache.js';
import { openSqliteStore } from '../../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../../storage/store.js';
import { EVENT_TTL_MS, EventExpiry, lastWrite } from './event-expiry.js';

const coreEvents = builtinKinds.find((d) => d.group === '' && d.resource === 'events') as ResourceDefinition;
const event = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' }, reason: 'R', message: 'm', count: 1 });

describe('event expiry', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  let caches: WatchCaches;
  const log = { error: (obj: object) => expect.fail(JSON.stringify(obj)) };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'event-expiry-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
    caches = new WatchCaches(generic);
  });

  afterEach(async () => {
    await caches.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('judges the last write by creation and the managers’ write times', () => {
    expect(lastWrite({ metadata: { creationTimestamp: '2024-05-01T10:00:00Z', managedFields: [{ manager: 'a', time: '2024-05-01T10:30:00Z' }, { manager: 'b' }] } })).toBe(Date.parse('2024-05-01T10:30:00Z'));
  });

  it('deletes events an hour after their last write, in every space, and keeps younger ones', async () => {
    await generic.create(coreEvents, { tenant: 't1', namespace: 'ns' }, event('a'));
    await generic.create(coreEvents, { tenant: 't2', namespace: 'ns' }, event('a'));
    let now = Date.now() + EVENT_TTL_MS - 60_000;
    const expiry = new EventExpiry({ generic, watchCaches: caches, events: coreEvents, now: () => now, log });
    expect(await expiry.sweep()).toBe(0);
    now += 2 * 60_000;
    expect(await expiry.sweep()).toBe(2);
    expect((await generic.list(coreEvents, { tenant: 'all' })).items).toEqual([]);
  });
});
