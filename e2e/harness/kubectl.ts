/**
 * Runs stock kubectl against a test server: the dispatcher on the PATH (which picks
 * `kubectl.1.<minor>` from the server's `/version`) or one versioned binary `kubectl.1.27` …
 * `kubectl.1.33` from beside the dispatcher's real path. Each `Kubectl` has its own fresh HOME, so
 * its discovery cache starts empty. A non-zero exit is a result, never an exception.
 *
 * @example
 *   const kubectlPath = kubectlForTests();
 *   describe.skipIf(!kubectlPath)('…', () => {
 *     const kubectl = await createKubectl({ kubeconfig: server.adminKubeconfig });
 *     const { stdout, code } = await kubectl.run(['get', '--raw', '/readyz'], { version: '1.27' });
 *     await kubectl.cleanup();
 *   });
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

export const KUBECTL_VERSIONS = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'] as const;
/** A versioned binary, or the dispatcher on the PATH. */
export type KubectlVersion = (typeof KUBECTL_VERSIONS)[number] | 'dispatcher';

export interface KubectlResult {
  stdout: string;
  stderr: string;
  /** Exit code; null when killed (e.g. after the timeout). */
  code: number | null;
}

export interface RunOptions {
  /** Default: the dispatcher. */
  version?: KubectlVersion;
  /** Default: the kubeconfig the `Kubectl` was created with. */
  kubeconfig?: string;
  /** Written to kubectl's standard input (e.g. a manifest for `apply -f -`). */
  stdin?: string;
  /** Default 60 s; then kubectl is killed and `code` is null. */
  timeoutMs?: number;
  /** More environment variables, e.g. `EDITOR` for `kubectl edit`. */
  env?: Record<string, string>;
}

export interface Kubectl {
  /** The HOME kubectl runs with (its discovery cache lives under `.kube/cache`). */
  readonly home: string;
  run(args: readonly string[], options?: RunOptions): Promise<KubectlResult>;
  /**
   * Starts kubectl in the background (`get -w`, `wait`): the test acts while it runs, then waits
   * for its output or its exit. It is killed after `timeoutMs` like `run`, and by `stop()`.
   */
  start(args: readonly string[], options?: RunOptions): KubectlProcess;
  /** Removes the HOME directory; safe to call twice. */
  cleanup(): Promise<void>;
}

export interface KubectlProcess {
  /** Standard output so far. */
  stdout(): string;
  /** Resolves once standard output matches `pattern`; rejects (with the output) after `timeoutMs` (default 20 s) or if kubectl exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /**
   * As `waitForOutput`, on standard error: with `-v=6` kubectl logs each request once its answer
   * arrives, so `waitForLog(/watch=true/)` tells that a watch is open.
   */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when kubectl exits by itself (or is killed by its timeout). */
  readonly exited: Promise<KubectlResult>;
  /** Kills kubectl (SIGKILL, by its own PID) if it still runs and resolves with what it printed. */
  stop(): Promise<KubectlResult>;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The binary for `version`, or undefined when this machine lacks it. */
export function findKubectl(version: KubectlVersion = 'dispatcher'): string | undefined {
  const dispatcher = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'kubectl'))
    .find(executable);
  if (dispatcher === undefined || version === 'dispatcher') return dispatcher;
  const versioned = join(dirname(realpathSync(dispatcher)), `kubectl.${version}`);
  return executable(versioned) ? versioned : undefined;
}

/**
 * The rule for tests that need kubectl: with none (or a versioned binary missing) they fail in CI
 * (`CI=true`), where a silent skip would hide a broken setup, and skip elsewhere with the reason
 * printed. Returns the dispatcher's path, or undefined when the caller should skip.
 */
export function kubectlForTests(versions: readonly KubectlVersion[] = ['dispatcher', ...KUBECTL_VERSIONS]): string | undefined {
  const missing = versions.filter((v) => findKubectl(v) === undefined);
  if (missing.length === 0) return findKubectl();
  const reason = `kubectl missing (${missing.join(', ')}): none on the PATH, or no kubectl.1.x beside its real path`;
  if (process.env.CI === 'true') throw new Error(`${reason}: CI must run the kubectl tests`);
  console.warn(`skipping kubectl tests: ${reason}`);
  return undefined;
}

export async function createKubectl(defaults: { kubeconfig: string }): Promise<Kubectl> {
  const home = await mkdtemp(join(tmpdir(), 'kube-spaces-kubectl-home-'));
  return {
    home,
    run: (args, options = {}) => startKubectl(home, args, { kubeconfig: defaults.kubeconfig, ...options }).exited,
    start: (args, options = {}) => startKubectl(home, args, { kubeconfig: defaults.kubeconfig, ...options }),
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}

function startKubectl(home: string, args: readonly string[], options: RunOptions & { kubeconfig: string }): KubectlProcess {
  const version = options.version ?? 'dispatcher';
  const binary = findKubectl(version);
  if (binary === undefined) throw new Error(`kubectl ${version} is not installed`);
  // Only what kubectl needs: no KUBECONFIG or proxy settings of the machine leak in.
  const env = { ...options.env, PATH: process.env.PATH ?? '', HOME: home };
  const child = spawn(binary, ['--kubeconfig', options.kubeconfig, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  // Set on 'close' (all output read), not on 'exit', so no output is missed.
  let closed = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const listener of listeners) listener();
  });
  child.stdin.end(options.stdin ?? '');
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const exited = new Promise<KubectlResult>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => {
      clearTimeout(timeout);
      closed = true;
      for (const listener of listeners) listener();
      done({ stdout, stderr, code });
    });
  });
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const waitFor = (output: () => string, what: string, pattern: RegExp, timeoutMs = 20_000): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const describe = (why: string): Error => new Error(`kubectl ${args.join(' ')} ${why} ${what} ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`);
      const check = (): void => {
        if (pattern.test(output())) finish();
        else if (closed) finish(describe(`exited (${child.exitCode}) before it did`));
      };
      const timer = setTimeout(() => finish(describe(`did not within ${timeoutMs} ms`)), timeoutMs);
      const finish = (err?: Error): void => {
        clearTimeout(timer);
        listeners.delete(check);
        if (err) reject(err);
        else resolve();
      };
      listeners.add(check);
      check();
    });

  return {
    stdout: () => stdout,
    exited,
    waitForOutput: (pattern, timeoutMs) => waitFor(() => stdout, 'print', pattern, timeoutMs),
    waitForLog: (pattern, timeoutMs) => waitFor(() => stderr, 'log', pattern, timeoutMs),
    async stop() {
      if (running()) child.kill('SIGKILL');
      return exited;
    },
  };
}
