/**
 * One informer per kind for the whole control plane: every controller that watches a kind shares
 * the same list, watch and cache (client-go's SharedInformerFactory), instead of each opening its
 * own. Register change handlers before `start`, so they also see the first listing.
 *
 * @example
 *   const informers = new InformerFactory((def) => inProcessSource(generic, store, def), onError);
 *   const namespaces = informers.informerFor(namespaceDef);
 *   namespaces.onChange(...);
 *   informers.start();
 */
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { Informer, type ListWatchSource } from './informer.js';

export class InformerFactory {
  private readonly informers = new Map<ResourceDefinition, Informer>();
  private started = false;

  constructor(
    private readonly source: (def: ResourceDefinition) => ListWatchSource,
    private readonly onError: (err: Error, informer: string) => void,
  ) {}

  /** The kind's shared informer, made on first request. */
  informerFor(def: ResourceDefinition): Informer {
    let informer = this.informers.get(def);
    if (!informer) {
      if (this.started) throw new Error(`informer for ${def.resource} requested after start`);
      const name = `${def.resource}.${def.group || 'core'}`;
      informer = new Informer(name, this.source(def), (err) => this.onError(err, name));
      this.informers.set(def, informer);
    }
    return informer;
  }

  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  stop(): void {
    for (const informer of this.informers.values()) informer.stop();
  }
}
