/**
 * One test cluster per backend for a test file: the built server (on SQLite, or on a real etcd of
 * its own), an admin HTTPS client for setting up fixtures, and fresh namespaces so the cases of
 * a file can share the server without seeing each other's objects.
 *
 * @example
 *   describe.each(backendCases())('… on the $backend backend', ({ backend, skip }) => {
 *     describe.skipIf(skip)('…', () => {
 *       let cluster: TestCluster;
 *       beforeAll(async () => { cluster = await startCluster(backend); });
 *       afterAll(() => cluster?.cleanup());
 *       it('…', async () => { const ns = await cluster.newNamespace('reads'); … });
 *     });
 *   });
 */
import { apiClientFor, type ApiClient } from './api-client.js';
import { etcdBinaryForTests, startEtcd, type EtcdProcess } from './etcd.js';
import { collectionPath, type Manifest } from './manifests.js';
import { startServer, type ServerProcess, type StartServerOptions } from './server.js';

export type Backend = 'sqlite' | 'etcd';

export interface TestCluster {
  readonly backend: Backend;
  readonly server: ServerProcess;
  /** The cluster's own etcd (etcd backend only). */
  readonly etcd: EtcdProcess | undefined;
  /** Admin client over HTTPS, trusting the server's CA. */
  readonly api: ApiClient;
  /** Creates a namespace named `<prefix>-<n>`, unique within this cluster, and returns its name once kube-root-ca.crt is in it. */
  newNamespace(prefix: string): Promise<string>;
  /** Creates objects over HTTPS (fixtures, not what a test checks); throws unless each answers 201. */
  create(...manifests: Manifest[]): Promise<void>;
  /** GETs a path and returns the parsed JSON, or null on 404; throws on other failures. */
  read(path: string): Promise<Record<string, unknown> | null>;
  /** Stops the server and etcd and removes their files; safe to call twice. */
  cleanup(): Promise<void>;
}

/**
 * The backends a file runs on, each with whether to skip it: etcd needs a binary (missing fails
 * in CI, see `etcdBinaryForTests`), and `alsoNeeded` is false when another tool is missing.
 */
export function backendCases(alsoNeeded = true): Array<{ backend: Backend; skip: boolean }> {
  const etcdBinary = alsoNeeded ? etcdBinaryForTests() : undefined;
  return [
    { backend: 'sqlite', skip: !alsoNeeded },
    { backend: 'etcd', skip: !alsoNeeded || etcdBinary === undefined },
  ];
}

export async function startCluster(backend: Backend, serverOptions: Pick<StartServerOptions, 'env' | 'extraArgs'> = {}): Promise<TestCluster> {
  const etcd = backend === 'etcd' ? await startEtcd() : undefined;
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ ...serverOptions, etcdServers: etcd ? [etcd.endpoint] : [] });
    const api = await apiClientFor(server);
    return new Cluster(backend, server, etcd, api);
  } catch (err) {
    await server?.cleanup();
    await etcd?.cleanup();
    throw err;
  }
}

class Cluster implements TestCluster {
  private namespaces = 0;

  constructor(
    readonly backend: Backend,
    readonly server: ServerProcess,
    readonly etcd: EtcdProcess | undefined,
    readonly api: ApiClient,
  ) {}

  async newNamespace(prefix: string): Promise<string> {
    this.namespaces += 1;
    const name = `${prefix}-${this.namespaces}`;
    const res = await this.api.request('POST', '/api/v1/namespaces', { json: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
    if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.body}`);
    // A namespace is ready once kube-root-ca.crt is in it, as in every cluster: tests listing the
    // namespace's ConfigMaps then see it every time, not only when the publisher was quick.
    const rootCa = `/api/v1/namespaces/${name}/configmaps/kube-root-ca.crt`;
    for (let tries = 0; (await this.api.request('GET', rootCa)).status !== 200; tries += 1) {
      if (tries === 400) throw new Error(`kube-root-ca.crt did not appear in namespace ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return name;
  }

  async create(...manifests: Manifest[]): Promise<void> {
    for (const m of manifests) {
      const res = await this.api.request('POST', collectionPath(m), { json: m });
      if (res.status !== 201) throw new Error(`creating ${m.kind} ${m.metadata.name}: ${res.status} ${res.body}`);
    }
  }

  async read(path: string): Promise<Record<string, unknown> | null> {
    const res = await this.api.request('GET', path);
    if (res.status === 404) return null;
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body}`);
    return res.json();
  }

  async cleanup(): Promise<void> {
    this.api.close();
    await this.server.cleanup();
    await this.etcd?.cleanup();
  }
}
