#!/usr/bin/env node
/**
 * The `kube-spaces` command. Flags are named as kube-apiserver names them where it has one.
 *
 * @example
 *   kube-spaces serve                                    # embedded SQLite in ./.kube-spaces
 *   kube-spaces serve --etcd-servers=http://127.0.0.1:2379 --secure-port=6443
 *   kube-spaces serve --controllers=false && kube-spaces controllers --kubeconfig .kube-spaces/admin.kubeconfig
 *   kube-spaces serve --config /etc/kube-spaces/serve.yaml        # flags as YAML keys: `etcd-servers: [https://…]`
 *   KUBE_SPACES_SECURE_PORT=7443 kube-spaces serve                 # every flag as KUBE_SPACES_<FLAG>
 *
 * A flag on the command line wins over the environment, which wins over the config file.
 */
import { DEFAULT_POD_SECURITY_EXEMPTIONS } from '../api/admission/pod-security/pod-security.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { issueUserKubeconfig } from './bootstrap/user-kubeconfig.js';
import { listCredentials, revokeCredentials, revokedCredentialsPath } from './bootstrap/credentials-command.js';
import { serve } from './serve.js';
import { parseDuration, runControllers } from './run-controllers.js';
import { checkLeaderElectionTiming, DEFAULT_LEADER_ELECTION_TIMING, type LeaderElectionTiming } from '../controllers/runtime/leader-election.js';
import { DEFAULT_IDENTITY_LEASE_DURATION_SECONDS, DEFAULT_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS } from './apiserver-controllers/identity-lease/identity-lease.js';
import { DEFAULT_NODE_SIMULATOR_SETTINGS, type NodeSimulatorSettings } from '../controllers/node-simulator/node-simulator.js';
import { runNodeSimulator } from './run-node-simulator.js';
import { DEFAULT_TERMINATED_POD_GC_THRESHOLD } from '../controllers/pod-gc/pod-gc-controller.js';
import { DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT } from './server/flowcontrol/dispatcher.js';
import { parseStorageClusterFlags } from '../storage/storage-clusters.js';

/** A key prefix: `/name`, `/a/b`; no trailing slash (keys add their own), no whitespace. */
const ETCD_PREFIX = /^\/[^\s]*[^/\s]$/;

/** Every flag may also come from the environment as KUBE_SPACES_<FLAG> (`--etcd-servers` → KUBE_SPACES_ETCD_SERVERS). */
const ENV_PREFIX = 'KUBE_SPACES';

function environmentName(flag: string): string {
  return `${ENV_PREFIX}_${flag.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * `--config <file>`: a YAML (or JSON) map of flag names to values, e.g. `secure-port: 7443`.
 * A flag the environment also sets is left to the environment (see `withEnvironment`).
 */
function readConfigFile(path: string): Record<string, unknown> {
  const parsed: unknown = parseYaml(readFileSync(path, 'utf8'));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`--config ${path} must hold a map of flag names to values`);
  return Object.fromEntries(Object.entries(parsed).filter(([flag]) => process.env[environmentName(flag)] === undefined));
}

/**
 * Reads the command's flags from KUBE_SPACES_<FLAG> variables. Only variables naming a flag of
 * this command are read (yargs' own `.env()` would refuse any other KUBE_SPACES_* variable under
 * `.strict()`, and one set for `serve` would break `kubeconfig`); a flag on the command line wins.
 */
function withEnvironment<T>(y: Argv<T>): Argv<T> {
  const fromEnvironment: Record<string, string> = {};
  // yargs 18 has getOptions(); @types/yargs (17) does not declare it.
  const { key: flags } = (y as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions();
  for (const flag of Object.keys(flags)) {
    const value = process.env[environmentName(flag)];
    // camelCase spellings yargs adds are skipped: each flag is read once, by its kebab-case name.
    if (value !== undefined && flag === flag.toLowerCase()) fromEnvironment[flag] = value;
  }
  return y.config(fromEnvironment);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/** klog's `--v` as a pino level: 0-1 info (klog's default detail), 2-4 debug, 5 and up trace. */
function levelOfVerbosity(v: number): string {
  return v >= 5 ? 'trace' : v >= 2 ? 'debug' : 'info';
}

/** `--flag=a,b --flag c` → ['a', 'b', 'c']. */
function commaList(values: readonly (string | number)[] | undefined): string[] {
  return (values ?? []).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** The node simulator's flags, shared by `serve --simulate-nodes N` and `simulate-nodes --nodes N`. */
function simulatorFlags<T>(y: Argv<T>) {
  const d = DEFAULT_NODE_SIMULATOR_SETTINGS;
  return y
    .option('simulate-node-name-prefix', { type: 'string', default: d.namePrefix, describe: 'Simulated nodes are named this followed by 0, 1, …' })
    .option('simulate-node-cpu', { type: 'string', default: d.capacity.cpu, describe: 'cpu capacity (and allocatable) of each simulated node' })
    .option('simulate-node-memory', { type: 'string', default: d.capacity.memory, describe: 'memory capacity (and allocatable) of each simulated node' })
    .option('simulate-node-pods', { type: 'string', default: d.capacity.pods, describe: 'pods capacity (and allocatable) of each simulated node' })
    .option('simulate-pod-runtime', { type: 'string', default: `${d.podRuntimeMs / 1000}s`, describe: "How long containers of pods that finish (Jobs', restartPolicy Never/OnFailure) run on a simulated node" })
    .check((argv) => {
      parseDuration(argv['simulate-pod-runtime']);
      return true;
    });
}

function simulatorSettings(argv: { 'simulate-node-name-prefix': string; 'simulate-node-cpu': string; 'simulate-node-memory': string; 'simulate-node-pods': string; 'simulate-pod-runtime': string }, nodes: number): NodeSimulatorSettings {
  return {
    ...DEFAULT_NODE_SIMULATOR_SETTINGS,
    nodes,
    namePrefix: argv['simulate-node-name-prefix'],
    capacity: { cpu: argv['simulate-node-cpu'], memory: argv['simulate-node-memory'], pods: argv['simulate-node-pods'] },
    podRuntimeMs: parseDuration(argv['simulate-pod-runtime']),
  };
}

/** kube-controller-manager's leader-election flags, shared by `controllers` and `serve`. */
function leaderElectionFlags<T>(y: Argv<T>) {
  const d = DEFAULT_LEADER_ELECTION_TIMING;
  return y
    .option('leader-elect-lease-duration', { type: 'string', default: `${d.leaseDurationMs / 1000}s`, describe: 'How long a standby waits for a renewal before taking the lease' })
    .option('leader-elect-renew-deadline', { type: 'string', default: `${d.renewDeadlineMs / 1000}s`, describe: 'How long the leader retries renewing before it stops leading' })
    .option('leader-elect-retry-period', { type: 'string', default: `${d.retryPeriodMs / 1000}s`, describe: 'Time between tries to acquire or renew' })
    .check((argv) => {
      checkLeaderElectionTiming(leaderElectionTiming(argv));
      return true;
    });
}

function leaderElectionTiming(argv: { 'leader-elect-lease-duration': string; 'leader-elect-renew-deadline': string; 'leader-elect-retry-period': string }): LeaderElectionTiming {
  return {
    leaseDurationMs: parseDuration(argv['leader-elect-lease-duration']),
    renewDeadlineMs: parseDuration(argv['leader-elect-renew-deadline']),
    retryPeriodMs: parseDuration(argv['leader-elect-retry-period']),
  };
}

const GC_THRESHOLD_FLAG = {
  type: 'number',
  default: DEFAULT_TERMINATED_POD_GC_THRESHOLD,
  describe: 'Terminated pods a space keeps before the pod garbage collector deletes the oldest (0 or less: none are collected)',
} as const;

const MAX_SIMULATED_NODES = 1024; // one /24 of 10.244.0.0/14 each

function checkNodeCount(flag: string, n: number, min: number): void {
  if (!Number.isInteger(n) || n < min || n > MAX_SIMULATED_NODES) throw new Error(`--${flag} must be ${min}-${MAX_SIMULATED_NODES}, got ${n}`);
}

await yargs(hideBin(process.argv))
  .scriptName('kube-spaces')
  .config('config', 'A YAML file of flags (`flag-name: value`); command-line flags and KUBE_SPACES_* variables win over it', readConfigFile)
  .command(
    'serve',
    'Run the API server',
    (y) =>
      withEnvironment(
        leaderElectionFlags(simulatorFlags(y))
          .option('secure-port', { type: 'number', default: 6443, describe: 'HTTPS port (0 picks a free one)' })
          .option('bind-address', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
          .option('http2-max-streams-per-connection', {
            type: 'number',
            default: 0,
            describe: "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use golang's default (250).",
          })
          .option('disable-http2-serving', { type: 'boolean', default: false, describe: 'If true, HTTP2 serving will be disabled' })
          .option('etcd-servers', {
            type: 'string',
            array: true,
            describe: 'etcd endpoints, comma-separated; without them state lives in <data-dir>/state.db (SQLite)',
          })
          .option('etcd-cafile', { type: 'string', describe: 'PEM CA bundle that signed etcd\'s serving certificate (https:// endpoints)' })
          .option('etcd-certfile', { type: 'string', describe: 'PEM client certificate for etcd (an etcd with --client-cert-auth)' })
          .option('etcd-keyfile', { type: 'string', describe: 'PEM private key of --etcd-certfile' })
          .option('storage-cluster', {
            type: 'string',
            array: true,
            default: [],
            describe: 'An etcd cluster spaces may be pinned to, as <id>=<url>[,<url>...] (repeatable): a Tenant with spec.storageClusterId <id> keeps its space there; --etcd-cafile/certfile/keyfile and --etcd-prefix apply to it too',
          })
          .option('etcd-prefix', { type: 'string', default: '', describe: 'Root of every etcd key of this server: keys are <prefix>/registry/…' })
          .option('token-auth-file', { type: 'string', describe: 'Static token file (default <data-dir>/tokens.csv)' })
          .option('revoked-credentials-file', { type: 'string', describe: 'Revoked certificate serials and token digests, re-read live (default <data-dir>/revoked.csv)' })
          .option('tls-cert-file', { type: 'string', describe: 'PEM serving certificate, its chain after it (default: <data-dir>/serving.crt, made by the server)' })
          .option('tls-private-key-file', { type: 'string', describe: 'PEM private key of --tls-cert-file' })
          .option('client-ca-file', { type: 'string', describe: 'PEM bundle of CAs whose client certificates are trusted (default <data-dir>/client-ca.crt)' })
          .option('service-account-key-file', {
            type: 'string',
            alias: 'service-account-signing-key-file',
            describe: 'PEM ECDSA P-256 private key that signs and verifies service-account tokens (default <data-dir>/sa.key)',
          })
          .option('data-dir', { type: 'string', default: './.kube-spaces', describe: 'Certificates, tokens, kubeconfig and embedded state' })
          .option('tls-san', { type: 'string', array: true, describe: 'Extra DNS names or IPs for the serving certificate (repeatable)' })
          .option('service-cluster-ip-range', { type: 'string', default: '10.96.0.0/12', describe: 'IPv4 CIDR each space allocates Service cluster IPs from' })
          .option('controllers', { type: 'boolean', default: true, describe: 'Run the controller manager in the server (false: run `kube-spaces controllers` against it)' })
          .option('leader-elect', { type: 'boolean', default: true, describe: 'Run the controller manager and the etcd compactor only on the replica holding their Lease (kube-system of the system space)' })
          .option('identity-lease-duration-seconds', { type: 'number', default: DEFAULT_IDENTITY_LEASE_DURATION_SECONDS, describe: "Duration of this server's identity Lease; expired ones are deleted this often" })
          .option('identity-lease-renew-interval-seconds', { type: 'number', default: DEFAULT_IDENTITY_LEASE_RENEW_INTERVAL_SECONDS, describe: "How often this server renews its identity Lease" })
          .option('pod-security-exempt-namespaces', { type: 'string', array: true, default: DEFAULT_POD_SECURITY_EXEMPTIONS.namespaces, describe: 'PodSecurity admission skips these namespaces, as <tenant>/<namespace>, comma-separated' })
          .option('pod-security-exempt-usernames', { type: 'string', array: true, default: [], describe: 'PodSecurity admission skips requests of these users, as <tenant>/<user>, comma-separated' })
          .option('pod-security-exempt-runtime-classes', { type: 'string', array: true, default: [], describe: 'PodSecurity admission skips pods of these runtime classes, comma-separated' })
          .option('terminated-pod-gc-threshold', GC_THRESHOLD_FLAG)
          .option('event-ttl', { type: 'string', default: '1h0m0s', describe: 'How long an event is kept after its last write (a Go duration)' })
          .option('simulate-nodes', { type: 'number', default: 0, describe: 'Run the node simulator in the server with this many simulated nodes (no kubelet: pods on them are reported Running without running anything)' })
          .option('audit-policy-file', { type: 'string', describe: 'audit.k8s.io/v1 Policy deciding what is audited at which level (with `tenants` on rules)' })
          .option('audit-log-path', { type: 'string', describe: 'Where audit events go, one JSON line each; - for stdout' })
          .option('audit-log-maxsize', { type: 'number', default: 0, describe: 'Rotate the audit log past this many MB (0: never)' })
          .option('audit-log-maxbackup', { type: 'number', default: 0, describe: 'Rotated audit logs kept (0: all)' })
          .option('audit-log-maxage', { type: 'number', default: 0, describe: 'Days a rotated audit log is kept (0: forever)' })
          .option('max-requests-inflight', { type: 'number', default: DEFAULT_MAX_REQUESTS_INFLIGHT, describe: 'With --max-mutating-requests-inflight, the seats API Priority and Fairness shares among priority levels' })
          .option('max-mutating-requests-inflight', { type: 'number', default: DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, describe: 'Added to --max-requests-inflight: the server\'s total concurrency limit' })
          .option('log-level', { type: 'string', choices: LOG_LEVELS, describe: 'Log level (default: from --v, else info)' })
          .option('v', { type: 'number', default: 0, describe: 'klog verbosity: 0-1 info, 2-4 debug, 5 and up trace' })
          .check((argv) => {
            const port = argv['secure-port'];
            if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--secure-port must be 0-65535, got ${port}`);
            checkNodeCount('simulate-nodes', argv['simulate-nodes'], 0);
            const streams = argv['http2-max-streams-per-connection'];
            // HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS is 32 bits.
            if (!Number.isInteger(streams) || streams < 0 || streams > 2 ** 32 - 1) throw new Error(`--http2-max-streams-per-connection must be a whole number, 0 or more, got ${streams}`);
            if ((argv['etcd-certfile'] === undefined) !== (argv['etcd-keyfile'] === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile go together');
            if ((argv['tls-cert-file'] === undefined) !== (argv['tls-private-key-file'] === undefined)) throw new Error('--tls-cert-file and --tls-private-key-file go together');
            if ((argv['audit-policy-file'] === undefined) !== (argv['audit-log-path'] === undefined)) throw new Error('--audit-policy-file and --audit-log-path go together');
            for (const flag of ['max-requests-inflight', 'max-mutating-requests-inflight'] as const) {
              if (!Number.isInteger(argv[flag]) || argv[flag] <= 0) throw new Error(`--${flag} must be a whole number, 1 or more, got ${argv[flag]}`);
            }
            for (const flag of ['audit-log-maxsize', 'audit-log-maxbackup', 'audit-log-maxage', 'v'] as const) {
              if (!Number.isInteger(argv[flag]) || argv[flag] < 0) throw new Error(`--${flag} must be a whole number, 0 or more`);
            }
            if (parseDuration(argv['event-ttl']) <= 0) throw new Error(`--event-ttl must be positive, got ${argv['event-ttl']}`);
            // kube-apiserver's checks, in its words.
            for (const flag of ['identity-lease-duration-seconds', 'identity-lease-renew-interval-seconds'] as const) {
              if (!Number.isInteger(argv[flag]) || argv[flag] <= 0) throw new Error(`--${flag} should be a positive number, but value '${argv[flag]}' provided`);
            }
            parseStorageClusterFlags(argv['storage-cluster']);
            const prefix = argv['etcd-prefix'];
            if (prefix !== '' && !ETCD_PREFIX.test(prefix)) throw new Error(`--etcd-prefix must start with / and not end with one, got ${JSON.stringify(prefix)}`);
            return true;
          })
      ),
    async (argv) => {
      const dataDir = argv['data-dir'];
      await serve({
        securePort: argv['secure-port'],
        bindAddress: argv['bind-address'],
        http2: { enabled: !argv['disable-http2-serving'], maxStreamsPerConnection: argv['http2-max-streams-per-connection'] },
        etcdServers: commaList(argv['etcd-servers']),
        etcdTls: { caFile: argv['etcd-cafile'], certFile: argv['etcd-certfile'], keyFile: argv['etcd-keyfile'] },
        etcdPrefix: argv['etcd-prefix'],
        storageClusters: parseStorageClusterFlags(argv['storage-cluster']),
        tokenAuthFile: argv['token-auth-file'] ?? join(dataDir, 'tokens.csv'),
        revokedCredentialsFile: argv['revoked-credentials-file'] ?? revokedCredentialsPath(dataDir),
        servingFiles: argv['tls-cert-file'] !== undefined ? { certFile: argv['tls-cert-file'], keyFile: argv['tls-private-key-file']! } : undefined,
        clientCaFile: argv['client-ca-file'],
        serviceAccountKeyFile: argv['service-account-key-file'],
        audit:
          argv['audit-policy-file'] !== undefined
            ? {
                policyFile: argv['audit-policy-file'],
                logPath: argv['audit-log-path']!,
                maxSizeMb: argv['audit-log-maxsize'],
                maxBackups: argv['audit-log-maxbackup'],
                maxAgeDays: argv['audit-log-maxage'],
              }
            : undefined,
        logLevel: argv['log-level'] ?? levelOfVerbosity(argv.v),
        dataDir,
        tlsSans: commaList(argv['tls-san']),
        serviceClusterIpRange: argv['service-cluster-ip-range'],
        controllers: argv.controllers,
        podSecurityExemptions: {
          namespaces: commaList(argv['pod-security-exempt-namespaces']),
          usernames: commaList(argv['pod-security-exempt-usernames']),
          runtimeClasses: commaList(argv['pod-security-exempt-runtime-classes']),
        },
        nodeSimulator: argv['simulate-nodes'] > 0 ? simulatorSettings(argv, argv['simulate-nodes']) : undefined,
        terminatedPodGcThreshold: argv['terminated-pod-gc-threshold'],
        eventTtlMs: parseDuration(argv['event-ttl']),
        leaderElection: { enabled: argv['leader-elect'], timing: leaderElectionTiming(argv) },
        identityLease: { durationSeconds: argv['identity-lease-duration-seconds'], renewIntervalSeconds: argv['identity-lease-renew-interval-seconds'] },
        inflight: { maxRequestsInflight: argv['max-requests-inflight'], maxMutatingRequestsInflight: argv['max-mutating-requests-inflight'] },
      });
    },
  )
  .command(
    'controllers',
    'Run the controller manager against a kube-spaces server, leader-elected on a Lease in the system space',
    (y) =>
      withEnvironment(
        leaderElectionFlags(y)
          .option('kubeconfig', { type: 'string', demandOption: true, describe: 'Kubeconfig of a system user who may impersonate the controllers\' users' })
          .option('context', { type: 'string', describe: 'Context of the kubeconfig (default: its current context)' })
          .option('terminated-pod-gc-threshold', GC_THRESHOLD_FLAG)
          .option('cluster-signing-cert-file', { type: 'string', describe: "The client CA certificate that signs approved CertificateSigningRequests (the server's <data-dir>/client-ca.crt)" })
          .option('cluster-signing-key-file', { type: 'string', describe: 'The private key of --cluster-signing-cert-file' })
          .check((argv) => {
            if ((argv['cluster-signing-cert-file'] === undefined) !== (argv['cluster-signing-key-file'] === undefined)) throw new Error('--cluster-signing-cert-file and --cluster-signing-key-file go together');
            return true;
          })
      ),
    async (argv) => {
      await runControllers({
        kubeconfig: argv.kubeconfig,
        context: argv.context,
        terminatedPodGcThreshold: argv['terminated-pod-gc-threshold'],
        clusterSigning: argv['cluster-signing-cert-file'] !== undefined ? { cert: argv['cluster-signing-cert-file'], key: argv['cluster-signing-key-file']! } : undefined,
        timing: leaderElectionTiming(argv),
      });
    },
  )
  .command(
    'simulate-nodes',
    'Run the node simulator against a kube-spaces server: simulated nodes with heartbeats, and pods placed on them reported Running (no kubelet, nothing runs)',
    (y) =>
      simulatorFlags(y)
        .option('kubeconfig', { type: 'string', demandOption: true, describe: 'Kubeconfig of a system admin, or of the user system:node-simulator' })
        .option('context', { type: 'string', describe: 'Context of the kubeconfig (default: its current context)' })
        .option('nodes', { type: 'number', default: DEFAULT_NODE_SIMULATOR_SETTINGS.nodes, describe: 'How many nodes to simulate' })
        .check((argv) => {
          checkNodeCount('nodes', argv.nodes, 1);
          return true;
        }),
    async (argv) => {
      await runNodeSimulator({ kubeconfig: argv.kubeconfig, context: argv.context, settings: simulatorSettings(argv, argv.nodes) });
    },
  )
  .command(
    'kubeconfig',
    'Print a kubeconfig for a tenant user: a client certificate signed by the client CA, or with --token a new row in the token file',
    (y) =>
      withEnvironment(
        y
          .option('data-dir', { type: 'string', default: './.kube-spaces', describe: 'The server\'s data directory (CAs and token file)' })
          .option('tenant', { type: 'string', demandOption: true, describe: 'The tenant the user belongs to' })
          .option('user', { type: 'string', demandOption: true, describe: 'The user name' })
          .option('group', { type: 'string', array: true, describe: 'Groups of the user (repeatable)' })
          .option('server', { type: 'string', describe: 'Server URL (default: the admin kubeconfig\'s)' })
          .option('token', { type: 'boolean', default: false, describe: 'Issue a bearer token in the token file instead of a client certificate' })
          .option('token-auth-file', { type: 'string', describe: 'Token file for --token (default <data-dir>/tokens.csv)' })
          .option('space', { type: 'string', describe: 'System users only: address this space, or all, via /tenants/<space> (a tenant user always addresses its own)' })
          .check((argv) => {
            if (argv['token-auth-file'] !== undefined && !argv.token) throw new Error('--token-auth-file goes with --token');
            return true;
          })
      ),
    async (argv) => {
      const kubeconfig = await issueUserKubeconfig({
        dataDir: argv['data-dir'],
        tenant: argv.tenant,
        user: argv.user,
        groups: commaList(argv.group),
        credential: argv.token ? 'token' : 'certificate',
        server: argv.server,
        tokenFile: argv['token-auth-file'],
        space: argv.space,
      });
      process.stdout.write(kubeconfig);
    },
  )
  .command(
    'credentials <action> [ids..]',
    'List the credentials issued from the data directory, or revoke some (by id from the list, or every one of --user of --tenant)',
    (y) =>
      withEnvironment(
        y
          .positional('action', { type: 'string', choices: ['list', 'revoke'] as const, demandOption: true })
          .positional('ids', { type: 'string', array: true, describe: 'Certificate serials or token digests to revoke, as list shows them' })
          .option('data-dir', { type: 'string', default: './.kube-spaces', describe: "The server's data directory (its issued-credentials log)" })
          .option('revoked-credentials-file', { type: 'string', describe: 'The denylist the server reads (default <data-dir>/revoked.csv)' })
          .option('tenant', { type: 'string', describe: 'With --user: the tenant of the user whose credentials are revoked' })
          .option('user', { type: 'string', describe: 'Revoke every credential issued to this user of --tenant' })
          .check((argv) => {
            if ((argv.user === undefined) !== (argv.tenant === undefined)) throw new Error('--user and --tenant go together');
            if (argv.action === 'revoke' && (argv.ids ?? []).length === 0 && argv.user === undefined) throw new Error('revoke needs ids, or --user and --tenant');
            if (argv.action === 'list' && ((argv.ids ?? []).length > 0 || argv.user !== undefined)) throw new Error('list takes no ids, --user or --tenant');
            return true;
          })
      ),
    async (argv) => {
      const dataDir = argv['data-dir'];
      const revokedFile = argv['revoked-credentials-file'] ?? revokedCredentialsPath(dataDir);
      if (argv.action === 'list') {
        process.stdout.write(await listCredentials(dataDir, revokedFile));
        return;
      }
      const revoked = await revokeCredentials(dataDir, revokedFile, { ids: argv.ids ?? [], user: argv.user, tenant: argv.tenant });
      for (const r of revoked) process.stdout.write(`${r.kind} ${r.id} revoked\n`);
    },
  )
  .demandCommand(1, 'Name a command, e.g. `kube-spaces serve`.')
  .strict()
  .help()
  // Only usage errors land here: `serve` reports its own failures through the logger.
  .fail((message, err, y) => {
    y.showHelp();
    console.error(`\n${message ?? err.message}`);
    process.exit(1);
  })
  .parseAsync();
