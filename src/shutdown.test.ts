import type { AddressInfo } from 'node:net';
import { WatchCaches } from '../api/registry/watch-cache.js';
import { Authorizer } from '../authz/authorize.js';
import { RbacIndex } from '../authz/rbac/rbac-index.js';
import { pino } from 'pino';
import { GenericStore } from '../api/registry/generic-store.js';
import { ResourceRegistry } from '../api/registry/registry.js';
import { describe, expect, it } from 'vitest';
import type { Store } from '../storage/store.js';
import { buildApp } from './server/app.js';
import { shutDown } from './shutdown.js';

function setup() {
  const events: string[] = [];
  const store = { ping: async () => {}, close: async () => void events.push('store closed') } as unknown as Store;
  const logger = pino({ level: 'silent' });
  const app = buildApp({
    store,
    logger,
    authenticate: async () => ({ name: 'u', uid: '', groups: ['system:masters'], tenant: 'system', extra: {} }),
    buildInfo: { version: '0.0.0', gitCommit: '', gitTreeState: '', buildDate: '' },
    registry: new ResourceRegistry([]),
    generic: new GenericStore(store),
    watchCaches: new WatchCaches(new GenericStore(store)),
    authorizer: new Authorizer(new RbacIndex(), []),
    // Every tenant these tests name exists.
    tenantExists: () => true,
  });
  return { app, store, logger, events };
}

async function listen(app: ReturnType<typeof setup>['app']): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

describe('shutDown', () => {
  it('lets a request in flight finish before closing the store', async () => {
    const { app, store, logger, events } = setup();
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('request done');
      return 'done';
    });
    const url = await listen(app);
    const response = fetch(`${url}/slow`).then((res) => res.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    await shutDown({ app, store, logger }, 'SIGTERM');
    expect(await response).toBe('done');
    expect(events).toEqual(['request done', 'store closed']);
    await expect(fetch(`${url}/livez`)).rejects.toThrow();
  });

  it('closes connections still busy after the drain timeout', async () => {
    const { app, store, logger, events } = setup();
    app.get('/hang', () => new Promise(() => {}));
    const url = await listen(app);
    const response = fetch(`${url}/hang`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await shutDown({ app, store, logger, drainTimeoutMs: 200 }, 'SIGTERM');
    expect(await response).toBe('cut');
    expect(events).toEqual(['store closed']);
  });
});
