/**
 * Runs `kube-spaces controllers` (the built CLI) as a child process against a test cluster, with
 * leader-election timings short enough for tests. Its JSON log lines tell the test what it did.
 *
 * @example
 *   const manager = startControllerManager(cluster.server.adminKubeconfig, { leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' });
 *   await manager.identity();
 *   await manager.kill9();
 */
import { KubeClient } from '../../src/client/index.js';
import { startCluster, type Backend, type TestCluster } from './cluster.js';
import { startNodeChild } from './node-child.js';
import { CLI_PATH, type ExitStatus } from './server.js';
import { certificateKubeconfig } from './spaces.js';

export interface LeaderElectionFlags {
  leaseDuration: string;
  renewDeadline: string;
  retryPeriod: string;
}

export interface ControllerManagerProcess {
  /** Its leader-election identity, from its first log line. */
  identity(): Promise<string>;
  /** The log lines (parsed) whose `msg` is `msg`. */
  logged(msg: string): Array<Record<string, unknown>>;
  output(): string;
  /** SIGTERM: stops its controllers, releases the lease, exits 0. */
  stop(): Promise<ExitStatus>;
  kill9(): Promise<ExitStatus>;
}

export function startControllerManager(kubeconfig: string, timing: LeaderElectionFlags): ControllerManagerProcess {
  const child = startNodeChild([
    CLI_PATH,
    'controllers',
    `--kubeconfig=${kubeconfig}`,
    `--leader-elect-lease-duration=${timing.leaseDuration}`,
    `--leader-elect-renew-deadline=${timing.renewDeadline}`,
    `--leader-elect-retry-period=${timing.retryPeriod}`,
  ]);
  return {
    async identity() {
      // Up to 30 s: loading the command's modules alone takes seconds on a busy machine.
      for (let tries = 0; tries < 600; tries += 1) {
        const started = child.logLines().find((l) => l.msg === 'kube-spaces controllers starting');
        if (started) return String(started.identity);
        if (child.exited()) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`kube-spaces controllers did not start; output:\n${child.output()}`);
    },
    logged: (msg) => child.logLines().filter((l) => l.msg === msg),
    output: child.output,
    stop: () => child.signal('SIGTERM'),
    kill9: () => child.signal('SIGKILL'),
  };
}

/** A server that runs no controllers, the system admin's client, and the managers a test starts against it. */
export interface ManagedCluster {
  cluster: TestCluster;
  admin: KubeClient;
  /** The manager's own user: system:kube-controller-manager by certificate, with only its bootstrap role. */
  managerKubeconfig: string;
  managers: ControllerManagerProcess[];
  startManager(timing: LeaderElectionFlags): ControllerManagerProcess;
  /** Kills every manager started, then stops the server. */
  cleanup(): Promise<void>;
}

export async function startManagedCluster(backend: Backend, extraArgs: string[] = []): Promise<ManagedCluster> {
  const cluster = await startCluster(backend, { extraArgs: ['--controllers=false', ...extraArgs] });
  const admin = await KubeClient.fromKubeconfig({ path: cluster.server.adminKubeconfig });
  const managerKubeconfig = (await certificateKubeconfig(cluster, { tenant: 'system', user: 'system:kube-controller-manager' })).kubeconfig;
  const managers: ControllerManagerProcess[] = [];
  return {
    cluster,
    admin,
    managerKubeconfig,
    managers,
    startManager(timing) {
      const manager = startControllerManager(managerKubeconfig, timing);
      managers.push(manager);
      return manager;
    },
    async cleanup() {
      await Promise.all(managers.map((m) => m.kill9()));
      admin.close();
      await cluster.cleanup();
    },
  };
}
