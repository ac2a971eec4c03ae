/**
 * One informer per resource and space for a whole controller manager: every controller that
 * watches a resource shares the same list, watch and cache (client-go's SharedInformerFactory),
 * instead of each opening its own. Register change handlers and indexers before `start`, so
 * they also see the first listing.
 *
 * @example
 *   const informers = new InformerFactory(clientSources(client), onError);
 *   const namespaces = informers.informerFor(namespaceDef);                              // every space
 *   const leases = informers.informerFor(leaseDef, { kind: 'space', tenant: 'system' }); // one space
 *   const rootCas = informers.informerFor(configMaps, undefined, { fieldSelector: 'metadata.name=kube-root-ca.crt' }); // only those
 *   namespaces.onChange(...);
 *   informers.start();
 */
import type { GroupVersionResource, SpaceTarget } from '../../src/client/paths.js';
import type { Selectors } from '../../src/client/resource-client.js';
import { Informer, type EventSource } from './informer.js';

const EVERY_SPACE: SpaceTarget = { kind: 'all' };

export class InformerFactory<R extends GroupVersionResource = GroupVersionResource> {
  private readonly informers = new Map<string, Informer>();
  private started = false;

  constructor(
    private readonly source: (resource: R, space: SpaceTarget, selectors: Selectors) => EventSource,
    private readonly onError: (err: Error, informer: string) => void,
  ) {}

  /** The resource's shared informer in that space (default: every space) and of the objects the selectors match (default: all), made on first request. */
  informerFor(resource: R, space: SpaceTarget = EVERY_SPACE, selectors: Selectors = {}): Informer {
    const spaceName = space.kind === 'space' ? space.tenant : space.kind;
    const selected = [selectors.labelSelector, selectors.fieldSelector].some(Boolean) ? `?${selectors.labelSelector ?? ''}&${selectors.fieldSelector ?? ''}` : '';
    const name = `${resource.resource}.${resource.version}.${resource.group || 'core'}@${spaceName}${selected}`;
    let informer = this.informers.get(name);
    if (!informer) {
      if (this.started) throw new Error(`informer ${name} requested after start`);
      informer = new Informer(name, this.source(resource, space, selectors), (err) => this.onError(err, name));
      this.informers.set(name, informer);
    }
    return informer;
  }

  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  /** Resolves once every informer made so far has its first listing. */
  async waitForSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  stop(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}
