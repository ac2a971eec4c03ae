/**
 * Informer sources over the tenant-aware client: the client's watch already lists first, resumes
 * from the last version it saw and relists after a 410, so the same informer runs over HTTPS
 * against any kube-spaces server and in-process inside `serve`.
 *
 * @example
 *   const informers = new InformerFactory(clientSources(client), onError);
 *   informers.informerFor(namespaces);                                   // every space
 *   informers.informerFor(configMaps, { kind: 'space', tenant: 't1' });  // one space
 */
import type { KubeClient } from '../../src/client/kube-client.js';
import type { GroupVersionResource, SpaceTarget } from '../../src/client/paths.js';
import type { Selectors } from '../../src/client/resource-client.js';
import type { EventSource } from './informer.js';
import type { ObjectTransform } from './object-transforms.js';

/** @param transform what the informers keep of each object (default: all of it). */
export function clientSources(client: KubeClient, transform?: ObjectTransform): (resource: GroupVersionResource, space: SpaceTarget, selectors: Selectors) => EventSource {
  return (resource, space, selectors) => {
    const scope = space.kind === 'all' ? client.allSpaces() : space.kind === 'space' ? client.space(space.tenant) : client.ownSpace();
    const { group, version } = resource;
    const resourceClient = scope.resource({ group, version, resource: resource.resource });
    const source: EventSource = (signal) => resourceClient.watch({ ...selectors, signal });
    return transform === undefined ? source : transformed(source, transform);
  };
}

function transformed(source: EventSource, transform: ObjectTransform): EventSource {
  return async function* (signal) {
    for await (const event of source(signal)) {
      if (event.type === 'RELISTED') yield { ...event, objects: event.objects.map(transform) };
      else if (event.type === 'BOOKMARK') yield event;
      else yield { type: event.type, object: transform(event.object) };
    }
  };
}
