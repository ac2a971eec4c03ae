/**
 * The etcd backend of `Store` (DESIGN.md section 6), on the etcd3 client: the production store,
 * shared by every apiserver replica.
 *
 * - Writes are single transactions that carry their own precondition (create: createRevision 0;
 *   update and guarded delete: modRevision equal to the expected one) and, when it fails, read the
 *   key in the same round trip to tell NotFound from Conflict.
 * - Reads are linearizable. Listings read every page at one revision: the first page's, carried
 *   in the shared continue token.
 * - Calls run once: etcd3 would retry failures three times, and a retried conditional write whose
 *   first attempt committed unseen would report AlreadyExists or Conflict for a write that in fact
 *   succeeded. A failed call is Unavailable and the caller decides.
 *
 * Operations note: etcd 3.4.23 runs reads and transactions 2–5× slower after a bulk delete (a
 * namespace or space teardown) until the next compaction. Compact periodically and after large
 * deletions; `compact()` waits for the physical compaction, so the store is back to full speed
 * when it returns.
 *
 * @example
 *   const store = await openEtcdStore(['http://127.0.0.1:2379']);
 *   const kv = await store.create(objectKey(configMaps, { tenant: 't1', namespace: 'ns1', name: 'cm' }), json);
 *   await store.close();
 */
import {
  CompareResult,
  CompareTarget,
  Etcd3,
  isRecoverableError,
  type CallContext,
  type ICompare,
  type IKeyValue,
  type IOptions,
  type IRangeResponse,
  type IResponseOp,
} from 'etcd3';
import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';
import { decodeContinue, encodeContinue } from '../continue-token.js';
import { StorageError } from '../errors.js';
import type {
  GetOptions,
  GetResult,
  KeyValue,
  ListOptions,
  ListResult,
  Store,
  StoreWatch,
  WatchHandler,
  WatchOptions,
} from '../store.js';
import { isCompactedError, isFutureRevisionError, isResponseTooLargeError, toStorageError, toWriteError } from './errors.js';
import { EtcdWatch, type EtcdWatchDeps, type EtcdWatchOptions } from './etcd-watch.js';
import { WatchFeed } from './watch-feed.js';
import { Keyspace } from './keyspace.js';

/** PEM files for TLS to etcd; any may be absent (a client certificate needs both cert and key). */
export interface EtcdTlsFiles {
  /** The CA that signed etcd's serving certificate; default: the system's roots. */
  caFile?: string;
  /** A client certificate, for an etcd started with `--client-cert-auth`. */
  certFile?: string;
  keyFile?: string;
}

export interface EtcdStoreOptions {
  /**
   * A root put in front of every key (`--etcd-prefix`, a unique one per test run); empty by default.
   * Several servers (or test runs) share one etcd under different prefixes without seeing each other.
   */
  prefix?: string;
  tls?: EtcdTlsFiles;
}

/** etcd3's credentials from the PEM files; undefined without TLS files (plain `http://` endpoints). */
async function etcdCredentials(tls: EtcdTlsFiles | undefined): Promise<IOptions['credentials']> {
  // Without files, etcd3 still speaks TLS (with the system's roots) to `https://` endpoints.
  if (tls === undefined || (tls.caFile === undefined && tls.certFile === undefined && tls.keyFile === undefined)) return undefined;
  if ((tls.certFile === undefined) !== (tls.keyFile === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile go together');
  const read = (file: string | undefined) => (file === undefined ? undefined : readFile(file));
  const [rootCertificate, certChain, privateKey] = await Promise.all([read(tls.caFile), read(tls.certFile), read(tls.keyFile)]);
  return { rootCertificate: rootCertificate ?? Buffer.from(rootCertificates.join('\n')), certChain, privateKey };
}

/** etcd3's default receive limit (4 MiB) fails large ranges; pages stay far below this one. */
const MAX_RECEIVE_BYTES = 256 * 1024 * 1024;
/** Keys per range call when a listing asks for more; halved while a page exceeds the limit above. */
const RANGE_PAGE = 10_000;
/** A bound on every unary call, so a hung etcd cannot hold a request forever. */
const CALL_TIMEOUT_MS = 30_000;
const COMPACT_TIMEOUT_MS = 10 * 60_000;

type FaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

const NEVER_ABORTED = new AbortController().signal;

/** Runs each call exactly once (see the module comment); etcd3 only ever calls `execute`. */
const RUN_ONCE: FaultPolicy = {
  _altReturn: undefined as never,
  onSuccess: () => ({ dispose: () => undefined }),
  onFailure: () => ({ dispose: () => undefined }),
  execute: async (fn, signal) => fn({ signal: signal ?? NEVER_ABORTED }),
};

/** A member that failed this many calls in a row is skipped for MEMBER_SKIP_MS. */
const MEMBER_FAILURES_TO_SKIP = 3;
/**
 * How long a failing member is skipped. etcd3's own breaker skips it for 5 s; but while etcd
 * elects a leader every member fails a few calls ("leader changed", "no leader"), so all of them
 * were skipped at once and the store answered nothing for 5 s after each election. A second keeps
 * calls off a dead member most of the time and bounds that outage to a second.
 */
const MEMBER_SKIP_MS = 1_000;

/**
 * Per member of a several-member cluster: runs each call once, and skips the member (the pool
 * then tries the next one) for a moment after consecutive failures that say it cannot serve.
 */
function memberBreaker(): FaultPolicy {
  let failures = 0;
  let skipUntil = 0;
  return {
    ...RUN_ONCE,
    async execute(fn, signal) {
      if (performance.now() < skipUntil) throw new Error(`etcd member skipped for ${MEMBER_SKIP_MS} ms after ${MEMBER_FAILURES_TO_SKIP} failed calls`);
      try {
        const result = await fn({ signal: signal ?? NEVER_ABORTED });
        failures = 0;
        return result;
      } catch (err) {
        if (err instanceof Error && isRecoverableError(err) && ++failures >= MEMBER_FAILURES_TO_SKIP) {
          failures = 0;
          skipUntil = performance.now() + MEMBER_SKIP_MS;
        }
        throw err;
      }
    },
  };
}

/**
 * Connects to etcd and checks it answers (Unavailable otherwise).
 *
 * @example
 *   const store = await openEtcdStore([etcd.endpoint], { prefix: `/test-${randomUUID()}` });
 */
export async function openEtcdStore(endpoints: readonly string[], opts: EtcdStoreOptions = {}): Promise<Store> {
  const client = new Etcd3({
    hosts: [...endpoints],
    credentials: await etcdCredentials(opts.tls),
    grpcOptions: {
      'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
      // Notice a dead connection under a quiet watch (etcd allows pings every 5 s or more).
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
    },
    // Skipping a failing member only helps when another can take the call; with one endpoint it
    // would just keep the store down after etcd is back.
    faultHandling: { global: RUN_ONCE, host: () => (endpoints.length === 1 ? RUN_ONCE : memberBreaker()) },
    defaultCallOptions: (context: CallContext) => (context.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS }),
  });
  const store = new EtcdStore(client, new Keyspace(opts.prefix));
  try {
    await store.ping();
    store.orderedProgress = orderedProgressIn((await client.maintenance.status()).version);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/**
 * Whether this etcd version answers a watch's progress request in order with its events (the fix
 * of etcd-io/etcd#15220: 3.4.31, 3.5.13, 3.6). Checked on the member that answers at start; the
 * members of a cluster are expected to run one version.
 */
export function orderedProgressIn(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

class EtcdStore implements Store {
  readonly backend = 'etcd';
  orderedProgress = false;
  private readonly watches = new Set<EtcdWatch>();
  private readonly watchDeps: EtcdWatchDeps;
  /** Every key of the store from one etcd watch (watch-feed.ts). */
  private readonly feed = new WatchFeed((since, handler) => this.startWatch('/', since, handler, { everyKey: true }));
  /**
   * etcd does not expose its compacted revision. This is the highest one this store knows of
   * (its own compactions, and those etcd reports when it cancels a watch): a lower bound that
   * `compactedRevision()` refines, and the revision TooOld errors report.
   */
  private knownCompacted = 0;
  private closed = false;
  /** Any key will do for `probe()`; this one lies under the store's root. */
  private readonly probeKey: Buffer;

  constructor(
    private readonly client: Etcd3,
    private readonly keyspace: Keyspace,
  ) {
    this.probeKey = keyspace.key('/');
    this.watchDeps = {
      watchClient: client.watchClient,
      keyspace,
      learnCompactedRevision: (revision) => this.learnCompacted(revision),
      forget: (watch) => this.watches.delete(watch),
      orderedProgress: () => this.orderedProgress,
    };
  }

  async get(key: string, opts: GetOptions = {}): Promise<GetResult> {
    const res = await this.call(key, () => this.client.kv.range({ key: this.keyspace.key(key), revision: opts.revision ?? 0 }));
    const kv = res.kvs[0];
    return { kv: kv ? this.toKeyValue(kv) : null, revision: opts.revision || Number(res.header.revision) };
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    let revision = opts.revision ?? 0;
    let from = this.keyspace.key(prefix);
    if (opts.continue !== undefined) {
      const state = decodeContinue(prefix, opts.continue);
      revision = state.rev;
      from = this.keyspace.keyAfter(state.after);
    }
    const end = this.keyspace.prefixEnd(prefix);
    const limit = opts.limit ?? 0;
    const items: KeyValue[] = [];
    let total: number | undefined;
    let pageSize = RANGE_PAGE;
    for (;;) {
      const want = limit > 0 ? Math.min(pageSize, limit - items.length) : pageSize;
      let res: IRangeResponse;
      try {
        res = await this.client.kv.range({ key: from, range_end: end, revision, limit: want });
      } catch (err) {
        if (isResponseTooLargeError(err) && want > 1) {
          pageSize = Math.ceil(want / 2);
          continue;
        }
        throw toStorageError(err, prefix, this.knownCompacted);
      }
      revision ||= Number(res.header.revision); // later pages read at the first page's revision
      total ??= Number(res.count); // every key from the listing's start, ignoring the limit
      for (const kv of res.kvs) items.push(this.toKeyValue(kv));
      if (!res.more || items.length === limit) break;
      from = this.keyspace.keyAfter(items.at(-1)!.key);
    }
    const remaining = total - items.length;
    const result: ListResult = { items, revision, remaining };
    if (remaining > 0) result.continue = encodeContinue({ rev: revision, after: items.at(-1)!.key });
    return result;
  }

  async create(key: string, value: string): Promise<KeyValue> {
    const etcdKey = this.keyspace.key(key);
    const res = await this.callWrite(key, () =>
      this.client.kv.txn({
        compare: [createRevisionIs(etcdKey, CompareResult.Equal, 0)],
        success: [{ request_put: { key: etcdKey, value: Buffer.from(value) } }],
      }),
    );
    if (!res.succeeded) throw new StorageError('AlreadyExists', key, `${key} already exists`);
    const revision = Number(res.header.revision);
    return { key, value, createRevision: revision, modRevision: revision };
  }

  async update(key: string, value: string, expectedRevision: number): Promise<KeyValue> {
    const etcdKey = this.keyspace.key(key);
    const res = await this.callWrite(key, () =>
      this.client.kv.txn({
        compare: expectRevision(etcdKey, expectedRevision),
        // The range (keys only: no value sent back) yields createRevision, unchanged by the put.
        success: [{ request_range: { key: etcdKey, keys_only: true } }, { request_put: { key: etcdKey, value: Buffer.from(value) } }],
        failure: [{ request_range: { key: etcdKey, keys_only: true } }],
      }),
    );
    if (!res.succeeded) throw preconditionFailed(key, expectedRevision, res.responses[0]);
    const createRevision = Number(res.responses[0]!.response_range.kvs[0]!.create_revision);
    return { key, value, createRevision, modRevision: Number(res.header.revision) };
  }

  async delete(key: string, expectedRevision?: number): Promise<KeyValue> {
    const etcdKey = this.keyspace.key(key);
    let deleted: IKeyValue | undefined;
    let revision: number;
    if (expectedRevision === undefined) {
      const res = await this.callWrite(key, () => this.client.kv.deleteRange({ key: etcdKey, prev_kv: true }));
      deleted = res.prev_kvs[0];
      revision = Number(res.header.revision);
    } else {
      const res = await this.callWrite(key, () =>
        this.client.kv.txn({
          compare: expectRevision(etcdKey, expectedRevision),
          success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
          failure: [{ request_range: { key: etcdKey, keys_only: true } }],
        }),
      );
      if (!res.succeeded) throw preconditionFailed(key, expectedRevision, res.responses[0]);
      deleted = res.responses[0]!.response_delete_range.prev_kvs[0];
      revision = Number(res.header.revision);
    }
    if (deleted === undefined) throw new StorageError('NotFound', key, `${key} not found`);
    return { ...this.toKeyValue(deleted), modRevision: revision };
  }

  /** A watch from a known revision comes from the shared feed when it still holds that revision's successors. */
  async watch(prefix: string, opts: WatchOptions, handler: WatchHandler): Promise<StoreWatch> {
    if (this.closed) throw new StorageError('Unavailable', prefix, 'the etcd store is closed');
    if (opts.sinceRevision !== undefined) {
      await this.checkWatchableFrom(prefix, opts.sinceRevision);
      const fromFeed = await this.feed.subscribe(prefix, opts.sinceRevision, handler);
      if (fromFeed) return fromFeed;
    }
    return this.startWatch(prefix, opts.sinceRevision, handler);
  }

  private async startWatch(prefix: string, sinceRevision: number | undefined, handler: WatchHandler, options?: EtcdWatchOptions): Promise<EtcdWatch> {
    if (this.closed) throw new StorageError('Unavailable', prefix, 'the etcd store is closed');
    const watch = new EtcdWatch(this.watchDeps, prefix, sinceRevision, handler, options);
    this.watches.add(watch);
    await watch.start();
    return watch;
  }

  /**
   * etcd accepts a watch from a compacted revision and cancels it a moment later, but a read at
   * that revision fails at once: so watch() can reject with TooOld rather than resolve and fail.
   * (Compacted exactly when `sinceRevision` is below etcd's compacted revision, like the read.)
   */
  private async checkWatchableFrom(prefix: string, sinceRevision: number): Promise<void> {
    try {
      await this.probe(Math.max(sinceRevision, 1));
    } catch (err) {
      if (isFutureRevisionError(err)) return; // a watch from a future revision simply waits for it
      throw toStorageError(err, prefix, this.knownCompacted);
    }
  }

  async currentRevision(): Promise<number> {
    const res = await this.call('', () => this.probe());
    return Number(res.header.revision);
  }

  /**
   * A linearizable, count-only read of one key: the cheapest call that reports the store's
   * revision in its header, and fails when `revision` (0: the latest) was compacted.
   */
  private probe(revision = 0): Promise<IRangeResponse> {
    return this.client.kv.range({ key: this.probeKey, revision, count_only: true });
  }

  /**
   * etcd keeps no readable record of its compaction point, but a read at revision r fails exactly
   * when r is below it. One read confirms the best known value; if another client compacted
   * further, a binary search up to the current revision finds the new one (about log2 of the
   * distance in single-key reads). A store compacted at revision 1 reads like one never
   * compacted, and both answer 0.
   */
  async compactedRevision(): Promise<number> {
    let oldest = Math.max(this.knownCompacted, 1);
    if (!(await this.readableAt(oldest))) {
      let newest = await this.currentRevision(); // always readable
      oldest += 1;
      while (oldest < newest) {
        const mid = Math.floor((oldest + newest) / 2);
        if (await this.readableAt(mid)) newest = mid;
        else oldest = mid + 1;
      }
      this.learnCompacted(oldest);
    }
    return oldest === 1 ? 0 : oldest;
  }

  private async readableAt(revision: number): Promise<boolean> {
    try {
      await this.probe(revision);
      return true;
    } catch (err) {
      if (isCompactedError(err)) return false;
      throw toStorageError(err, '', this.knownCompacted);
    }
  }

  async compact(revision: number): Promise<void> {
    try {
      // physical: return only once etcd has also dropped the old revisions from disk, which on a
      // large database takes longer than other calls may.
      await this.client.kv.compact({ revision, physical: true }, { deadline: Date.now() + COMPACT_TIMEOUT_MS });
    } catch (err) {
      // Already compacted at or past `revision`: there is nothing left to drop.
      if (!isCompactedError(err)) throw toStorageError(err, '', this.knownCompacted);
    }
    this.learnCompacted(revision);
  }

  async ping(): Promise<void> {
    await this.currentRevision();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.feed.fail(new StorageError('Unavailable', '/', 'the etcd store was closed'));
    for (const watch of [...this.watches]) {
      watch.fail(new StorageError('Unavailable', watch.prefix, 'the etcd store was closed'));
    }
    this.client.close();
  }

  private learnCompacted(revision: number): void {
    this.knownCompacted = Math.max(this.knownCompacted, revision);
  }

  private async call<T>(key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw toStorageError(err, key, this.knownCompacted);
    }
  }

  /** As `call`, for a write: a reply lost after sending may hide an applied write (OutcomeUnknown). */
  private async callWrite<T>(key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw toWriteError(err, key, this.knownCompacted);
    }
  }

  private toKeyValue(kv: IKeyValue): KeyValue {
    return {
      key: this.keyspace.strip(kv.key),
      value: kv.value.toString(),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
    };
  }
}

function createRevisionIs(key: Buffer, result: CompareResult, revision: number): ICompare {
  return { key, target: CompareTarget.Create, result, create_revision: revision };
}

/**
 * The key lives and its modRevision is `expected`. The liveness check matters for `expected` 0,
 * which an absent key's modRevision would otherwise match.
 */
function expectRevision(key: Buffer, expected: number): ICompare[] {
  return [
    { key, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expected },
    createRevisionIs(key, CompareResult.Greater, 0),
  ];
}

/** NotFound or Conflict, from the failed transaction's read of the key. */
function preconditionFailed(key: string, expected: number, read: IResponseOp | undefined): StorageError {
  const current = read?.response_range.kvs[0];
  if (current === undefined) return new StorageError('NotFound', key, `${key} not found`);
  const revision = Number(current.mod_revision);
  return new StorageError('Conflict', key, `${key} is at revision ${revision}, not ${expected}`, revision);
}
