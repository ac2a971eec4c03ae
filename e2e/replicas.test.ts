/**
 * Several `serve` replicas over a three-member etcd on loopback, the supported setup of
 * docs/system-admin.md ("Running several replicas"): A makes the PKI in its data directory, B
 * shares that directory, C has a directory of its own and is given A's files by flags. With
 * short leader-election and identity-lease timings:
 * - credentials of any kind (the admin token, a client certificate, a service-account token)
 *   work on every replica;
 * - a watch on A sees writes made through B and C, in order;
 * - the controller manager runs on exactly one replica, the Lease's holder: a Deployment gets one
 *   ReplicaSet and exactly its replicas of pods; one replica's address is the `kubernetes`
 *   Endpoints, which stay put; every replica has its identity Lease;
 * - kill -9 of that replica: another holds the Lease within a lease duration (plus tries) and its
 *   controllers act; the dead replica's identity Lease is collected;
 * - kill -9 of the etcd leader under a bounded write load: every acknowledged write is readable
 *   afterwards, and the failures meanwhile are 503 with Retry-After or 504 (outcome unknown);
 * - SIGTERM of the controllers' leader releases the Lease: a standby takes it at its next try.
 */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { replicaSets } from '../api/kinds/apps/replicaset.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiserverId } from '../src/apiserver-controllers/identity-lease/identity-lease.js';
import { issueClientCertificate } from '../src/bootstrap/certificates.js';
import { configMaps, deployments, endpoints, HttpsTransport, KubeClient, leases, loadKubeconfig, pods, type ConfigMap, type WatchEvent } from '../src/client/index.js';
import { createApiClient, kubeconfigToken, type ApiClient } from './harness/api-client.js';
import { etcdBinaryForTests, startEtcdCluster, type EtcdCluster } from './harness/etcd.js';
import { deployment } from './harness/manifests.js';
import { startServer, type ServerProcess } from './harness/server.js';

const etcdBinary = etcdBinaryForTests();

const LEASE_DURATION_MS = 3_000;
const RETRY_PERIOD_MS = 500;
const IDENTITY_LEASE_SECONDS = 4;
const FLAGS = [
  `--leader-elect-lease-duration=${LEASE_DURATION_MS}ms`,
  '--leader-elect-renew-deadline=2s',
  `--leader-elect-retry-period=${RETRY_PERIOD_MS}ms`,
  `--identity-lease-duration-seconds=${IDENTITY_LEASE_SECONDS}`,
  '--identity-lease-renew-interval-seconds=1',
];
/** A standby takes an unrenewed lease a lease duration after it last saw it change, at its next (jittered) try. */
const TAKEOVER_BOUND_MS = LEASE_DURATION_MS + 2 * (1 + 1.2) * RETRY_PERIOD_MS + 1_000;

/** The `identity` of the replica's last "kube-spaces serving" line: its name in leader elections. */
function electionIdentity(server: ServerProcess): string {
  const lines = server.output().split('\n').filter((line) => line.includes('"kube-spaces serving"'));
  if (lines.length === 0) throw new Error('the server has not announced itself');
  return String((JSON.parse(lines.at(-1)!) as { identity: string }).identity);
}

/** The name of the replica's identity Lease: the hash of this host's name and the replica's address. */
function identityLeaseName(server: ServerProcess): string {
  return apiserverId(hostname(), new URL(server.url).host);
}

/** The replica's JSON log lines whose `msg` is `msg`. */
function logged(server: ServerProcess, msg: string): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Whether the replica runs the controller manager now, by its log: it started leading the Lease and has not lost it since. */
function leadsControllers(server: ServerProcess): boolean {
  const transitions = server
    .output()
    .split('\n')
    .filter((line) => line.includes('"lease":"kube-controller-manager"') && (line.includes('"msg":"started leading"') || line.includes('"msg":"leader election lost: stopped, campaigning again"')));
  return transitions.at(-1)?.includes('"msg":"started leading"') ?? false;
}

describe.skipIf(!etcdBinary)('replicas over a three-member etcd', () => {
  let etcd: EtcdCluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;
  /** Admin clients, one per replica, trusting A's CA and sending the admin token of A's token file. */
  const clients = new Map<ServerProcess, KubeClient>();
  const raw = new Map<ServerProcess, ApiClient>();
  let adminKubeconfigBefore = '';

  const client = (server: ServerProcess): KubeClient => clients.get(server)!;
  const alive = (): ServerProcess[] => [a, b, c].filter((s) => isRunning(s));
  const isRunning = (server: ServerProcess): boolean => {
    try {
      return server.pid > 0;
    } catch {
      return false;
    }
  };
  const leaseClient = (server: ServerProcess) => client(server).space('system').namespace('kube-system').resource(leases);

  beforeAll(async () => {
    etcd = await startEtcdCluster({ members: 3, binary: etcdBinary });
    a = await startServer({ etcdServers: etcd.endpoints, extraArgs: FLAGS });
    adminKubeconfigBefore = await readFile(a.adminKubeconfig, 'utf8');
    const dir = a.dataDir;
    const pkiFlags = [
      `--tls-cert-file=${join(dir, 'serving.crt')}`,
      `--tls-private-key-file=${join(dir, 'serving.key')}`,
      `--client-ca-file=${join(dir, 'client-ca.crt')}`,
      `--service-account-key-file=${join(dir, 'sa.key')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
    ];
    [b, c] = await Promise.all([
      startServer({ etcdServers: etcd.endpoints, dataDir: dir, extraArgs: FLAGS }),
      startServer({ etcdServers: etcd.endpoints, extraArgs: [...FLAGS, ...pkiFlags], servingCa: a.caCert }),
    ]);
    const config = await loadKubeconfig({ path: a.adminKubeconfig });
    const token = await kubeconfigToken(a.adminKubeconfig);
    for (const server of [a, b, c]) {
      clients.set(server, new KubeClient(new HttpsTransport({ ...config.transport, server: server.url })));
      raw.set(server, createApiClient({ url: server.url, caCert: a.caCert, token }));
    }
  }, 120_000);

  afterAll(async () => {
    for (const k of clients.values()) k.close();
    for (const r of raw.values()) r.close();
    // Every process first, then A's directory (B's is the same one).
    await Promise.all([b, c].map((s) => s?.cleanup()));
    await a?.cleanup();
    await etcd?.cleanup();
  });

  it("serves every replica's credentials on every replica: the admin token, client certificates of the shared client CA, service-account tokens; the admin kubeconfig is A's, written once", async () => {
    expect(await readFile(a.adminKubeconfig, 'utf8')).toBe(adminKubeconfigBefore);
    const clientCa = { cert: await readFile(join(a.dataDir, 'client-ca.crt'), 'utf8'), key: await readFile(join(a.dataDir, 'client-ca.key'), 'utf8') };
    const certificate = await issueClientCertificate(clientCa, { user: 'carol', tenant: 'system', groups: ['system:masters'] });
    const saCreated = await raw.get(a)!.request('POST', '/api/v1/namespaces/default/serviceaccounts', { json: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'replicated' } } });
    expect(saCreated.status).toBe(201);
    const tokenRequest = await raw.get(b)!.request('POST', '/api/v1/namespaces/default/serviceaccounts/replicated/token', { json: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
    expect(tokenRequest.status).toBe(201);
    const saToken = tokenRequest.json<{ status: { token: string } }>().status.token;

    const whoami = async (api: ApiClient): Promise<string> => {
      const res = await api.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { json: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
      expect(res.status, res.body).toBe(201);
      return res.json<{ status: { userInfo: { username: string } } }>().status.userInfo.username;
    };
    for (const server of [a, b, c]) {
      expect(await whoami(raw.get(server)!)).toBe('admin');
      const byCertificate = createApiClient({ url: server.url, caCert: a.caCert, clientCertificate: certificate });
      const bySaToken = createApiClient({ url: server.url, caCert: a.caCert, token: saToken });
      try {
        expect(await whoami(byCertificate)).toBe('carol');
        expect(await whoami(bySaToken)).toBe('system:serviceaccount:default:replicated');
      } finally {
        byCertificate.close();
        bySaToken.close();
      }
    }
  });

  it('shows a watch on A the writes made through B and C, in order', async () => {
    const watch = client(a).space('system').namespace('default').resource(configMaps).watch({ labelSelector: 'replicas=order' });
    try {
      const first = await watch.next();
      expect((first.value as WatchEvent<ConfigMap>).type).toBe('RELISTED');
      const written: Array<{ name: string; resourceVersion: string }> = [];
      for (let i = 0; i < 20; i += 1) {
        const through = i % 2 === 0 ? b : c;
        const cm = await client(through).space('system').namespace('default').resource(configMaps).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `order-${i}`, labels: { replicas: 'order' } } });
        written.push({ name: cm.metadata.name!, resourceVersion: cm.metadata.resourceVersion! });
      }
      const seen: Array<{ name: string; resourceVersion: string }> = [];
      while (seen.length < written.length) {
        const { value, done } = await watch.next();
        if (done) break;
        if (value.type === 'ADDED') seen.push({ name: value.object.metadata.name!, resourceVersion: value.object.metadata.resourceVersion! });
      }
      expect(seen).toEqual(written);
      const revisions = seen.map((s) => Number(s.resourceVersion));
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
    } finally {
      await watch.return(undefined);
    }
  });

  /** The replica whose identity the kube-controller-manager Lease names. */
  async function controllerLeader(among: ServerProcess[]): Promise<ServerProcess> {
    const holder = (await leaseClient(among[0]!).get('kube-controller-manager')).spec?.holderIdentity;
    const leader = among.find((s) => electionIdentity(s) === holder);
    if (leader === undefined) throw new Error(`the lease names ${holder}, none of ${among.map(electionIdentity).join(', ')}`);
    return leader;
  }

  async function deploymentSettles(through: ServerProcess, name: string, replicas: number): Promise<void> {
    const space = client(through).space('system').namespace('default');
    await vi.waitFor(
      async () => {
        const sets = (await space.resource(replicaSets).list()).items.filter((rs) => rs.metadata.ownerReferences?.some((o) => o.name === name));
        expect(sets).toHaveLength(1);
        expect(sets[0]!.spec?.replicas).toBe(replicas);
        const owned = (await space.resource(pods).list({ labelSelector: `app=${name}` })).items.filter((p) => !p.metadata.deletionTimestamp);
        expect(owned).toHaveLength(replicas);
      },
      { timeout: 30_000, interval: 250 },
    );
    // And it stays so: no second manager adds pods or sets of its own.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const sets = (await space.resource(replicaSets).list()).items.filter((rs) => rs.metadata.ownerReferences?.some((o) => o.name === name));
    expect(sets).toHaveLength(1);
    expect((await space.resource(pods).list({ labelSelector: `app=${name}` })).items.filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(replicas);
  }

  it('runs the controllers on exactly one replica, the Lease holder; every replica has its identity Lease', async () => {
    // Under the short test timings a replica busy starting may miss its renew deadline and campaign again; at any moment one leads.
    await vi.waitFor(async () => expect([a, b, c].filter(leadsControllers)).toEqual([await controllerLeader([a, b, c])]), { timeout: 30_000 });
    const leader = await controllerLeader([a, b, c]);
    await vi.waitFor(() => expect(logged(leader, 'controller manager started').length).toBeGreaterThan(0), { timeout: 30_000 });
    const compactor = (await leaseClient(a).get('kube-spaces-etcd-compactor')).spec?.holderIdentity;
    expect([a, b, c].map(electionIdentity)).toContain(compactor);

    // One replica publishes its address as every space's `kubernetes` Endpoints, so they settle (two would rewrite each other's).
    const publisher = (await leaseClient(a).get('kube-spaces-kubernetes-service')).spec?.holderIdentity;
    const publishing = [a, b, c].find((s) => electionIdentity(s) === publisher)!;
    const kubernetesEndpoints = () => client(a).space('system').namespace('default').resource(endpoints).get('kubernetes');
    await vi.waitFor(async () => expect((await kubernetesEndpoints()).subsets?.[0]?.ports?.[0]?.port).toBe(publishing.port), { timeout: 10_000, interval: 250 });
    const settled = (await kubernetesEndpoints()).metadata.resourceVersion;

    await client(b).space('system').namespace('default').resource(deployments).create(deployment('default', 'web', 2) as never);
    await deploymentSettles(c, 'web', 2);
    expect((await kubernetesEndpoints()).metadata.resourceVersion).toBe(settled);

    await vi.waitFor(
      async () => {
        const identities = (await leaseClient(a).list({ labelSelector: 'apiserver.kubernetes.io/identity=kube-apiserver' })).items;
        const expected = [a, b, c].map(identityLeaseName);
        expect(identities.map((l) => l.metadata.name).sort()).toEqual(expected.sort());
        for (const lease of identities) expect(lease.spec).toMatchObject({ holderIdentity: lease.metadata.name, leaseDurationSeconds: IDENTITY_LEASE_SECONDS });
      },
      { timeout: 10_000, interval: 250 },
    );
  });

  it('hands the controllers to another replica within a lease duration when the leader is killed -9, and collects its identity Lease', async () => {
    const leader = await controllerLeader([a, b, c]);
    const survivors = [a, b, c].filter((s) => s !== leader);
    const leaderLeaseName = identityLeaseName(leader);
    await leader.kill9();
    const killedAt = Date.now();
    await vi.waitFor(async () => expect(survivors.map(electionIdentity)).toContain((await leaseClient(survivors[0]!).get('kube-controller-manager')).spec?.holderIdentity), {
      timeout: 15_000,
      interval: 100,
    });
    expect(Date.now() - killedAt).toBeLessThan(TAKEOVER_BOUND_MS);
    const successor = await controllerLeader(survivors);
    await vi.waitFor(() => expect(survivors.filter(leadsControllers)).toEqual([successor]), { timeout: 30_000 });

    // The new leader's controllers act: scaled through the other survivor.
    const other = survivors.find((s) => s !== successor)!;
    await client(other).space('system').namespace('default').resource(deployments).patch('web', 'merge', { spec: { replicas: 3 } });
    await deploymentSettles(successor, 'web', 3);

    await vi.waitFor(async () => expect((await leaseClient(other).list({ labelSelector: 'apiserver.kubernetes.io/identity=kube-apiserver' })).items.map((l) => l.metadata.name)).not.toContain(leaderLeaseName), {
      timeout: 3 * IDENTITY_LEASE_SECONDS * 1000,
      interval: 250,
    });
  });

  it('loses no acknowledged write when the etcd leader is killed -9 under load; failures meanwhile are 503 with Retry-After or 504', async () => {
    const writers = alive();
    expect(writers.length).toBeGreaterThanOrEqual(2);
    const acknowledged: string[] = [];
    const failures: Array<{ status: number; retryAfter: unknown; reason: unknown }> = [];
    let killed = false;
    const PER_WRITER = 60;
    const write = async (server: ServerProcess, w: number): Promise<void> => {
      for (let i = 0; i < PER_WRITER; i += 1) {
        const name = `load-${w}-${i}`;
        const res = await raw
          .get(server)!
          .request('POST', '/api/v1/namespaces/default/configmaps', { json: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } }, timeoutMs: 20_000 })
          .catch(() => undefined);
        if (res?.status === 201) acknowledged.push(name);
        else if (res !== undefined) failures.push({ status: res.status, retryAfter: res.headers['retry-after'], reason: res.json<{ reason?: string }>().reason });
        if (!killed && acknowledged.length >= 20) {
          killed = true;
          await (await etcd.leader()).kill9();
        }
      }
    };
    await Promise.all(writers.map((server, w) => write(server, w)));
    expect(killed).toBe(true);
    // Writes went on after the kill (two members are a quorum).
    expect(acknowledged.length).toBeGreaterThan(25);
    for (const failure of failures) {
      if (failure.status === 503) expect(failure).toMatchObject({ retryAfter: '1', reason: 'ServiceUnavailable' });
      else expect(failure).toMatchObject({ status: 504, reason: 'Timeout' });
    }
    // Read once the store answers again: during the election every member fails calls, and a member that failed three is skipped for a second.
    for (const server of writers) {
      await vi.waitFor(
        async () => {
          const names = new Set((await client(server).space('system').namespace('default').resource(configMaps).listAll()).items.map((cm) => cm.metadata.name));
          expect(acknowledged.filter((name) => !names.has(name))).toEqual([]);
        },
        { timeout: 10_000, interval: 250 },
      );
    }
    console.log(`etcd leader killed under load: ${acknowledged.length} writes acknowledged, failures ${JSON.stringify(failures.map((f) => f.status))}`);
  });

  it('hands the controllers over at once when their leader stops with SIGTERM: it releases the Lease', async () => {
    const running = alive();
    const leader = await controllerLeader(running);
    const standby = running.find((s) => s !== leader)!;
    // After the etcd leader's kill the holder may have missed a renewal and be campaigning again: it releases only what it holds.
    await vi.waitFor(() => expect(leadsControllers(leader)).toBe(true), { timeout: 15_000, interval: 100 });
    expect(await leader.stop('SIGTERM')).toMatchObject({ code: 0 });
    const stoppedAt = Date.now();
    expect(logged(leader, 'released leader lease').map((l) => l.lease)).toEqual(expect.arrayContaining(['kube-controller-manager']));
    await vi.waitFor(async () => expect((await leaseClient(standby).get('kube-controller-manager')).spec?.holderIdentity).toBe(electionIdentity(standby)), { timeout: 10_000, interval: 100 });
    // Released: taken at the standby's next try, not after a lease duration.
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_DURATION_MS);
  });
});
