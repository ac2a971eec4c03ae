/**
 * `kube-spaces serve`: prepare the data directory, open storage, listen on HTTPS, write the admin
 * kubeconfig, run what runs on one replica only under leader election (docs/system-admin.md,
 * Running several replicas), and shut down gracefully on SIGINT/SIGTERM.
 */
import type { PodSecurityExemptions } from '../api/admission/pod-security/pod-security.js';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { authenticationChain, bearerTokenAuthenticator, tokenAuthenticator } from '../authz/authenticate.js';
import { TokenFile } from '../authz/token-file.js';
import { RevokedCredentials, unlessTokenRevoked } from '../authz/revoked-credentials.js';
import { recordIssuedCredential } from './bootstrap/issued-credentials.js';
import { signClientCertificate } from './bootstrap/certificates.js';
import { serviceAccountAuthenticator } from '../authz/service-account-authenticator.js';
import { ServiceAccountTokens } from '../authz/service-account-token.js';
import { x509Authenticator } from '../authz/x509-authenticator.js';
import { openStore } from '../storage/open-store.js';
import type { Store } from '../storage/store.js';
import type { EtcdTlsFiles } from '../storage/etcd/etcd-store.js';
import { StorageClusters, type StorageClusterFlag } from '../storage/storage-clusters.js';
import { startCompactor } from '../storage/compactor.js';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { ensureAdminKubeconfig, serverUrl } from './bootstrap/admin-kubeconfig.js';
import { advertiseAddress } from './bootstrap/advertise-address.js';
import { prepareDataDir } from './bootstrap/data-dir.js';
import { ensureServiceAccountKey } from './bootstrap/service-account-key.js';
import { readServiceAccountKeyFile } from './bootstrap/operator-pki.js';
import { readBuildInfo, versionInfo } from './server/build-info.js';
import { createLogger } from './logger.js';
import { buildApp } from './server/app.js';
import type { Http2Options } from './server/http2-serving.js';
import { ApiMetrics } from './server/metrics.js';
import { AuditRecorder } from './server/audit/audit-events.js';
import { AuditLog } from './server/audit/audit-log.js';
import { parseAuditPolicy } from './server/audit/audit-policy.js';
import { readFile } from 'node:fs/promises';
import { builtinKinds } from '../api/kinds/index.js';
import { exitOnSignals } from './shutdown.js';
import { InProcessIdentities } from '../authz/in-process-identities.js';
import { APISERVER_USER, inProcessClient, startInProcessControllerManager } from './in-process-controller-manager.js';
import { CONTROLLER_MANAGER_USER, NODE_SIMULATOR_USER } from '../authz/rbac/bootstrap-policy.js';
import { hostname } from 'node:os';
import type { KubeObject } from '../api/registry/object.js';
import type { FlowSchemaObject, PriorityLevelObject } from './server/flowcontrol/flow-objects.js';
import { DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT, FlowControl } from './server/flowcontrol/dispatcher.js';
import { SYSTEM_TENANT } from '../api/spaces.js';
import { CONTROLLER_MANAGER_LEASE, LEADER_ELECTION_NAMESPACE } from '../controllers/controller-manager.js';
import type { LeaderElectionTiming } from '../controllers/runtime/leader-election.js';
import { leases } from './client/builtin-kinds.js';
import type { KubeClient } from './client/kube-client.js';
import { apiserverId, IdentityLease } from './apiserver-controllers/identity-lease/identity-lease.js';
import { startLeaderElected } from './leader-elected.js';
import { startNodeSimulator, type NodeSimulatorSettings } from '../controllers/node-simulator/node-simulator.js';

export interface ServeOptions {
  securePort: number;
  bindAddress: string;
  /** `--disable-http2-serving` and `--http2-max-streams-per-connection`; default HTTP/2 on, 250 streams. */
  http2?: Http2Options;
  /** Empty: the embedded SQLite store. */
  etcdServers: readonly string[];
  etcdTls?: EtcdTlsFiles;
  /** Root of every etcd key ('' for none). */
  etcdPrefix?: string;
  /** `--storage-cluster`: etcd clusters spaces may be pinned to (Tenant spec.storageClusterId), with the TLS and prefix of `--etcd-*`. */
  storageClusters?: readonly StorageClusterFlag[];
  tokenAuthFile: string;
  /** The denylist of revoked certificates and tokens (`--revoked-credentials-file`), re-read live. */
  revokedCredentialsFile: string;
  /** The operator's serving certificate and key, instead of the data directory's. */
  servingFiles?: { certFile: string; keyFile: string };
  /** The operator's client CA bundle, instead of the data directory's client CA. */
  clientCaFile?: string;
  /** The operator's service-account signing key, instead of `<data-dir>/sa.key`. */
  serviceAccountKeyFile?: string;
  /** The audit policy and log (`--audit-*`); none: nothing is audited. */
  audit?: { policyFile: string; logPath: string; maxSizeMb: number; maxBackups: number; maxAgeDays: number };
  /** pino's level (`--log-level`, or from `--v`). */
  logLevel?: string;
  dataDir: string;
  tlsSans: readonly string[];
  /** IPv4 CIDR that every space allocates Service cluster IPs from. */
  serviceClusterIpRange: string;
  /** Run the controller manager in this process (false: `kube-spaces controllers` runs it elsewhere). */
  controllers: boolean;
  /** What PodSecurity admission skips. */
  podSecurityExemptions: PodSecurityExemptions;
  /** Run the node simulator in this process with these settings (`--simulate-nodes N`); off when undefined. */
  nodeSimulator?: NodeSimulatorSettings | undefined;
  /** Terminated pods a space keeps before the pod garbage collector deletes the oldest. */
  terminatedPodGcThreshold?: number | undefined;
  /** How long an event is kept after its last write (`--event-ttl`). */
  eventTtlMs?: number | undefined;
  /**
   * `--leader-elect` and its timings: the controller manager, the etcd compactor and the publishing
   * of this server's address as the `kubernetes` Service run on the replica holding their Lease.
   * Off: they run here unconditionally (one server only).
   */
  leaderElection: { enabled: boolean; timing: LeaderElectionTiming };
  /** `--identity-lease-duration-seconds`, `--identity-lease-renew-interval-seconds`. */
  identityLease: { durationSeconds: number; renewIntervalSeconds: number };
  /** `--max-requests-inflight` and `--max-mutating-requests-inflight`: the seats API Priority and Fairness shares out. */
  inflight?: { maxRequestsInflight: number; maxMutatingRequestsInflight: number };
}

/** kube-apiserver's compaction interval: clients keep at least this much history to resume from. */
const ETCD_COMPACTION_INTERVAL_MS = 5 * 60_000;

/**
 * The Lease the etcd compactor runs under (ours: Kubernetes has none). kube-apiserver compacts from
 * every replica, coordinated by a compare-and-swap on an etcd key outside its prefix; here the
 * compactor is elected like the controller manager, on the Lease machinery already in the system
 * space, so `kubectl get lease` shows which replica compacts.
 */
export const ETCD_COMPACTOR_LEASE = 'kube-spaces-etcd-compactor';

/**
 * The Lease of the replica whose address every space's `kubernetes` Service publishes (ours).
 * kube-apiserver's lease endpoint reconciler lists every live replica; until that is built, one
 * replica publishes at a time, as two publishing different addresses would rewrite each other's
 * Endpoints forever.
 */
export const KUBERNETES_SERVICE_LEASE = 'kube-spaces-kubernetes-service';

/** The audit policy read and the audit log opened, its events and losses counted in the metrics. */
async function openAudit(options: NonNullable<ServeOptions['audit']>, metrics: ApiMetrics, logger: Logger): Promise<{ recorder: AuditRecorder; log: AuditLog }> {
  let policy;
  try {
    policy = parseAuditPolicy(await readFile(options.policyFile, 'utf8'));
  } catch (err) {
    throw new Error(`--audit-policy-file ${options.policyFile}: ${(err as Error).message}`);
  }
  const log = await AuditLog.open({
    path: options.logPath,
    maxSizeMb: options.maxSizeMb,
    maxBackups: options.maxBackups,
    maxAgeDays: options.maxAgeDays,
    onDropped: () => metrics.auditError(),
    onError: (err) => {
      metrics.auditError();
      logger.error({ err }, 'writing the audit log failed');
    },
  });
  const counted = { write: (event: object) => (metrics.auditEvent(), log.write(event)) };
  return { recorder: new AuditRecorder(policy, counted), log };
}

/** Starts the server; on a start-up failure logs why and exits 1. */
export async function serve(options: ServeOptions): Promise<void> {
  const logger = createLogger(options.logLevel);
  try {
    await start(options, logger);
  } catch (err) {
    logger.fatal({ err }, 'kube-spaces failed to start');
    process.exit(1);
  }
}

/**
 * API Priority and Fairness over the server's seats, following the stored FlowSchemas and
 * PriorityLevelConfigurations: each change (a system admin's `kubectl apply`) reconfigures the
 * dispatcher once its burst of events has been heard.
 */
function startFlowControl(options: ServeOptions, plane: ControlPlane): FlowControl {
  const flowControl = new FlowControl({
    maxRequestsInflight: options.inflight?.maxRequestsInflight ?? DEFAULT_MAX_REQUESTS_INFLIGHT,
    maxMutatingRequestsInflight: options.inflight?.maxMutatingRequestsInflight ?? DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
    countObjects: (group, resource) => plane.watchCaches.objectCount(group, resource),
  });
  const { flowSchemas, priorityLevels } = plane.flowControlObjects;
  const configure = (): void => {
    flowControl.configure(flowSchemas.lister<KubeObject & FlowSchemaObject>().list(), priorityLevels.lister<KubeObject & PriorityLevelObject>().list());
  };
  let pending = false;
  const changed = (): void => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      configure();
    });
  };
  flowSchemas.onChange(changed);
  priorityLevels.onChange(changed);
  configure();
  return flowControl;
}

/** The default store (`--etcd-servers`, else embedded) and each `--storage-cluster`'s etcd. */
async function openStorageClusters(options: ServeOptions, metrics: ApiMetrics): Promise<StorageClusters> {
  const defaultStore = metrics.instrumentStore(await openStore({ etcdServers: options.etcdServers, etcdTls: options.etcdTls, etcdPrefix: options.etcdPrefix, dataDir: options.dataDir }));
  const pinned = new Map<string, Store>();
  try {
    for (const { id, etcdServers } of options.storageClusters ?? []) {
      pinned.set(id, metrics.instrumentStore(await openStore({ etcdServers, etcdTls: options.etcdTls, etcdPrefix: options.etcdPrefix, dataDir: options.dataDir })));
    }
  } catch (err) {
    await Promise.all([defaultStore, ...pinned.values()].map((opened) => opened.close()));
    throw err;
  }
  return new StorageClusters(defaultStore, pinned);
}

async function start(options: ServeOptions, logger: Logger): Promise<void> {
  const buildInfo = await readBuildInfo();
  const prepared = await prepareDataDir(options, logger);
  const metrics = new ApiMetrics(builtinKinds);
  const clusters = await openStorageClusters(options, metrics);
  // Every key to its space's cluster; with no --storage-cluster, the default store itself.
  const store = clusters.routed;
  try {
    const tokenFile = await TokenFile.load(options.tokenAuthFile, logger);
    const revoked = await RevokedCredentials.load(options.revokedCredentialsFile, logger);
    const plane = await startControlPlane(clusters, { serviceClusterIpRange: options.serviceClusterIpRange, podSecurityExemptions: options.podSecurityExemptions, eventTtlMs: options.eventTtlMs, log: logger });
    metrics.observeWatchCaches(() => plane.watchCaches.stats());
    const serviceAccountKey = options.serviceAccountKeyFile ? await readServiceAccountKeyFile(options.serviceAccountKeyFile) : await ensureServiceAccountKey(options.dataDir, logger);
    const serviceAccountTokens = new ServiceAccountTokens(serviceAccountKey);
    // The in-process controllers' identities: tokens that exist in this process only.
    const inProcessIdentities = new InProcessIdentities();
    const tokenAuthenticators = [
      bearerTokenAuthenticator(tokenFile),
      serviceAccountAuthenticator({ tokens: serviceAccountTokens, lookup: plane.serviceAccountLookup, log: logger }),
    ].map((authenticate) => unlessTokenRevoked(revoked, authenticate));
    const isCertificateRevoked = (serialNumber: string) => revoked.isRevoked('certificate', serialNumber);
    const audit = options.audit ? await openAudit(options.audit, metrics, logger) : undefined;
    const flowControl = startFlowControl(options, plane);
    const app = buildApp({
      store,
      // Client certificates first, as kube-apiserver tries them first.
      authenticate: authenticationChain([x509Authenticator({ clientCa: prepared.clientCaBundle, isRevoked: isCertificateRevoked, log: logger }), bearerTokenAuthenticator(inProcessIdentities), ...tokenAuthenticators]),
      reviewToken: tokenAuthenticator(authenticationChain(tokenAuthenticators)),
      authorizer: plane.authorizer,
      tenantExists: plane.tenantExists,
      tenantUid: plane.tenantUid,
      serviceAccountTokens,
      logger,
      buildInfo,
      registry: plane.registry,
      generic: plane.generic,
      watchCaches: plane.watchCaches,
      nodeUsage: plane.nodeUsage,
      metrics,
      audit: audit?.recorder,
      tls: { ...prepared.serving, clientCa: prepared.clientCaBundle },
      http2: options.http2,
      flowControl,
    });
    app.addHook('onClose', async () => {
      flowControl.stop();
      await audit?.log.close();
    });
    await app.listen({ host: options.bindAddress, port: options.securePort });
    const port = (app.server.address() as AddressInfo).port;
    const url = serverUrl(options.bindAddress, port);
    let adminKubeconfig: string | undefined;
    if (prepared.adminToken !== null) {
      const spec = { server: url, caCert: prepared.servingCaBundle, token: prepared.adminToken };
      adminKubeconfig = await ensureAdminKubeconfig(options.dataDir, spec, logger);
    }
    // This replica in elections: stable across its restarts (a restarted leader renews at once
    // instead of waiting out its own lease), unique among replicas (no two serve one address).
    const servingAddress = new URL(url).host;
    const identity = `${hostname()}_${servingAddress}`;
    const apiserverClient = inProcessClient(app, inProcessIdentities, APISERVER_USER.name, APISERVER_USER.groups);
    const leaseClientOf = (client: KubeClient) => client.space(SYSTEM_TENANT).namespace(LEADER_ELECTION_NAMESPACE).resource(leases);
    /** Runs `start` on the replica holding Lease `name` (`client` writes it), or here when leader election is off. */
    const elected = (name: string, client: KubeClient, start: () => { stop(): Promise<void> }): { stop(): Promise<void> } =>
      options.leaderElection.enabled ? startLeaderElected({ leases: leaseClientOf(client), name, identity, timing: options.leaderElection.timing, start, log: logger }) : start();

    const identityLease = new IdentityLease({
      leases: leaseClientOf(apiserverClient),
      id: apiserverId(hostname(), servingAddress),
      hostname: hostname(),
      durationSeconds: options.identityLease.durationSeconds,
      renewIntervalMs: options.identityLease.renewIntervalSeconds * 1000,
      log: logger,
    });
    identityLease.start();
    // The embedded store compacts itself; etcd is compacted by its API servers, as Kubernetes does.
    const etcdClusters = clusters.ids.filter((id) => clusters.store(id).backend === 'etcd');
    const compactor =
      etcdClusters.length > 0
        ? elected(ETCD_COMPACTOR_LEASE, apiserverClient, () => {
            const running = etcdClusters.map((id) => startCompactor(clusters.store(id), ETCD_COMPACTION_INTERVAL_MS, (err) => logger.warn({ err, storageCluster: id }, 'compaction failed')));
            return { stop: async () => running.forEach((compacting) => compacting.stop()) };
          })
        : undefined;
    const endpoint = { address: advertiseAddress(options.bindAddress), port };
    const advertiser = elected(KUBERNETES_SERVICE_LEASE, apiserverClient, () => {
      plane.advertise(endpoint);
      return { stop: async () => plane.withdraw() };
    });
    const manager = options.controllers
      ? elected(CONTROLLER_MANAGER_LEASE, inProcessClient(app, inProcessIdentities, CONTROLLER_MANAGER_USER), () =>
          startInProcessControllerManager(app, inProcessIdentities, {
            rootCaBundle: prepared.servingCaBundle,
            signClientCertificate: (identity, publicKey, notAfter) => signClientCertificate(prepared.clientCa, identity, publicKey, notAfter),
            recordIssued: (issued) =>
              recordIssuedCredential(options.dataDir, { kind: 'certificate', id: issued.serialNumber, tenant: issued.tenant, user: issued.user, groups: issued.groups, source: `csr/${issued.request}`, notAfter: issued.notAfter }),
            terminatedPodGcThreshold: options.terminatedPodGcThreshold,
            log: logger,
          }),
        )
      : undefined;
    const simulator = options.nodeSimulator ? startNodeSimulator({ ...options.nodeSimulator, client: inProcessClient(app, inProcessIdentities, NODE_SIMULATOR_USER), log: logger }) : undefined;
    // Stopped before the HTTP server closes: releasing a Lease is a request through it.
    const controllers = { stop: async () => void (await Promise.all([manager?.stop(), simulator?.stop(), compactor?.stop(), advertiser.stop(), identityLease.stop()])) };
    exitOnSignals({ app, store, plane, controllers, logger });
    // The e2e harness reads `url` from this line.
    logger.info(
      { url, backend: store.backend, version: versionInfo(buildInfo).gitVersion, adminKubeconfig, tokens: tokenFile.size, identity, leaderElection: options.leaderElection.enabled },
      'kube-spaces serving',
    );
  } catch (err) {
    await store.close();
    throw err;
  }
}
