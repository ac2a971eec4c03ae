/**
 * Runs `kube-spaces controllers` (the built CLI) as a child process against a test cluster, with
 * leader-election timings short enough for tests. Its JSON log lines tell the test what it did.
 *
 * @example
 *   const manager = startControllerManager(cluster.server.adminKubeconfig, { leaseDuration: '3s', renewDeadline: '2s', retryPeriod: '500ms' });
 *   await manager.identity();
 *   await manager.kill9();
 */
import { spawn } from 'node:child_process';
import { CLI_PATH, type ExitStatus } from './server.js';

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
  const child = spawn(
    process.execPath,
    [
      CLI_PATH,
      'controllers',
      `--kubeconfig=${kubeconfig}`,
      `--leader-elect-lease-duration=${timing.leaseDuration}`,
      `--leader-elect-renew-deadline=${timing.renewDeadline}`,
      `--leader-elect-retry-period=${timing.retryPeriod}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<ExitStatus>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const lines = (): Array<Record<string, unknown>> =>
    output.split('\n').flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const signal = async (name: NodeJS.Signals): Promise<ExitStatus> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  return {
    async identity() {
      // Up to 30 s: loading the command's modules alone takes seconds on a busy machine.
      for (let tries = 0; tries < 600; tries += 1) {
        const started = lines().find((l) => l.msg === 'kube-spaces controllers starting');
        if (started) return String(started.identity);
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`kube-spaces controllers did not start; output:\n${output}`);
    },
    logged: (msg) => lines().filter((l) => l.msg === msg),
    output: () => output,
    stop: () => signal('SIGTERM'),
    kill9: () => signal('SIGKILL'),
  };
}
