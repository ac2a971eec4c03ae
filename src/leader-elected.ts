/**
 * Something `serve` runs on one replica only (the controller manager, the etcd compactor), started
 * while this replica holds its Lease in the system space's `kube-system` and stopped when it stops
 * holding it. The election is controllers/runtime/leader-election.ts, client-go's.
 *
 * Losing the lease: kube-controller-manager exits 1, because its caches may be stale and a restart
 * is the safe way back. Here the component shares its process with the API server, which must go
 * on serving, so that restart happens in place: the component is stopped (its informers and
 * workers with it; nothing of its state is kept) and the replica campaigns again with a fresh
 * elector, starting a fresh component if it wins.
 *
 * @example
 *   const manager = startLeaderElected({ leases, name: 'kube-controller-manager', identity, timing, start: () => startControllerManager(…), log });
 *   await manager.stop(); // stops the component, then releases the lease
 */
import { LeaderElector, type LeaderElectionTiming } from '../controllers/runtime/leader-election.js';
import type { Lease } from '../api/kinds/coordination/lease.js';
import type { ResourceClient } from './client/resource-client.js';

export interface LeaderElectedOptions {
  /** Lease client of the system space's `kube-system`. */
  leases: ResourceClient<Lease>;
  /** The Lease's name. */
  name: string;
  /** This replica, as the Lease's holderIdentity names it. */
  identity: string;
  timing: LeaderElectionTiming;
  /** Starts the component; called each time this replica becomes leader. */
  start(): { stop(): Promise<void> };
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface LeaderElected {
  /** Stops the component if it runs, releases the lease if held, and ends the campaign. */
  stop(): Promise<void>;
}

export function startLeaderElected(options: LeaderElectedOptions): LeaderElected {
  const { name, identity, log } = options;
  const shutdown = new AbortController();
  const campaigns = (async () => {
    // One elector per campaign: a new one starts from no observed record, as a restarted process would.
    while (!shutdown.signal.aborted) {
      let component: { stop(): Promise<void> } | undefined;
      let stopping: Promise<void> | undefined;
      const elector = new LeaderElector({
        leases: options.leases,
        name,
        identity,
        timing: options.timing,
        onStartedLeading(leading) {
          component = options.start();
          log.info({ lease: name, identity }, 'started leading');
          leading.addEventListener('abort', () => (stopping = component?.stop()), { once: true });
        },
        onStoppedLeading: () => undefined,
        onNewLeader: (leader) => log.info({ lease: name, leader }, 'new leader'),
        log,
      });
      await elector.run(shutdown.signal);
      await stopping;
      if (!shutdown.signal.aborted && component !== undefined) log.warn({ lease: name, identity }, 'leader election lost: stopped, campaigning again');
    }
  })();
  return {
    async stop() {
      shutdown.abort();
      await campaigns;
    },
  };
}
