/**
 * A server whose spaces may be pinned to two etcds of their own (`--storage-cluster east=…`,
 * `--storage-cluster west=…`), its default store being the embedded one; and what etcd holds, as
 * `etcdctl` lists it.
 *
 * @example
 *   const pinned = await startPinnedCluster();   // t1 in east, t2 in west
 *   expect(await etcdKeys(pinned.etcds.east.endpoint)).toContain('/registry/core/namespaces/t1/default');
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startCluster, type TestCluster } from './cluster.js';
import { startEtcd, type EtcdProcess } from './etcd.js';
import { grantAndWait, userKubeconfig, waitForTenantPhase, type UserCredentials } from './spaces.js';

export interface PinnedCluster {
  cluster: TestCluster;
  etcds: { east: EtcdProcess; west: EtcdProcess };
  /** t1's admin (cluster-admin in t1, which lives in east) and t2's (west). */
  alice: UserCredentials;
  bob: UserCredentials;
  cleanup(): Promise<void>;
}

/** The server, tenants t1 (in east) and t2 (in west), and an admin of each space. */
export async function startPinnedCluster(): Promise<PinnedCluster> {
  const started = await startServerAndEtcds();
  try {
    const { cluster } = started;
    await Promise.all([createPinnedTenant(cluster, 't1', 'east'), createPinnedTenant(cluster, 't2', 'west')]);
    const alice = await userKubeconfig(cluster, { tenant: 't1', user: 'alice' });
    const bob = await userKubeconfig(cluster, { tenant: 't2', user: 'bob' });
    // The bindings live in each space's etcd: authorization sees them through the merged watches.
    await grantAndWait(cluster, { tenant: 't1', clusterRole: 'cluster-admin', user: 'alice' }, alice.api, '/api/v1/namespaces');
    await grantAndWait(cluster, { tenant: 't2', clusterRole: 'cluster-admin', user: 'bob' }, bob.api, '/api/v1/namespaces');
    return {
      ...started,
      alice,
      bob,
      cleanup: async () => {
        alice.api.close();
        bob.api.close();
        await started.cleanup();
      },
    };
  } catch (err) {
    await started.cleanup();
    throw err;
  }
}

async function startServerAndEtcds(): Promise<Pick<PinnedCluster, 'cluster' | 'etcds' | 'cleanup'>> {
  const east = await startEtcd();
  const west = await startEtcd().catch(async (err: unknown) => {
    await east.cleanup();
    throw err;
  });
  const cluster = await startCluster('sqlite', { extraArgs: ['--storage-cluster', `east=${east.endpoint}`, '--storage-cluster', `west=${west.endpoint}`] }).catch(async (err: unknown) => {
    await Promise.all([east.cleanup(), west.cleanup()]);
    throw err;
  });
  return {
    cluster,
    etcds: { east, west },
    cleanup: async () => {
      await cluster.cleanup();
      await Promise.all([east.cleanup(), west.cleanup()]);
    },
  };
}

/** Creates a Tenant pinned to a storage cluster and waits until its space is laid out. */
async function createPinnedTenant(cluster: TestCluster, name: string, storageClusterId: string): Promise<void> {
  const res = await cluster.api.request('POST', '/api/v1/tenants', { json: { apiVersion: 'v1', kind: 'Tenant', metadata: { name }, spec: { storageClusterId } } });
  if (res.status !== 201) throw new Error(`creating tenant ${name}: ${res.status} ${res.body}`);
  await waitForTenantPhase(cluster, name, 'Active');
}

/** Every key under /registry/, as `etcdctl get --prefix --keys-only /registry/` lists them. */
export async function etcdKeys(endpoint: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('etcdctl', ['--endpoints', endpoint, 'get', '--prefix', '--keys-only', '/registry/'], { env: { ...process.env, ETCDCTL_API: '3' } });
  return stdout.split('\n').filter((line) => line !== '');
}
