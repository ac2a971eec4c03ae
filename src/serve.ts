/**
 * `kube-spaces serve`: prepare the data directory, open storage, listen on HTTPS, write the admin
 * kubeconfig, and shut down gracefully on SIGINT/SIGTERM.
 */
import type { PodSecurityExemptions } from '../api/admission/pod-security/pod-security.js';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { authenticationChain, bearerTokenAuthenticator, tokenAuthenticator } from '../authz/authenticate.js';
import { TokenFile } from '../authz/token-file.js';
import { serviceAccountAuthenticator } from '../authz/service-account-authenticator.js';
import { ServiceAccountTokens } from '../authz/service-account-token.js';
import { x509Authenticator } from '../authz/x509-authenticator.js';
import { openStore } from '../storage/open-store.js';
import { startCompactor } from '../storage/compactor.js';
import { startControlPlane } from './control-plane.js';
import { ensureAdminKubeconfig, serverUrl } from './bootstrap/admin-kubeconfig.js';
import { advertiseAddress } from './bootstrap/advertise-address.js';
import { prepareDataDir } from './bootstrap/data-dir.js';
import { ensureServiceAccountKey } from './bootstrap/service-account-key.js';
import { readBuildInfo, versionInfo } from './server/build-info.js';
import { createLogger } from './logger.js';
import { buildApp } from './server/app.js';
import { exitOnSignals } from './shutdown.js';
import { InProcessIdentities } from '../authz/in-process-identities.js';
import { inProcessClient, startInProcessControllerManager } from './in-process-controller-manager.js';
import { NODE_SIMULATOR_USER } from '../authz/rbac/bootstrap-policy.js';
import { startNodeSimulator, type NodeSimulatorSettings } from '../controllers/node-simulator/node-simulator.js';

export interface ServeOptions {
  securePort: number;
  bindAddress: string;
  /** Empty: the embedded SQLite store. */
  etcdServers: readonly string[];
  tokenAuthFile: string;
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
}

/** kube-apiserver's compaction interval: clients keep at least this much history to resume from. */
const ETCD_COMPACTION_INTERVAL_MS = 5 * 60_000;

/** Starts the server; on a start-up failure logs why and exits 1. */
export async function serve(options: ServeOptions): Promise<void> {
  const logger = createLogger();
  try {
    await start(options, logger);
  } catch (err) {
    logger.fatal({ err }, 'kube-spaces failed to start');
    process.exit(1);
  }
}

async function start(options: ServeOptions, logger: Logger): Promise<void> {
  const buildInfo = await readBuildInfo();
  const prepared = await prepareDataDir(options, logger);
  const store = await openStore({ etcdServers: options.etcdServers, dataDir: options.dataDir });
  try {
    const tokenFile = await TokenFile.load(options.tokenAuthFile, logger);
    // The embedded store compacts itself; etcd is compacted by its API servers, as Kubernetes does.
    const compactor = store.backend === 'etcd' ? startCompactor(store, ETCD_COMPACTION_INTERVAL_MS, (err) => logger.warn({ err }, 'compaction failed')) : undefined;
    const plane = await startControlPlane(store, { serviceClusterIpRange: options.serviceClusterIpRange, podSecurityExemptions: options.podSecurityExemptions, log: logger });
    const serviceAccountTokens = new ServiceAccountTokens(await ensureServiceAccountKey(options.dataDir, logger));
    // The in-process controllers' identities: tokens that exist in this process only.
    const inProcessIdentities = new InProcessIdentities();
    const tokenAuthenticators = [
      bearerTokenAuthenticator(tokenFile),
      serviceAccountAuthenticator({ tokens: serviceAccountTokens, lookup: plane.serviceAccountLookup, log: logger }),
    ];
    const app = buildApp({
      store,
      // Client certificates first, as kube-apiserver tries them first.
      authenticate: authenticationChain([x509Authenticator({ clientCa: prepared.clientCa.cert, log: logger }), bearerTokenAuthenticator(inProcessIdentities), ...tokenAuthenticators]),
      reviewToken: tokenAuthenticator(authenticationChain(tokenAuthenticators)),
      authorizer: plane.authorizer,
      tenantExists: plane.tenantExists,
      serviceAccountTokens,
      logger,
      buildInfo,
      registry: plane.registry,
      generic: plane.generic,
      watchCaches: plane.watchCaches,
      nodeUsage: plane.nodeUsage,
      tls: { ...prepared.serving, clientCa: prepared.clientCa.cert },
    });
    app.addHook('onClose', async () => compactor?.stop());
    await app.listen({ host: options.bindAddress, port: options.securePort });
    const port = (app.server.address() as AddressInfo).port;
    const url = serverUrl(options.bindAddress, port);
    plane.advertise({ address: advertiseAddress(options.bindAddress), port });
    let adminKubeconfig: string | undefined;
    if (prepared.adminToken !== null) {
      const spec = { server: url, caCert: prepared.ca.cert, token: prepared.adminToken };
      adminKubeconfig = await ensureAdminKubeconfig(options.dataDir, spec, logger);
    }
    const manager = options.controllers
      ? startInProcessControllerManager(app, inProcessIdentities, { rootCaBundle: prepared.ca.cert, terminatedPodGcThreshold: options.terminatedPodGcThreshold, log: logger })
      : undefined;
    const simulator = options.nodeSimulator ? startNodeSimulator({ ...options.nodeSimulator, client: inProcessClient(app, inProcessIdentities, NODE_SIMULATOR_USER), log: logger }) : undefined;
    const controllers = { stop: async () => void (await Promise.all([manager?.stop(), simulator?.stop()])) };
    exitOnSignals({ app, store, plane, controllers, logger });
    // The e2e harness reads `url` from this line.
    logger.info(
      { url, backend: store.backend, version: versionInfo(buildInfo).gitVersion, adminKubeconfig, tokens: tokenFile.size },
      'kube-spaces serving',
    );
  } catch (err) {
    await store.close();
    throw err;
  }
}
