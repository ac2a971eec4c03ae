/**
 * Runs the built server (`node dist/src/cli.js serve`) as a child process for end-to-end tests:
 * loopback only, a free port, a fresh temporary data dir, either backend. Resolves once `/readyz`
 * answers `ok` over HTTPS (trusting the generated CA); stops by PID and removes what it made.
 *
 * @example
 *   const server = await startServer();                               // embedded SQLite
 *   const server = await startServer({ etcdServers: [etcd.endpoint] }); // etcd
 *   afterAll(() => server.cleanup());
 *   expect((await server.stop()).code).toBe(0);
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StartServerOptions {
  /** etcd client URLs; absent or empty: the embedded SQLite store. */
  etcdServers?: string[];
  /** An existing data dir (kept by cleanup); default: a fresh temporary one (removed by cleanup). */
  dataDir?: string;
  /** More `serve` flags. */
  extraArgs?: string[];
  /** More environment for the server process (e.g. `NODE_OPTIONS` to load a probe). */
  env?: Record<string, string>;
  /** PEM the serving certificate is trusted by, for a server given `--tls-cert-file`; default `<dataDir>/ca.crt`. */
  servingCa?: string;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** `https://127.0.0.1:<port>`; the port stays the same across restarts. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** `<dataDir>/admin.kubeconfig`, written by the server. */
  readonly adminKubeconfig: string;
  /** PEM of the server's CA (`<dataDir>/ca.crt`, or the `servingCa` it was started with). */
  readonly caCert: string;
  /** PID of the running server; a restart changes it. */
  readonly pid: number;
  /** Sends `signal` (default SIGTERM) and waits for the exit, escalating to SIGKILL after 20 s. */
  stop(signal?: NodeJS.Signals): Promise<ExitStatus>;
  /** SIGKILL: no graceful shutdown at all. */
  kill9(): Promise<ExitStatus>;
  /** Starts the server again on the same port and data dir (stopping it first if it runs). */
  restart(): Promise<void>;
  /** Everything the server printed so far (JSON log lines), for failure messages. */
  output(): string;
  /** Kills the server if it still runs and removes a temporary data dir; safe to call twice. */
  cleanup(): Promise<void>;
}

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 20_000;
const OUTPUT_LIMIT = 1024 * 1024;
const HARNESS_DIR = dirname(fileURLToPath(import.meta.url));
/** The repository root, whether this file runs from source (tests) or from `dist/` (benchmarks). */
export const REPO_ROOT = resolve(HARNESS_DIR, HARNESS_DIR.includes('/dist/') ? '../../..' : '../..');
export const CLI_PATH = join(REPO_ROOT, 'dist/src/cli.js');

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** GET over HTTPS trusting only `ca`; resolves with status and body, never rejects. */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string } | null> {
  return new Promise((done) => {
    const req = request(url, { ca, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      res.on('error', () => done(null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(null));
    req.end();
  });
}

class ServerInstance implements ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<ExitStatus> = Promise.resolve({ code: null, signal: null });
  private log = '';
  private boundPort = 0;
  private cleanedUp = false;
  /** Last resort if the test process exits without cleanup(): never leave a server behind. */
  private readonly killOnExit = (): void => {
    if (this.running(this.child)) this.child.kill('SIGKILL');
  };

  constructor(
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
    private readonly serveArgs: string[],
    private readonly env: Record<string, string> = {},
    private readonly servingCa: string | undefined = undefined,
  ) {
    process.on('exit', this.killOnExit);
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `https://${HOST}:${this.boundPort}`;
  }

  get adminKubeconfig(): string {
    return join(this.dataDir, 'admin.kubeconfig');
  }

  get caCert(): string {
    return this.servingCa ?? readFileSync(join(this.dataDir, 'ca.crt'), 'utf8');
  }

  get pid(): number {
    if (!this.running(this.child) || this.child.pid === undefined) throw new Error('the server is not running');
    return this.child.pid;
  }

  output(): string {
    return this.log;
  }

  private running(child: ChildProcess | undefined): child is ChildProcess {
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  private append(chunk: Buffer): void {
    this.log += chunk.toString('utf8');
    if (this.log.length > OUTPUT_LIMIT) this.log = this.log.slice(-OUTPUT_LIMIT);
  }

  /** Spawns the server, learns its port from the "kube-spaces serving" log line, waits for /readyz. */
  async start(): Promise<void> {
    if (this.cleanedUp) throw new Error('the server was cleaned up');
    // Port 0 on first start lets the kernel pick a free port with no race; restarts reuse it.
    const args = [CLI_PATH, 'serve', `--data-dir=${this.dataDir}`, `--bind-address=${HOST}`, `--secure-port=${this.boundPort}`, ...this.serveArgs];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...this.env } });
    this.child = child;
    // On 'close' (its output all read), not 'exit': the lines a stopping server prints last are what tests check.
    this.exited = new Promise((done) => child.once('close', (code, signal) => done({ code, signal })));
    child.stdout?.on('data', (chunk: Buffer) => this.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.append(chunk));

    const deadline = Date.now() + READY_TIMEOUT_MS;
    const logStart = this.log.length;
    while (Date.now() < deadline && this.running(child)) {
      this.boundPort ||= this.announcedPort(logStart);
      if (this.boundPort !== 0) {
        const res = await httpsGet(`${this.url}/readyz`, this.caCert);
        if (res?.status === 200 && res.body === 'ok') return;
      }
      await delay(50);
    }
    const why = this.running(child) ? `not ready within ${READY_TIMEOUT_MS} ms` : 'exited during start-up';
    await this.stop('SIGKILL');
    throw new Error(`kube-spaces ${why}; output:\n${this.log.slice(logStart).split('\n').slice(-30).join('\n')}`);
  }

  /** The port in the server's "kube-spaces serving" line printed since `from`, or 0. */
  private announcedPort(from: number): number {
    for (const line of this.log.slice(from).split('\n')) {
      if (!line.includes('"kube-spaces serving"')) continue;
      const { url } = JSON.parse(line) as { url: string };
      return Number(new URL(url).port);
    }
    return 0;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<ExitStatus> {
    const child = this.child;
    if (!this.running(child)) return this.exited;
    child.kill(signal);
    const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const status = await this.exited;
    clearTimeout(escalate);
    return status;
  }

  kill9(): Promise<ExitStatus> {
    return this.stop('SIGKILL');
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async cleanup(): Promise<void> {
    await this.stop('SIGKILL');
    this.cleanedUp = true;
    process.off('exit', this.killOnExit);
    if (this.ownsDataDir) await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** Starts the built server and resolves once it is ready. Run `npm run build` first (`npm test` does). */
export async function startServer(options: StartServerOptions = {}): Promise<ServerProcess> {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run \`npm run build\` first`);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'kube-spaces-e2e-')));
  const args = [...(options.etcdServers?.length ? [`--etcd-servers=${options.etcdServers.join(',')}`] : []), ...(options.extraArgs ?? [])];
  const server = new ServerInstance(dataDir, ownsDataDir, args, options.env, options.servingCa);
  try {
    await server.start();
  } catch (err) {
    await server.cleanup();
    throw err;
  }
  return server;
}
