/**
 * An informer source over the server's own watch cache: the controllers that run inside
 * `serve` list and watch every space without a network round trip.
 */
import { ALL_TENANTS } from '../../api/registry/generic-store.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { WatchCaches } from '../../api/registry/watch-cache.js';
import type { ListWatchSource } from './informer.js';

export function inProcessSource(watchCaches: WatchCaches, def: ResourceDefinition): ListWatchSource {
  const scope = { tenant: ALL_TENANTS };
  return {
    async list() {
      // The watch cache's state: no second listing of storage, and the same (frozen) objects its watches send.
      const result = await watchCaches.list(def, scope, {});
      return { items: result.items, resourceVersion: result.metadata.resourceVersion };
    },
    async watch(resourceVersion, onEvent, onEnd) {
      let ended = false;
      const end = (err?: Error): void => {
        if (ended) return;
        ended = true;
        onEnd(err);
      };
      const active = await watchCaches.startWatch(def, scope, { resourceVersion }, {
        send: (event) => {
          if (event.type === 'ERROR') end(new Error(`watch of ${def.resource} failed: ${JSON.stringify(event.object)}`));
          else onEvent(event);
        },
        end: () => end(),
      });
      return {
        stop: () => {
          ended = true;
          active.stop();
        },
      };
    },
  };
}
