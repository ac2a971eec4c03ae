/**
 * Storage clusters (Arktos' `storageClusterId`): besides the default store (`--etcd-servers`, or
 * the embedded one), etcd clusters named by `--storage-cluster <id>=<url>[,<url>…]`, each holding
 * the keys of the spaces pinned to it. Tenants, every other cluster-scoped object and the spaces
 * not pinned stay in the default store.
 *
 * Each cluster keeps its own revision counter, so a read or a watch of one space is served by one
 * store and its plain numeric revisions. `routed` is the one place that sends a key to its store:
 * by the key's space, asking `locate` which cluster holds it. Reads across every space (`tenants/all`)
 * are not a key's business: the generic store and the watch cache read each cluster's store
 * themselves and merge (api/registry/cluster-revisions.ts).
 *
 * @example
 *   const clusters = new StorageClusters(defaultStore, new Map([['east', eastStore]]));
 *   clusters.locate = async (tenant) => tenantsStorageCluster(tenant);   // the control plane's
 *   await clusters.routed.create('/registry/core/configmaps/t1/default/cm', value); // to t1's cluster
 */
import { StorageError } from './errors.js';
import { keyTenant } from './keys.js';
import type { ListOptions, Store, WatchHandler, WatchOptions } from './store.js';

/** The id of the default store in resourceVersions and Tenants (`spec.storageClusterId` unset names it). */
export const DEFAULT_STORAGE_CLUSTER = 'default';

/** A storage cluster id: a DNS label, so it can stand in a resourceVersion between `,` and `=`. */
export const STORAGE_CLUSTER_ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export class StorageClusters {
  /** Every cluster id, the default first, then in the order configured. */
  readonly ids: readonly string[];
  /** A Store sending each key (and each space's prefix) to the cluster of its space. */
  readonly routed: Store;
  /**
   * Which cluster holds a space (undefined: the default). Set by the control plane, which reads
   * Tenants; until then every space is in the default store.
   */
  locate: (tenant: string) => Promise<string | undefined> = () => Promise.resolve(undefined);
  private readonly stores: ReadonlyMap<string, Store>;

  constructor(defaultStore: Store, pinned: ReadonlyMap<string, Store> = new Map()) {
    if (pinned.has(DEFAULT_STORAGE_CLUSTER)) throw new Error(`storage cluster id "${DEFAULT_STORAGE_CLUSTER}" names the default store`);
    this.stores = new Map([[DEFAULT_STORAGE_CLUSTER, defaultStore], ...pinned]);
    this.ids = [...this.stores.keys()];
    this.routed = pinned.size === 0 ? defaultStore : routedStore(this, defaultStore);
  }

  /** Whether any space can live elsewhere than the default store. */
  get multiple(): boolean {
    return this.ids.length > 1;
  }

  store(id: string): Store {
    const store = this.stores.get(id);
    if (!store) throw new Error(`no storage cluster "${id}"`);
    return store;
  }

  /** The id of the cluster holding a space's keys; the default for cluster-scoped keys (no tenant). */
  async clusterOf(tenant: string | undefined): Promise<string> {
    if (tenant === undefined || !this.multiple) return DEFAULT_STORAGE_CLUSTER;
    const id = await this.locate(tenant);
    if (id === undefined) return DEFAULT_STORAGE_CLUSTER;
    // Never the default store instead: the space's keys would be written where they do not live.
    if (!this.stores.has(id)) throw new StorageError('Unavailable', tenant, `storage cluster "${id}" of space "${tenant}" is not configured`);
    return id;
  }

  /** The store of the cluster holding a key (or a space's prefix). */
  async storeOf(key: string): Promise<Store> {
    return this.store(await this.clusterOf(keyTenant(key)));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.stores.values()].map((store) => store.close()));
  }
}

/**
 * The Store of every key: a space's keys go to its cluster; keys and prefixes of no space go to
 * the default store (a whole resource's prefix included: reads across clusters merge above).
 * Revisions, compaction and progress are the default store's: the other clusters' are read
 * through `StorageClusters.store`.
 */
function routedStore(clusters: StorageClusters, defaultStore: Store): Store {
  return {
    backend: defaultStore.backend,
    get orderedProgress() {
      return defaultStore.orderedProgress;
    },
    get: async (key, opts) => (await clusters.storeOf(key)).get(key, opts),
    list: async (prefix, opts?: ListOptions) => (await clusters.storeOf(prefix)).list(prefix, opts),
    create: async (key, value) => (await clusters.storeOf(key)).create(key, value),
    update: async (key, value, expected) => (await clusters.storeOf(key)).update(key, value, expected),
    delete: async (key, expected) => (await clusters.storeOf(key)).delete(key, expected),
    watch: async (prefix, opts: WatchOptions, handler: WatchHandler) => (await clusters.storeOf(prefix)).watch(prefix, opts, handler),
    currentRevision: () => defaultStore.currentRevision(),
    compactedRevision: () => defaultStore.compactedRevision(),
    compact: (revision) => defaultStore.compact(revision),
    ping: async () => {
      await Promise.all(clusters.ids.map((id) => clusters.store(id).ping()));
    },
    close: () => clusters.closeAll(),
  };
}

/** One `--storage-cluster` flag: a cluster id and its etcd endpoints. */
export interface StorageClusterFlag {
  id: string;
  etcdServers: string[];
}

/**
 * Parses `--storage-cluster <id>=<url>[,<url>…]`; throws with the flag's problem in words.
 *
 * @example
 *   parseStorageClusterFlag('east=http://127.0.0.1:2479,http://127.0.0.1:2579')
 *   // { id: 'east', etcdServers: ['http://127.0.0.1:2479', 'http://127.0.0.1:2579'] }
 */
export function parseStorageClusterFlag(value: string): StorageClusterFlag {
  const at = value.indexOf('=');
  const id = at < 0 ? '' : value.slice(0, at);
  const etcdServers = value.slice(at + 1).split(',').filter((url) => url !== '');
  if (at < 0 || etcdServers.length === 0) throw new Error(`--storage-cluster must be <id>=<etcd url>[,<url>...], got ${JSON.stringify(value)}`);
  if (!STORAGE_CLUSTER_ID.test(id)) throw new Error(`--storage-cluster id must be a DNS label (lowercase letters, digits and '-'), got ${JSON.stringify(id)}`);
  if (id === DEFAULT_STORAGE_CLUSTER) throw new Error(`--storage-cluster id "${DEFAULT_STORAGE_CLUSTER}" names the default store (--etcd-servers)`);
  for (const url of etcdServers) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new Error(`--storage-cluster ${id}: ${JSON.stringify(url)} is not an http:// or https:// etcd endpoint`);
  }
  return { id, etcdServers };
}

/** Checks every flag and that no id repeats. */
export function parseStorageClusterFlags(values: readonly string[]): StorageClusterFlag[] {
  const flags = values.map(parseStorageClusterFlag);
  const seen = new Set<string>();
  for (const { id } of flags) {
    if (seen.has(id)) throw new Error(`--storage-cluster ${id} is given twice`);
    seen.add(id);
  }
  return flags;
}
