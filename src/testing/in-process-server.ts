/**
 * Test support: the whole server in the test's process (a control plane over SQLite in a temporary
 * directory, the Fastify app and the in-process controller manager, as `serve` runs them), and
 * clients over the in-process transport as any identity, so a test goes through authentication,
 * tenant resolution, authorization and admission without a socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { UserInfo } from '../../api/access.js';
import { authenticationChain, bearerTokenAuthenticator } from '../../authz/authenticate.js';
import { InProcessIdentities } from '../../authz/in-process-identities.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { KubeClient } from '../client/kube-client.js';
import type { Transport } from '../client/transport.js';
import type { AdvertisedEndpoint } from '../apiserver-controllers/kubernetes-service/kubernetes-service-objects.js';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../control-plane.js';
import type { ControllerManagerOptions } from '../../controllers/controller-manager.js';
import { startInProcessControllerManager } from '../in-process-controller-manager.js';
import { buildApp, type KubeApp } from '../server/app.js';
import { InProcessTransport } from '../server/in-process-transport.js';

export interface InProcessServer {
  plane: ControlPlane;
  app: KubeApp;
  /** A bearer token proving `identity` to `app` (for raw `inject` calls). */
  tokenFor(identity: UserInfo): string;
  /** A client authenticated as `identity`, in that identity's own space by default. */
  clientAs(identity: UserInfo): KubeClient;
  /** The transport a client acting as `identity` uses (to wrap it). */
  transportAs(identity: UserInfo): Transport;
  close(): Promise<void>;
}

export const testUser = (name: string, tenant: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, tenant, extra: {} });

export interface InProcessServerOptions {
  /** Sees the control plane before the app is built on it (to spy on it). */
  beforeApp?(plane: ControlPlane): void;
  /** The control plane's and the controllers' log (default: silent). */
  log?: ControlPlaneOptions['log'];
  /** The server's endpoint, advertised as `serve` does once it listens (default: port 443, no address). */
  advertise?: AdvertisedEndpoint;
  /** The CA the root CA publisher puts into every namespace (default: none, the publisher does not run). */
  rootCaBundle?: string;
  /** Options of the controller manager (a clock, a short job backoff, an event recorder, no garbage collector, a CSR signer). */
  controllers?: Partial<Pick<ControllerManagerOptions, 'eventRecorderFor' | 'clock' | 'jobBackoffBaseMs' | 'enableGarbageCollector' | 'signClientCertificate' | 'recordIssued'>>;
}

export async function startInProcessServer(options: InProcessServerOptions = {}): Promise<InProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), 'in-process-server-'));
  const store: Store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
  const logger = pino({ level: 'silent' });
  const log = options.log ?? logger;
  const plane = await startControlPlane(store, { serviceClusterIpRange: '10.96.0.0/12', log });
  options.beforeApp?.(plane);
  // As `serve` does once it listens: the `kubernetes` Service (which a space waits for to turn Active) needs an endpoint.
  plane.advertise(options.advertise ?? { port: 443 });
  const identities = new InProcessIdentities();
  const app = buildApp({ ...plane, store, authenticate: authenticationChain([bearerTokenAuthenticator(identities)]), logger, buildInfo: { version: '0', gitCommit: '', gitTreeState: '', buildDate: '' } });
  const controllers = startInProcessControllerManager(app, identities, { ...options.controllers, rootCaBundle: options.rootCaBundle, log });
  return {
    plane,
    app,
    tokenFor: (identity) => identities.issue(identity),
    clientAs: (identity) => new KubeClient(new InProcessTransport(app, identities.issue(identity))),
    transportAs: (identity) => new InProcessTransport(app, identities.issue(identity)),
    async close() {
      await controllers.stop();
      await app.close();
      await plane.stop();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
