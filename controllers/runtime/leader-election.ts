/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection package: a
 * candidate takes the lease when it is free or has expired, the leader renews it every retry
 * period, and a leader that cannot renew within the renew deadline stops leading. Expiry is judged
 * on this process's own monotonic clock, from when it last saw the lease record change, never from
 * the timestamps another holder wrote: machines' clocks disagree, and a paused holder's renewTime
 * says nothing about now. On clean shutdown the leader releases the lease (empty holder), so a
 * standby takes over at its next try instead of after a lease duration.
 *
 * @example
 *   const elector = new LeaderElector({
 *     leases: client.space('system').namespace('kube-system').resource(leases),
 *     name: 'kube-spaces-controller-manager', identity: `${hostname()}_${randomUUID()}`,
 *     onStartedLeading: (signal) => manager.run(signal), onStoppedLeading: () => process.exit(1), log,
 *   });
 *   await elector.run(shutdownSignal);
 */
import { microTime } from '../../api/registry/timestamp.js';
import { performance } from 'node:perf_hooks';
import type { Lease } from '../../api/kinds/coordination/lease.js';
import { isConflict, isNotFound, isAlreadyExists } from '../../src/client/api-status.js';
import type { ResourceClient } from '../../src/client/resource-client.js';
import { sleep } from '../../src/client/sleep.js';

export interface LeaderElectionTiming {
  /** How long a standby waits, after it last saw the record change, before taking the lease (client-go: 15 s). */
  leaseDurationMs: number;
  /** How long the leader keeps retrying a failed renewal before it stops leading (client-go: 10 s). */
  renewDeadlineMs: number;
  /** Time between tries, to acquire or to renew (client-go: 2 s). */
  retryPeriodMs: number;
}

export const DEFAULT_LEADER_ELECTION_TIMING: Readonly<LeaderElectionTiming> = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** client-go's JitterFactor: a try to acquire waits a retry period plus up to 1.2 of it, so candidates spread out. */
const JITTER_FACTOR = 1.2;

export interface LeaderElectionConfig {
  /** Lease client of the namespace the lease lives in. */
  leases: ResourceClient<Lease>;
  /** The lease's name. */
  name: string;
  /** This candidate, unique among candidates (host name and a random suffix). */
  identity: string;
  timing?: LeaderElectionTiming;
  /** Runs when this candidate becomes leader; `signal` aborts when it stops leading. */
  onStartedLeading(signal: AbortSignal): void;
  /** Runs once `run` ends, whether this candidate led or not. */
  onStoppedLeading(): void;
  /** Another (or this) candidate was seen holding the lease. */
  onNewLeader?(identity: string): void;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** client-go's NewLeaderElector checks, in its words; throws on timings that could elect two leaders. */
export function checkLeaderElectionTiming({ leaseDurationMs, renewDeadlineMs, retryPeriodMs }: LeaderElectionTiming): void {
  if (!(retryPeriodMs > 0)) throw new Error('retryPeriod must be greater than zero');
  if (!(leaseDurationMs > renewDeadlineMs)) throw new Error('leaseDuration must be greater than renewDeadline');
  if (!(renewDeadlineMs > JITTER_FACTOR * retryPeriodMs)) throw new Error(`renewDeadline must be greater than retryPeriod*${JITTER_FACTOR}`);
}

/** The part of a Lease's spec that is the election record: what changing means. */
type ElectionRecord = Required<Pick<NonNullable<Lease['spec']>, 'holderIdentity' | 'leaseDurationSeconds' | 'acquireTime' | 'renewTime' | 'leaseTransitions'>>;

export class LeaderElector {
  private readonly timing: LeaderElectionTiming;
  private observedRecord: ElectionRecord | undefined;
  /** performance.now() when the observed record last changed. */
  private observedAt = 0;
  private observedLease: Lease | undefined;
  private reportedLeader = '';

  constructor(private readonly config: LeaderElectionConfig) {
    this.timing = config.timing ?? DEFAULT_LEADER_ELECTION_TIMING;
    checkLeaderElectionTiming(this.timing);
    if (config.identity === '') throw new Error('a candidate needs an identity');
  }

  /** Who holds the lease as last seen ('' for nobody). */
  leader(): string {
    return this.observedRecord?.holderIdentity ?? '';
  }

  isLeader(): boolean {
    return this.leader() === this.config.identity;
  }

  /** Campaigns until leader, leads until the lease is lost or `signal` aborts, then releases it if held. */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.acquire(signal))) return;
      const leading = new AbortController();
      this.config.onStartedLeading(leading.signal);
      await this.renew(signal);
      leading.abort();
      await this.release();
    } finally {
      this.config.onStoppedLeading();
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    this.config.log.info({ lease: this.config.name }, 'attempting to acquire leader lease');
    while (!signal.aborted) {
      const acquired = await this.tryAcquireOrRenew();
      this.reportTransition();
      if (acquired) {
        this.config.log.info({ lease: this.config.name, identity: this.config.identity }, 'acquired leader lease');
        return true;
      }
      await sleep(this.timing.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR), signal);
    }
    return false;
  }

  /** Renews every retry period; answers when a renewal failed for a whole renew deadline, or on abort. */
  private async renew(signal: AbortSignal): Promise<void> {
    const { renewDeadlineMs, retryPeriodMs } = this.timing;
    while (!signal.aborted) {
      const deadline = performance.now() + renewDeadlineMs;
      let renewed = false;
      while (!renewed && !signal.aborted && performance.now() < deadline) {
        // A request that hangs counts against the deadline like one that fails.
        renewed = await withTimeout(this.tryAcquireOrRenew(), deadline - performance.now());
        if (!renewed) await sleep(Math.min(retryPeriodMs, Math.max(0, deadline - performance.now())), signal);
      }
      this.reportTransition();
      if (signal.aborted) return;
      if (!renewed) {
        this.config.log.error({ lease: this.config.name, identity: this.config.identity }, 'failed to renew leader lease within the renew deadline: stopped leading');
        return;
      }
      await sleep(retryPeriodMs, signal);
    }
  }

  /** Gives the lease up (empty holder, 1 s duration), so a standby takes it at its next try. */
  private async release(): Promise<void> {
    if (!this.isLeader() || this.observedLease === undefined) return;
    const now = microTime();
    const record: ElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: this.observedRecord!.leaseTransitions };
    try {
      this.observe(await this.config.leases.update({ ...this.observedLease, spec: { ...this.observedLease.spec, ...record } }));
      this.config.log.info({ lease: this.config.name }, 'released leader lease');
    } catch (err) {
      this.config.log.error({ err, lease: this.config.name }, 'failed to release leader lease');
    }
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = microTime();
    const record: ElectionRecord = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.timing.leaseDurationMs / 1000)),
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    };
    let current: Lease;
    try {
      current = await this.config.leases.get(this.config.name);
    } catch (err) {
      if (!isNotFound(err)) return this.failed(err, 'reading the leader lease');
      try {
        this.observe(await this.config.leases.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.config.name }, spec: record }));
        return true;
      } catch (createErr) {
        return isAlreadyExists(createErr) ? false : this.failed(createErr, 'creating the leader lease');
      }
    }

    const old = recordOf(current);
    this.observe(current);
    if (old.holderIdentity !== '' && this.observedAt + this.timing.leaseDurationMs > performance.now() && !this.isLeader()) return false;

    if (this.isLeader()) {
      record.acquireTime = old.acquireTime;
      record.leaseTransitions = old.leaseTransitions;
    } else {
      record.leaseTransitions = old.leaseTransitions + 1;
    }
    try {
      // The read's resourceVersion makes the write conditional: two candidates never both win.
      this.observe(await this.config.leases.update({ ...current, spec: { ...current.spec, ...record } }));
      return true;
    } catch (err) {
      return isConflict(err) ? false : this.failed(err, 'updating the leader lease');
    }
  }

  /** Takes in the lease as read or written; the clock restarts only when its record changed. */
  private observe(lease: Lease): void {
    const record = recordOf(lease);
    this.observedLease = lease;
    if (this.observedRecord === undefined || !sameRecord(this.observedRecord, record)) {
      this.observedRecord = record;
      this.observedAt = performance.now();
    }
  }

  private failed(err: unknown, doing: string): false {
    this.config.log.error({ err, lease: this.config.name }, `leader election: ${doing} failed`);
    return false;
  }

  private reportTransition(): void {
    const leader = this.leader();
    if (leader === this.reportedLeader) return;
    this.reportedLeader = leader;
    if (leader !== '') this.config.onNewLeader?.(leader);
  }
}

function recordOf(lease: Lease): ElectionRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: spec.acquireTime ?? '',
    renewTime: spec.renewTime ?? '',
    leaseTransitions: spec.leaseTransitions ?? 0,
  };
}

function sameRecord(a: ElectionRecord, b: ElectionRecord): boolean {
  return (Object.keys(a) as Array<keyof ElectionRecord>).every((field) => a[field] === b[field]);
}

async function withTimeout(attempt: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
