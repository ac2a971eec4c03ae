/**
 * Leader election (controllers/runtime/leader-election.ts) against the built server on both
 * backends, with short timings: one of two candidates leads and the Lease names it; a clean
 * shutdown releases the lease; a standby takes a lease whose holder stopped renewing after one
 * lease duration of its own clock, whatever times the holder wrote; a leader whose lease is taken
 * stops leading within the renew deadline.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LeaderElector, type LeaderElectionTiming } from '../controllers/runtime/leader-election.js';
import { KubeClient, leases, type Lease, type ResourceClient } from '../src/client/index.js';
import { backendCases, startCluster, type TestCluster } from './harness/cluster.js';

const TIMING: LeaderElectionTiming = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
const quiet = { info: () => undefined, error: () => undefined };

interface Candidate {
  elector: LeaderElector;
  /** Aborts the candidate's run (a clean shutdown). */
  shutdown: AbortController;
  /** Whether it leads now, by its own callbacks. */
  leading(): boolean;
  stoppedLeading(): boolean;
  done: Promise<void>;
}

function candidate(leaseClient: ResourceClient<Lease>, name: string, identity: string): Candidate {
  let leading: AbortSignal | undefined;
  let stopped = false;
  const shutdown = new AbortController();
  const elector = new LeaderElector({
    leases: leaseClient,
    name,
    identity,
    timing: TIMING,
    onStartedLeading: (signal) => (leading = signal),
    onStoppedLeading: () => (stopped = true),
    log: quiet,
  });
  const done = elector.run(shutdown.signal);
  return { elector, shutdown, leading: () => leading !== undefined && !leading.aborted, stoppedLeading: () => stopped, done };
}

describe.each(backendCases())('leader election on the $backend backend', ({ backend, skip }) => {
  describe.skipIf(skip)('against the built server', () => {
    let cluster: TestCluster;
    let admin: KubeClient;
    let leaseClient: ResourceClient<Lease>;
    const started: Candidate[] = [];
    const start = (name: string, identity: string): Candidate => {
      const c = candidate(leaseClient, name, identity);
      started.push(c);
      return c;
    };

    beforeAll(async () => {
      cluster = await startCluster(backend);
      admin = await KubeClient.fromKubeconfig({ path: cluster.server.adminKubeconfig });
      leaseClient = admin.space('system').namespace('kube-system').resource(leases);
    });
    afterAll(async () => {
      for (const c of started) c.shutdown.abort();
      await Promise.all(started.map((c) => c.done));
      admin?.close();
      await cluster?.cleanup();
    });

    it('makes exactly one of two candidates leader, named by the Lease; a clean shutdown hands over at once', async () => {
      const a = start('two-candidates', 'a');
      const b = start('two-candidates', 'b');
      await vi.waitFor(() => expect([a.leading(), b.leading()].filter(Boolean)).toHaveLength(1), { timeout: 10_000 });
      const [leader, standby] = a.leading() ? [a, b] : [b, a];
      const lease = await leaseClient.get('two-candidates');
      expect(lease.metadata.tenant).toBe('system');
      expect(lease.spec).toMatchObject({ holderIdentity: leader.elector.leader(), leaseDurationSeconds: 3, leaseTransitions: 0 });
      // Several renewals later, still one leader.
      await new Promise((resolve) => setTimeout(resolve, 2 * TIMING.retryPeriodMs + 200));
      expect([a.leading(), b.leading()].filter(Boolean)).toHaveLength(1);
      expect(standby.elector.leader()).toBe(leader.elector.leader());

      const releasedAt = Date.now();
      leader.shutdown.abort();
      await leader.done;
      expect(leader.stoppedLeading()).toBe(true);
      await vi.waitFor(() => expect(standby.leading()).toBe(true), { timeout: 10_000 });
      // Released: taken at the standby's next try, not after a lease duration.
      expect(Date.now() - releasedAt).toBeLessThan(TIMING.leaseDurationMs);
      expect((await leaseClient.get('two-candidates')).spec).toMatchObject({ holderIdentity: standby.elector.leader(), leaseTransitions: 1 });
    });

    it('takes a lease whose holder stopped renewing after a lease duration of its own clock, whatever times the holder wrote', async () => {
      for (const [name, offsetMs] of [['renewed-in-the-future', 3_600_000], ['renewed-long-ago', -3_600_000]] as const) {
        const written = new Date(Date.now() + offsetMs).toISOString().replace('Z', '000Z');
        await leaseClient.create({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name },
          spec: { holderIdentity: 'gone', leaseDurationSeconds: 3, acquireTime: written, renewTime: written, leaseTransitions: 4 },
        });
        const startedAt = Date.now();
        const c = start(name, 'successor');
        await vi.waitFor(() => expect(c.leading()).toBe(true), { timeout: 15_000, interval: 50 });
        const waited = Date.now() - startedAt;
        expect(waited).toBeGreaterThanOrEqual(TIMING.leaseDurationMs);
        expect(waited).toBeLessThan(TIMING.leaseDurationMs + 2 * (1 + 1.2) * TIMING.retryPeriodMs + 1_000);
        expect((await leaseClient.get(name)).spec).toMatchObject({ holderIdentity: 'successor', leaseTransitions: 5 });
      }
    });

    it('stops leading within the renew deadline once another holder has the lease', async () => {
      const c = start('taken-away', 'first');
      await vi.waitFor(() => expect(c.leading()).toBe(true), { timeout: 10_000 });
      // Unconditional: the leader renews meanwhile.
      await leaseClient.patch('taken-away', 'merge', { spec: { holderIdentity: 'intruder' } });
      const takenAt = Date.now();
      await c.done;
      expect(c.stoppedLeading()).toBe(true);
      expect(c.leading()).toBe(false);
      expect(Date.now() - takenAt).toBeLessThan(TIMING.renewDeadlineMs + TIMING.retryPeriodMs + 1_000);
      // It did not release a lease it no longer holds.
      expect((await leaseClient.get('taken-away')).spec?.holderIdentity).toBe('intruder');
    });
  });
});
