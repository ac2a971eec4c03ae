import { describe, expect, it, vi } from 'vitest';
import type { Lease } from '../api/kinds/coordination/lease.js';
import { ApiError } from '../api/status.js';
import type { ResourceClient } from './client/resource-client.js';
import { startLeaderElected } from './leader-elected.js';

/** One Lease in memory, with the server's resourceVersion preconditions: enough for an elector. */
class MemoryLeases {
  lease: Lease | undefined;
  private revision = 0;

  async get(name: string): Promise<Lease> {
    if (this.lease?.metadata.name !== name) throw new ApiError(404, 'NotFound', `leases.coordination.k8s.io "${name}" not found`);
    return structuredClone(this.lease);
  }

  async create(lease: Lease): Promise<Lease> {
    if (this.lease) throw new ApiError(409, 'AlreadyExists', 'exists');
    return this.store(lease);
  }

  async update(lease: Lease): Promise<Lease> {
    if (lease.metadata.resourceVersion !== this.lease?.metadata.resourceVersion) throw new ApiError(409, 'Conflict', 'modified');
    return this.store(lease);
  }

  /** Another candidate writes itself in as holder, unconditionally. */
  takeOver(holderIdentity: string): void {
    this.store({ ...this.lease!, spec: { ...this.lease!.spec, holderIdentity } });
  }

  private store(lease: Lease): Lease {
    this.revision += 1;
    this.lease = { ...structuredClone(lease), metadata: { ...lease.metadata, resourceVersion: String(this.revision) } };
    return structuredClone(this.lease);
  }
}

const TIMING = { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 50 };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

function elected(leases: MemoryLeases) {
  const events: string[] = [];
  const handle = startLeaderElected({
    leases: leases as unknown as ResourceClient<Lease>,
    name: 'component',
    identity: 'me',
    timing: TIMING,
    start: () => {
      events.push('start');
      return { stop: async () => void events.push('stop') };
    },
    log: quiet,
  });
  return { events, handle };
}

describe('startLeaderElected', () => {
  it('starts the component while leading; stop() stops it and releases the lease', async () => {
    const leases = new MemoryLeases();
    const { events, handle } = elected(leases);
    await vi.waitFor(() => expect(events).toEqual(['start']));
    expect(leases.lease?.spec?.holderIdentity).toBe('me');
    await handle.stop();
    expect(events).toEqual(['start', 'stop']);
    expect(leases.lease?.spec?.holderIdentity).toBe('');
  });

  it('stops the component when the lease is lost, and starts a fresh one once it wins the lease again', async () => {
    const leases = new MemoryLeases();
    const { events, handle } = elected(leases);
    try {
      await vi.waitFor(() => expect(events).toEqual(['start']));
      leases.takeOver('intruder');
      // Within the renew deadline it sees it no longer holds the lease and stops the component.
      await vi.waitFor(() => expect(events).toEqual(['start', 'stop']), { timeout: 2_000, interval: 10 });
      // The intruder never renews: a lease duration later this replica takes the lease again.
      await vi.waitFor(() => expect(events).toEqual(['start', 'stop', 'start']), { timeout: 3_000, interval: 10 });
      expect(leases.lease?.spec).toMatchObject({ holderIdentity: 'me', leaseTransitions: 1 });
    } finally {
      await handle.stop();
    }
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
  });
});
