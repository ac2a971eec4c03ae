/**
 * An informer source over the server's own watch cache, for the caches the server itself keeps
 * (admission's tenants and namespaces, the RBAC index, node usage): they must be filled before the
 * server answers its first request, so they cannot go through the server's request path. One
 * stream lists, then watches until the watch ends; the informer then starts a new one.
 */
import { ALL_TENANTS, type CollectionScope } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { WatchCaches } from '../../api/registry/watch-cache.js';
import type { ApiWatchEvent } from '../../api/registry/watch.js';
import type { SpaceTarget } from '../client/paths.js';
import type { Selectors } from '../client/resource-client.js';
import type { WatchEvent } from '../client/watch-events.js';
import type { EventSource } from '../../controllers/runtime/informer.js';

export function inProcessSource(watchCaches: WatchCaches, def: ResourceDefinition, space: SpaceTarget = { kind: 'all' }, selectors: Selectors = {}): EventSource {
  if (space.kind === 'own') throw new Error('an in-process source names its space: the server has no caller');
  if (selectors.labelSelector || selectors.fieldSelector) throw new Error('an in-process source holds every object of its kind: it takes no selectors');
  const scope: CollectionScope = { tenant: space.kind === 'all' ? ALL_TENANTS : space.tenant };
  return async function* (signal): AsyncGenerator<WatchEvent<KubeObject>> {
    // The watch cache's state: no second listing of storage, and the same (frozen) objects its watches send.
    const listed = await watchCaches.list(def, scope, {});
    const resourceVersion = listed.metadata.resourceVersion;
    yield { type: 'RELISTED', objects: listed.items, resourceVersion };

    // The cache pushes events; the informer pulls them.
    const pending: ApiWatchEvent[] = [];
    let ended = false;
    let wake: (() => void) | undefined;
    const nudge = (): void => {
      wake?.();
      wake = undefined;
    };
    const active = await watchCaches.startWatch(def, scope, { resourceVersion }, {
      send: (event) => {
        pending.push(event);
        nudge();
      },
      end: () => {
        ended = true;
        nudge();
      },
    });
    signal.addEventListener('abort', nudge, { once: true });
    try {
      while (!signal.aborted) {
        const event = pending.shift();
        if (event === undefined) {
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (event.type === 'ERROR') throw new Error(`watch of ${def.resource} failed: ${JSON.stringify(event.object)}`);
        if (event.type === 'BOOKMARK') continue;
        yield { type: event.type, object: event.object };
      }
    } finally {
      signal.removeEventListener('abort', nudge);
      active.stop();
    }
  };
}
