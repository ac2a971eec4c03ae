import { describe, expect, it } from 'vitest';
import type { Lease, ResourceClient } from '../../src/client/index.js';
import { LeaderElector } from './leader-election.js';

// Election against a server is tested in e2e/leader-election.test.ts; here, the timings refused as client-go refuses them.
describe('LeaderElector', () => {
  const elector = (leaseDurationMs: number, renewDeadlineMs: number, retryPeriodMs: number, identity = 'me') =>
    new LeaderElector({
      leases: {} as ResourceClient<Lease>,
      name: 'lease',
      identity,
      timing: { leaseDurationMs, renewDeadlineMs, retryPeriodMs },
      onStartedLeading: () => undefined,
      onStoppedLeading: () => undefined,
      log: { info: () => undefined, error: () => undefined },
    });

  it('takes client-go’s timing and refuses timings that could let two leaders overlap', () => {
    expect(elector(15_000, 10_000, 2_000).leader()).toBe('');
    expect(() => elector(10_000, 10_000, 2_000)).toThrow(/leaseDuration must be greater than renewDeadline/);
    expect(() => elector(15_000, 2_400, 2_000)).toThrow(/renewDeadline must be greater than retryPeriod\*1.2/);
    expect(() => elector(15_000, 10_000, 0)).toThrow(/retryPeriod must be greater than zero/);
    expect(() => elector(15_000, 10_000, 2_000, '')).toThrow(/needs an identity/);
  });
});
