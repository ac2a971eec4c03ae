/**
 * The one place that picks a storage backend: etcd when `--etcd-servers` names any, else the
 * embedded SQLite store at `<data-dir>/state.db`.
 *
 * @example
 *   const store = await openStore({ dataDir: '.kube-spaces' });                        // SQLite
 *   const store = await openStore({ etcdServers: ['http://127.0.0.1:2379'], dataDir }); // etcd
 *   const store = await openStore({ etcdServers: ['https://etcd:2379'], etcdTls: { caFile, certFile, keyFile }, etcdPrefix: '/ks-a', dataDir });
 */
import { join } from 'node:path';
import type { EtcdTlsFiles } from './etcd/etcd-store.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  etcdServers?: readonly string[];
  /** `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`: TLS (and client-certificate auth) to etcd. */
  etcdTls?: EtcdTlsFiles;
  /** `--etcd-prefix`: every etcd key of this server lies under it (`<prefix>/registry/…`). */
  etcdPrefix?: string;
  dataDir: string;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // Imported on demand: each backend loads a sizeable driver (gRPC, a native module) the other never needs.
  if (options.etcdServers && options.etcdServers.length > 0) {
    const { openEtcdStore } = await import('./etcd/etcd-store.js');
    return openEtcdStore([...options.etcdServers], { prefix: options.etcdPrefix, tls: options.etcdTls });
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore(join(options.dataDir, 'state.db'));
}
