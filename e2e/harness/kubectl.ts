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
}

export interface Kubectl {
  /** The HOME kubectl runs with (its discovery cache lives under `.kube/cache`). */
  readonly home: string;
  run(args: readonly string[], options?: RunOptions): Promise<KubectlResult>;
  /** Removes the HOME directory; safe to call twice. */
  cleanup(): Promise<void>;
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
    run: (args, options = {}) => runKubectl(home, args, { kubeconfig: defaults.kubeconfig, ...options }),
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}

async function runKubectl(home: string, args: readonly string[], options: RunOptions & { kubeconfig: string }): Promise<KubectlResult> {
  const version = options.version ?? 'dispatcher';
  const binary = findKubectl(version);
  if (binary === undefined) throw new Error(`kubectl ${version} is not installed`);
  // Only what kubectl needs: no KUBECONFIG or proxy settings of the machine leak in.
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const child = spawn(binary, ['--kubeconfig', options.kubeconfig, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  const timeout = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('close', (exitCode) => done(exitCode));
  });
  clearTimeout(timeout);
  return { stdout, stderr, code };
}
