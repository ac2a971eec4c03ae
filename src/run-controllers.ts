/**
 * `kube-spaces controllers`: the controller manager as a process of its own, against any
 * kube-spaces server. Candidates elect a leader on the Lease `kube-controller-manager` in the
 * system space's `kube-system` (as kube-controller-manager does); only the leader runs
 * controllers. The kubeconfig's user is the manager's (informers, the Lease); each controller acts
 * as its own user by impersonation. A leader that loses the lease exits 1 (its caches may be
 * stale, a restart is the safe way back); SIGTERM/SIGINT stop the controllers, release the lease
 * and exit 0.
 *
 * @example
 *   kube-spaces controllers --kubeconfig admin.kubeconfig
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SYSTEM_TENANT } from '../api/spaces.js';
import { parseGoDuration } from '../api/protobuf/well-known-types.js';
import { CONTROLLER_MANAGER_LEASE as LEADER_LEASE, LEADER_ELECTION_NAMESPACE as LEADER_LEASE_NAMESPACE, startControllerManager, type ControllerManager } from '../controllers/controller-manager.js';
import { LeaderElector, type LeaderElectionTiming } from '../controllers/runtime/leader-election.js';
import { signClientCertificate } from './bootstrap/certificates.js';
import { readPair, type PairPaths } from './bootstrap/pem-pair.js';
import { leases } from './client/builtin-kinds.js';
import { HttpsTransport } from './client/https-transport.js';
import { ImpersonatingTransport } from './client/impersonating-transport.js';
import { KubeClient } from './client/kube-client.js';
import { loadKubeconfig } from './client/kubeconfig.js';
import { createLogger } from './logger.js';

export interface RunControllersOptions {
  kubeconfig: string;
  context?: string | undefined;
  timing: LeaderElectionTiming;
  terminatedPodGcThreshold?: number | undefined;
  /** The client CA's files (kube-controller-manager's --cluster-signing-cert-file and key): approved CSRs are signed with it. */
  clusterSigning?: PairPaths | undefined;
}

export async function runControllers(options: RunControllersOptions): Promise<void> {
  const log = createLogger();
  const signingCa = options.clusterSigning ? await readPair(options.clusterSigning) : undefined;
  if (signingCa === null) throw new Error(`cannot read the cluster signing certificate and key (${options.clusterSigning!.cert}, ${options.clusterSigning!.key}), or they do not match`);
  const config = await loadKubeconfig({ path: options.kubeconfig, context: options.context });
  const transport = new HttpsTransport(config.transport);
  const managerClient = new KubeClient(transport);
  const identity = `${hostname()}_${randomUUID()}`;
  const shutdown = new AbortController();
  let manager: ControllerManager | undefined;

  const elector = new LeaderElector({
    leases: managerClient.space(SYSTEM_TENANT).namespace(LEADER_LEASE_NAMESPACE).resource(leases),
    name: LEADER_LEASE,
    identity,
    timing: options.timing,
    onStartedLeading(leading) {
      manager = startControllerManager({
        informerClient: managerClient,
        clientFor: (user) => new KubeClient(new ImpersonatingTransport(transport, user)),
        // The server's CA as the kubeconfig trusts it (kube-controller-manager's --root-ca-file).
        rootCaBundle: config.transport.ca,
        // Without the client CA, approved CSRs wait for a manager that has it (the server's in-process one).
        signClientCertificate: signingCa ? (identity, publicKey, notAfter) => signClientCertificate(signingCa, identity, publicKey, notAfter) : undefined,
        log,
        terminatedPodGcThreshold: options.terminatedPodGcThreshold,
      });
      leading.addEventListener('abort', () => void manager?.stop(), { once: true });
    },
    onStoppedLeading() {
      if (shutdown.signal.aborted) return;
      log.fatal({ identity, lease: LEADER_LEASE }, 'leader election lost');
      process.exit(1);
    },
    onNewLeader: (leader) => log.info({ leader, lease: LEADER_LEASE }, 'new leader'),
    log,
  });

  const onSignal = (signal: NodeJS.Signals): void => {
    log.info({ signal }, 'shutting down: stopping controllers and releasing the leader lease');
    shutdown.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  log.info({ identity, server: options.kubeconfig, lease: `${SYSTEM_TENANT}/${LEADER_LEASE_NAMESPACE}/${LEADER_LEASE}` }, 'kube-spaces controllers starting');
  await elector.run(shutdown.signal);
  await manager?.stop();
  transport.close();
  log.info('controllers stopped');
}

/** A flag's Go duration (`15s`, `1h0m0s`, `500ms`), in milliseconds. */
export function parseDuration(text: string): number {
  let nanos: bigint;
  try {
    nanos = parseGoDuration(text);
  } catch {
    throw new Error(`${JSON.stringify(text)} is not a duration like 15s, 500ms or 1h0m0s`);
  }
  return Number(nanos / 1_000_000n);
}
