/**
 * Typed reads of an informer's cache, as client-go's listers: by key, by space, by namespace of a
 * space, or by any index. Reads never reach the server; what they answer is as fresh as the
 * informer's watch.
 *
 * @example
 *   const pods = informer.lister<Pod>();
 *   pods.get({ tenant: 't1', namespace: 'default', name: 'web' });
 *   pods.list({ tenant: 't1', namespace: 'default' }); // never t2's default
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { NAMESPACE_INDEX, TENANT_INDEX, namespaceIndexValue, type Indexer } from './indexer.js';

/** Which objects a list reads: every one, one space's, or one namespace of one space. */
export type ListScope = {} | { tenant: string } | { tenant: string; namespace: string };

export class Lister<T extends KubeObject = KubeObject> {
  constructor(private readonly indexer: Indexer) {}

  get(key: ObjectKey): T | undefined {
    return this.indexer.get(key) as T | undefined;
  }

  list(scope: ListScope = {}): T[] {
    if ('namespace' in scope) return this.byIndex(NAMESPACE_INDEX, namespaceIndexValue(scope.tenant, scope.namespace));
    if ('tenant' in scope) return this.byIndex(TENANT_INDEX, scope.tenant);
    return this.indexer.list() as T[];
  }

  byIndex(name: string, value: string): T[] {
    return this.indexer.byIndex(name, value) as T[];
  }
}
