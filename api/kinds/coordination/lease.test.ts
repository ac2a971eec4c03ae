import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { leases, type Lease } from './lease.js';

const lease = (spec: NonNullable<Lease['spec']>): Lease => ({ metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec });

describe('Lease', () => {
  it.each<[string, NonNullable<Lease['spec']>, string[]]>([
    ['a zero duration', { leaseDurationSeconds: 0 }, ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']],
    ['negative transitions', { leaseTransitions: -1 }, ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0']],
    ['an unknown strategy', { strategy: 'Newest' }, ['spec.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"']],
    ['a preferred holder without a strategy', { preferredHolder: 'b' }, ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined']],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(leases, lease(spec))).errors)).toEqual(want);
  });

  it('accepts a held lease and a domain-qualified strategy', async () => {
    const held = lease({ holderIdentity: 'node-1_4f7c', leaseDurationSeconds: 15, renewTime: '2024-05-01T10:09:58.123456Z', strategy: 'example.com/mine' });
    expect((await create(leases, held)).errors).toEqual([]);
  });

  it('prints HOLDER, and is created by PUT', async () => {
    const { object } = await create(leases, lease({ holderIdentity: 'node-1_4f7c' }));
    expect(headers(leases)).toEqual(['NAME', 'HOLDER', 'AGE']);
    expect(cells(leases, object)).toEqual(['kube-scheduler', 'node-1_4f7c', '10m']);
    expect(leases.allowCreateOnUpdate).toBe(true);
  });

  it('needs a resourceVersion to replace an existing lease, as Kubernetes’ lease strategy', () => {
    expect(leases.allowUnconditionalUpdate).toBe(false);
  });
});
