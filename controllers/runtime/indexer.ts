/**
 * An informer's cache: objects keyed by `{tenant, namespace, name}` (two spaces' `default/app`
 * are two entries), with indexes kept on every change, as client-go's thread-safe store keeps its
 * indices. Every indexer has the tenant index and the namespace index; controllers add their own
 * (e.g. pods by node) before the informer starts.
 *
 * @example
 *   const indexer = new Indexer({ byNode: (pod) => [pod.spec.nodeName ?? ''] });
 *   indexer.upsert(pod);
 *   indexer.byIndex(NAMESPACE_INDEX, namespaceIndexValue('t1', 'default')); // t1's default only
 */
import type { KubeObject } from '../../api/registry/object.js';
import { keyOf, keyString, type ObjectKey } from '../../src/client/object-key.js';

/** The values an object is indexed under (none: left out of the index). */
export type IndexFunc = (obj: KubeObject) => string[];

export const TENANT_INDEX = 'tenant';
export const NAMESPACE_INDEX = 'namespace';

/** The namespace index's value: a namespace is only ever a namespace of one space. */
export function namespaceIndexValue(tenant: string, namespace: string): string {
  return `${tenant}/${namespace}`;
}

const BUILT_IN_INDEXES: Readonly<Record<string, IndexFunc>> = {
  [TENANT_INDEX]: (obj) => [obj.metadata.tenant ?? ''],
  [NAMESPACE_INDEX]: (obj) => (obj.metadata.namespace ? [namespaceIndexValue(obj.metadata.tenant ?? '', obj.metadata.namespace)] : []),
};

export class Indexer {
  private readonly objects = new Map<string, KubeObject>();
  private readonly indexFuncs = new Map<string, IndexFunc>(Object.entries(BUILT_IN_INDEXES));
  /** index name → value → keys (as keyString) */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  constructor(custom: Record<string, IndexFunc> = {}) {
    this.addIndexers(custom);
  }

  /**
   * Adds indexes; only while empty, as client-go refuses indexers added after objects. Adding the
   * same function under the same name again is a no-op (controllers sharing an informer may each
   * ask for a shared index such as owner-references.ts' CONTROLLER_INDEX).
   */
  addIndexers(custom: Record<string, IndexFunc>): void {
    if (this.objects.size > 0) throw new Error('indexers are added before the first object');
    for (const [name, fn] of Object.entries(custom)) {
      if (this.indexFuncs.get(name) === fn) continue;
      if (this.indexFuncs.has(name)) throw new Error(`index ${name} exists already`);
      this.indexFuncs.set(name, fn);
    }
  }

  get(key: ObjectKey): KubeObject | undefined {
    return this.objects.get(keyString(key));
  }

  list(): KubeObject[] {
    return [...this.objects.values()];
  }

  get size(): number {
    return this.objects.size;
  }

  /** The objects indexed under `value` in the index `name`. */
  byIndex(name: string, value: string): KubeObject[] {
    if (!this.indexFuncs.has(name)) throw new Error(`no index ${name}`);
    const keys = this.indexes.get(name)?.get(value);
    return keys ? [...keys].map((k) => this.objects.get(k)!) : [];
  }

  /** Stores the object; answers the one it replaced. */
  upsert(obj: KubeObject): KubeObject | undefined {
    const k = keyString(keyOf(obj));
    const previous = this.objects.get(k);
    if (previous) this.unindex(k, previous);
    this.objects.set(k, obj);
    this.index(k, obj);
    return previous;
  }

  /** Removes the object with this key; answers what was stored. */
  delete(key: ObjectKey): KubeObject | undefined {
    const k = keyString(key);
    const previous = this.objects.get(k);
    if (previous) {
      this.unindex(k, previous);
      this.objects.delete(k);
    }
    return previous;
  }

  private index(k: string, obj: KubeObject): void {
    for (const [name, fn] of this.indexFuncs) {
      let byValue = this.indexes.get(name);
      if (!byValue) this.indexes.set(name, (byValue = new Map()));
      for (const value of fn(obj)) {
        let keys = byValue.get(value);
        if (!keys) byValue.set(value, (keys = new Set()));
        keys.add(k);
      }
    }
  }

  private unindex(k: string, obj: KubeObject): void {
    for (const [name, fn] of this.indexFuncs) {
      const byValue = this.indexes.get(name);
      for (const value of fn(obj)) {
        const keys = byValue?.get(value);
        keys?.delete(k);
        // Empty sets would grow with every value ever seen (every space that ever existed).
        if (keys?.size === 0) byValue!.delete(value);
      }
    }
  }
}
