/**
 * Starts a real etcd for tests and benchmarks, one member (`startEtcd`) or several
 * (`startEtcdCluster`): loopback only, free ports, a fresh temporary data dir per member, stopped
 * by PID and removed afterwards.
 *
 * @example
 *   const etcdBinary = etcdBinaryForTests();
 *   describe.skipIf(!etcdBinary)('etcd store', () => {
 *     let etcd: EtcdProcess;
 *     beforeAll(async () => { etcd = await startEtcd({ binary: etcdBinary }); });
 *     afterAll(() => etcd?.cleanup());
 *     it('…', async () => { await etcd.kill9(); await etcd.restart(); });
 *   });
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createCa, issueClientCertificate, issueServingCertificate } from '../../src/bootstrap/certificates.js';

export interface EtcdProcess {
  /** Client URL, e.g. `http://127.0.0.1:41234` (`https://` with `tls`). Stays the same across restarts. */
  readonly endpoint: string;
  /** With `tls`: the PEM files a client needs (the CA etcd's certificate is signed by, a client certificate and key). */
  readonly clientTls: EtcdClientTls | undefined;
  /** PID of the running etcd; a restart changes it. */
  readonly pid: number;
  readonly dataDir: string;
  /** Sends `signal` (default SIGTERM) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts etcd again on the same ports and data dir (stopping it first if it runs). */
  restart(): Promise<void>;
  /** SIGKILL: etcd gets no chance to close connections or flush anything. */
  kill9(): Promise<void>;
  /** Kills etcd if it still runs and removes its temp dir; safe to call twice. */
  cleanup(): Promise<void>;
}

export interface StartEtcdOptions {
  /** Defaults to `findEtcdBinary()`. */
  binary?: string;
  /** More etcd flags, e.g. `--experimental-watch-progress-notify-interval=1s`. */
  extraArgs?: string[];
  /**
   * Serve clients over TLS and require a client certificate (`--client-cert-auth
   * --trusted-ca-file`), with a CA, serving and client certificates made for this etcd.
   */
  tls?: boolean;
}

export interface EtcdClientTls {
  caFile: string;
  certFile: string;
  keyFile: string;
}

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/**
 * Requests up to 8 MiB: etcd's default (1.5 MiB) is below the API's 3 MiB body limit, so a large
 * but legal object would be refused by etcd instead of the API server.
 */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** `$ETCD_BINARY`, else `etcd` on the PATH; undefined when there is none. */
export function findEtcdBinary(): string | undefined {
  const candidates = process.env.ETCD_BINARY
    ? [process.env.ETCD_BINARY]
    : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'etcd'));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The rule for tests that need etcd: with no binary they fail in CI (`CI=true`), where a silent
 * skip would hide a broken setup, and skip elsewhere with the reason printed.
 * Returns the binary, or undefined when the caller should skip.
 */
export function etcdBinaryForTests(): string | undefined {
  const binary = findEtcdBinary();
  if (binary !== undefined) return binary;
  const reason = 'no etcd binary (install etcd-server, or set ETCD_BINARY)';
  if (process.env.CI === 'true') throw new Error(`${reason}: CI must run the etcd tests`);
  console.warn(`skipping etcd tests: ${reason}`);
  return undefined;
}

/** `count` distinct ports nobody listens on right now: bind port 0 (all at once, so they differ), then give them back. */
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, HOST, () => {
            const address = server.address();
            if (typeof address === 'object' && address) resolve(address.port);
            else reject(new Error('bound to no port'));
          });
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** etcd 3.4 refuses to start on architectures it does not support unless told to. */
function unsupportedArch(): string | undefined {
  const goArch: Partial<Record<string, string>> = { ia32: '386', arm: 'arm', s390x: 's390x', riscv64: 'riscv64', mips: 'mips', mipsel: 'mipsle', loong64: 'loong64' };
  return ['x64', 'arm64', 'ppc64'].includes(process.arch) ? undefined : (goArch[process.arch] ?? process.arch);
}

function etcdEnv(): NodeJS.ProcessEnv {
  // ETCD_* variables are read as flags by etcd and would clash with ours.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ETCD_')));
  const arch = unsupportedArch();
  return arch === undefined ? env : { ...env, ETCD_UNSUPPORTED_ARCH: arch };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class EtcdInstance implements EtcdProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private cleanedUp = false;
  /** Last resort if the process exits without cleanup(): leave neither an etcd nor its files. */
  private readonly cleanupOnExit = (): void => {
    if (this.running) this.child!.kill('SIGKILL');
    try {
      rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // best effort: the process is exiting anyway
    }
  };

  constructor(
    private readonly binary: string,
    private readonly dir: string,
    private readonly clientPort: number,
    private readonly peerPort: number,
    /** This member's name and the cluster it starts in (`name=peerURL,…`); the name alone for a single member. */
    private readonly membership: { name: string; initialCluster?: string; token?: string },
    private readonly extraArgs: string[],
    /** The TLS files etcd serves with, and those a client needs; undefined for plain HTTP. */
    private readonly tls: { serverCertFile: string; serverKeyFile: string; client: EtcdClientTls } | undefined,
  ) {
    process.on('exit', this.cleanupOnExit);
  }

  get endpoint(): string {
    return `${this.tls ? 'https' : 'http'}://${HOST}:${this.clientPort}`;
  }

  get clientTls(): EtcdClientTls | undefined {
    return this.tls?.client;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get pid(): number {
    if (!this.running || this.child!.pid === undefined) throw new Error('etcd is not running');
    return this.child!.pid;
  }

  private get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  private get logPath(): string {
    return join(this.dir, 'etcd.log');
  }

  get peerUrl(): string {
    return `http://${HOST}:${this.peerPort}`;
  }

  private args(): string[] {
    const peer = this.peerUrl;
    const { name, initialCluster = `${name}=${peer}`, token } = this.membership;
    return [
      `--name=${name}`,
      `--data-dir=${this.dataDir}`,
      `--listen-client-urls=${this.endpoint}`,
      `--advertise-client-urls=${this.endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=${initialCluster}`,
      ...(token ? [`--initial-cluster-token=${token}`] : []),
      `--max-request-bytes=${MAX_REQUEST_BYTES}`,
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
      ...(this.tls
        ? [`--cert-file=${this.tls.serverCertFile}`, `--key-file=${this.tls.serverKeyFile}`, '--client-cert-auth', `--trusted-ca-file=${this.tls.client.caFile}`]
        : []),
      ...this.extraArgs,
    ];
  }

  /** Spawns etcd and waits until /health says yes; throws with the log's tail if it never does. */
  async start(): Promise<void> {
    if (this.cleanedUp) throw new Error('etcd was cleaned up');
    const log = openSync(this.logPath, 'a');
    const child = spawn(this.binary, this.args(), { stdio: ['ignore', log, log], env: etcdEnv() });
    closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline && this.running) {
      if (await this.healthy()) return;
      await delay(50);
    }
    await this.stop('SIGKILL');
    throw new Error(`etcd did not become healthy on ${this.endpoint}; log tail:\n${this.logTail()}`);
  }

  private async healthy(): Promise<boolean> {
    if (this.tls) return this.healthyOverTls(this.tls.client);
    try {
      const res = await fetch(`${this.endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
      const body = (await res.json()) as { health?: string };
      return res.ok && body.health === 'true';
    } catch {
      return false;
    }
  }

  /** /health presenting the client certificate (fetch cannot), trusting only the test CA. */
  private healthyOverTls(files: EtcdClientTls): Promise<boolean> {
    const [ca, cert, key] = [files.caFile, files.certFile, files.keyFile].map((file) => readFileSync(file, 'utf8'));
    return new Promise((done) => {
      const req = request(`${this.endpoint}/health`, { ca, cert, key, timeout: 1_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => done(res.statusCode === 200 && body.includes('"health":"true"')));
        res.on('error', () => done(false));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => done(false));
      req.end();
    });
  }

  private logTail(): string {
    try {
      return readFileSync(this.logPath, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no log)';
    }
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    const child = this.child!;
    child.kill(signal);
    // Escalate to SIGKILL if etcd ignores the signal; the timer must not outlive the exit.
    const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(escalate);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  kill9(): Promise<void> {
    return this.stop('SIGKILL');
  }

  async cleanup(): Promise<void> {
    await this.stop('SIGKILL');
    this.cleanedUp = true;
    process.off('exit', this.cleanupOnExit);
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A CA, etcd's serving certificate for loopback, and a client certificate, as PEM files in `dir`. */
async function writeTlsFiles(dir: string): Promise<{ serverCertFile: string; serverKeyFile: string; client: EtcdClientTls }> {
  const ca = await createCa('etcd-test-ca');
  const serving = await issueServingCertificate(ca, [HOST, 'localhost']);
  const client = await issueClientCertificate(ca, { user: 'kube-spaces', tenant: 'system', groups: [] });
  const files = {
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    client: { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'client.crt'), keyFile: join(dir, 'client.key') },
  };
  await Promise.all([
    writeFile(files.client.caFile, ca.cert),
    writeFile(files.serverCertFile, serving.cert),
    writeFile(files.serverKeyFile, serving.key, { mode: 0o600 }),
    writeFile(files.client.certFile, client.cert),
    writeFile(files.client.keyFile, client.key, { mode: 0o600 }),
  ]);
  return files;
}

/**
 * Starts a single-member etcd on two free loopback ports with a fresh data dir, and resolves once
 * it is healthy. A port taken between picking and binding is retried with new ports.
 */
export async function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdProcess> {
  const binary = opts.binary ?? findEtcdBinary();
  if (binary === undefined) throw new Error('no etcd binary (install etcd-server, or set ETCD_BINARY)');
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const dir = await mkdtemp(join(tmpdir(), 'kube-spaces-etcd-'));
    const [clientPort, peerPort] = await freePorts(2);
    const tls = opts.tls ? await writeTlsFiles(dir) : undefined;
    const instance = new EtcdInstance(binary, dir, clientPort!, peerPort!, { name: 'test' }, opts.extraArgs ?? [], tls);
    try {
      await instance.start();
      return instance;
    } catch (err) {
      lastError = err;
      await instance.cleanup();
    }
  }
  throw lastError;
}

export interface EtcdCluster {
  readonly members: readonly EtcdProcess[];
  /** Every member's client URL, for `--etcd-servers`. */
  readonly endpoints: string[];
  /** The member that leads now (asked of each running member's maintenance status). */
  leader(): Promise<EtcdProcess>;
  /** Kills and removes every member; safe to call twice. */
  cleanup(): Promise<void>;
}

/** etcd's maintenance status through its JSON gateway: this member's id and the leader's (uint64s as strings). */
async function memberStatus(endpoint: string): Promise<{ member: string; leader: string } | undefined> {
  try {
    const res = await fetch(`${endpoint}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(1_000) });
    const body = (await res.json()) as { header?: { member_id?: string }; leader?: string };
    return body.header?.member_id && body.leader ? { member: body.header.member_id, leader: body.leader } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts an etcd cluster of `members` members (plain HTTP) on free loopback ports, each with its
 * own temporary data dir, and resolves once every member is healthy (which needs a leader).
 */
export async function startEtcdCluster(opts: { members: number; binary?: string }): Promise<EtcdCluster> {
  const binary = opts.binary ?? findEtcdBinary();
  if (binary === undefined) throw new Error('no etcd binary (install etcd-server, or set ETCD_BINARY)');
  const ports = await freePorts(2 * opts.members);
  const dirs = await Promise.all(Array.from({ length: opts.members }, () => mkdtemp(join(tmpdir(), 'kube-spaces-etcd-'))));
  const names = dirs.map((_, i) => `m${i}`);
  const initialCluster = names.map((name, i) => `${name}=http://${HOST}:${ports[2 * i + 1]}`).join(',');
  // A token of this cluster only: members of another test's cluster never join it.
  const token = `kube-spaces-${dirs[0]!.split('-').at(-1)}`;
  const members = dirs.map((dir, i) => new EtcdInstance(binary, dir, ports[2 * i]!, ports[2 * i + 1]!, { name: names[i]!, initialCluster, token }, [], undefined));
  const cleanup = async (): Promise<void> => void (await Promise.all(members.map((m) => m.cleanup())));
  try {
    // Together: no member is healthy before a quorum runs.
    await Promise.all(members.map((m) => m.start()));
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    members,
    endpoints: members.map((m) => m.endpoint),
    async leader() {
      for (let tries = 0; tries < 100; tries += 1) {
        const statuses = await Promise.all(members.map((m) => memberStatus(m.endpoint)));
        const index = statuses.findIndex((s) => s !== undefined && s.member === s.leader);
        if (index !== -1) return members[index]!;
        await delay(100);
      }
      throw new Error('no etcd member says it leads');
    },
    cleanup,
  };
}
