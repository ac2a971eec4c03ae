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
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';

/** The values an object is indexed under (none: left out of the index). */
export type IndexFunc = (obj: KubeObject) => string[];

export const TENANT_INDEX = 'tenant';
export const NAMESPACE_INDEX = 'namespace';

/** The namespace index's value: a namespace is only ever a namespace of one space. */
export function namespaceIndexValue(tenant: string, namespace: string): string {
  return `${tenant}/${namespace}`;
}

/**
 * Objects by tenant, then namespace ('' for objects of the space itself), then name: the tenant
 * and namespace indexes are the structure itself, so an object costs its map entries and no key
 * strings of its own. A space with no objects left has no entry.
 */
type ObjectsBySpace = Map<string, Map<string, Map<string, KubeObject>>>;

export class Indexer {
  private readonly spaces: ObjectsBySpace = new Map();
  private count = 0;
  private readonly indexFuncs = new Map<string, IndexFunc>();
  /** custom index name → value → the objects indexed under it */
  private readonly indexes = new Map<string, Map<string, Set<KubeObject>>>();

  constructor(custom: Record<string, IndexFunc> = {}) {
    this.addIndexers(custom);
  }

  /**
   * Adds indexes; only while empty, as client-go refuses indexers added after objects. Adding the
   * same function under the same name again is a no-op (controllers sharing an informer may each
   * ask for a shared index such as owner-references.ts' CONTROLLER_INDEX).
   */
  addIndexers(custom: Record<string, IndexFunc>): void {
    if (this.count > 0) throw new Error('indexers are added before the first object');
    for (const [name, fn] of Object.entries(custom)) {
      if (this.indexFuncs.get(name) === fn) continue;
      if (this.indexFuncs.has(name) || name === TENANT_INDEX || name === NAMESPACE_INDEX) throw new Error(`index ${name} exists already`);
      this.indexFuncs.set(name, fn);
      this.indexes.set(name, new Map());
    }
  }

  get(key: ObjectKey): KubeObject | undefined {
    return this.spaces.get(key.tenant)?.get(key.namespace)?.get(key.name);
  }

  list(): KubeObject[] {
    const all: KubeObject[] = [];
    for (const namespaces of this.spaces.values()) for (const named of namespaces.values()) for (const obj of named.values()) all.push(obj);
    return all;
  }

  get size(): number {
    return this.count;
  }

  /** The objects indexed under `value` in the index `name`. */
  byIndex(name: string, value: string): KubeObject[] {
    if (name === TENANT_INDEX) return this.inSpace(value);
    if (name === NAMESPACE_INDEX) {
      const slash = value.indexOf('/');
      return slash < 0 ? [] : [...(this.spaces.get(value.slice(0, slash))?.get(value.slice(slash + 1))?.values() ?? [])];
    }
    const byValue = this.indexes.get(name);
    if (!byValue) throw new Error(`no index ${name}`);
    return [...(byValue.get(value) ?? [])];
  }

  /** Stores the object; answers the one it replaced. */
  upsert(obj: KubeObject): KubeObject | undefined {
    const { tenant, namespace, name } = keyOf(obj);
    let namespaces = this.spaces.get(tenant);
    if (!namespaces) this.spaces.set(tenant, (namespaces = new Map()));
    let named = namespaces.get(namespace);
    if (!named) namespaces.set(namespace, (named = new Map()));
    const previous = named.get(name);
    if (previous) this.unindex(previous);
    else this.count += 1;
    named.set(name, obj);
    this.index(obj);
    return previous;
  }

  /** Removes the object with this key; answers what was stored. */
  delete(key: ObjectKey): KubeObject | undefined {
    const namespaces = this.spaces.get(key.tenant);
    const named = namespaces?.get(key.namespace);
    const previous = named?.get(key.name);
    if (!previous) return undefined;
    this.unindex(previous);
    this.count -= 1;
    named!.delete(key.name);
    // Empty maps would grow with every namespace and space that ever existed.
    if (named!.size === 0) namespaces!.delete(key.namespace);
    if (namespaces!.size === 0) this.spaces.delete(key.tenant);
    return previous;
  }

  private inSpace(tenant: string): KubeObject[] {
    const found: KubeObject[] = [];
    for (const named of this.spaces.get(tenant)?.values() ?? []) for (const obj of named.values()) found.push(obj);
    return found;
  }

  private index(obj: KubeObject): void {
    for (const [name, fn] of this.indexFuncs) {
      const byValue = this.indexes.get(name)!;
      for (const value of fn(obj)) {
        let objects = byValue.get(value);
        if (!objects) byValue.set(value, (objects = new Set()));
        objects.add(obj);
      }
    }
  }

  private unindex(obj: KubeObject): void {
    for (const [name, fn] of this.indexFuncs) {
      const byValue = this.indexes.get(name)!;
      for (const value of fn(obj)) {
        const objects = byValue.get(value);
        objects?.delete(obj);
        // Empty sets would grow with every value ever seen (every space that ever existed).
        if (objects?.size === 0) byValue.delete(value);
      }
    }
  }
}
