/**
 * A built script run by node itself as a child of the test (no shell between, so `pid` is the
 * script's own process): its output collected, its exit awaited, signals sent by that pid, and a
 * SIGKILL if the test process exits first.
 *
 * @example
 *   const child = startNodeChild([CLI_PATH, 'controllers', `--kubeconfig=${kubeconfig}`]);
 *   await child.signal('SIGKILL');
 */
import { spawn } from 'node:child_process';
import type { ExitStatus } from './server.js';

export interface NodeChild {
  readonly pid: number;
  output(): string;
  /** Its output's lines that are JSON objects (log lines). */
  logLines(): Array<Record<string, unknown>>;
  exited(): boolean;
  /** Sends `name` unless it has exited; resolves when it has. */
  signal(name: NodeJS.Signals): Promise<ExitStatus>;
}

export function startNodeChild(args: string[]): NodeChild {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // On 'close' (its output all read), not 'exit', so the last lines it prints are in output().
  const exited = new Promise<ExitStatus>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.on('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));
  const pid = child.pid!;
  const hasExited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    pid,
    output: () => output,
    logLines: () =>
      output.split('\n').flatMap((line) => {
        try {
          const parsed = JSON.parse(line) as unknown;
          return parsed !== null && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      }),
    exited: hasExited,
    async signal(name) {
      if (!hasExited()) process.kill(pid, name);
      return exited;
    },
  };
}
