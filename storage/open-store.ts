/**
 * The one place that picks a storage backend: etcd when `--etcd-servers` names any, else the
 * embedded SQLite store at `<data-dir>/state.db`.
 *
 * @example
 *   const store = await openStore({ dataDir: '.kube-spaces' });                        // SQLite
 *   const store = await openStore({ etcdServers: ['http://127.0.0.1:2379'], dataDir }); // etcd
 */
import { join } from 'node:path';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  etcdServers?: readonly string[];
  dataDir: string;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // Imported on demand: each backend loads a sizeable driver (gRPC, a native module) the other never needs.
  if (options.etcdServers && options.etcdServers.length > 0) {
    const { openEtcdStore } = await import('./etcd/etcd-store.js');
    return openEtcdStore([...options.etcdServers]);
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(join(options.dataDir, 'state.db'));
}
