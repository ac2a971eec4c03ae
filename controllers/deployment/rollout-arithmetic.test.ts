import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import type { IntOrString } from '../../api/kinds/core/types.js';
import { maxSurge, maxUnavailable, newRSNewReplicas, proportionalSizes, resolveFenceposts, scaledValue, MAX_REPLICAS_ANNOTATION } from './rollout-arithmetic.js';

function deployment(replicas: number, surge: IntOrString = '25%', unavailable: IntOrString = '25%', type = 'RollingUpdate'): Deployment {
  return { metadata: { name: 'web' }, spec: { replicas, strategy: type === 'RollingUpdate' ? { type, rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } } : { type } } };
}
function rs(name: string, replicas: number, createdSecondsAgo: number, maxReplicas?: number): ReplicaSet {
  return {
    metadata: { name, creationTimestamp: new Date(Date.parse('2026-01-01T00:00:00Z') - createdSecondsAgo * 1000).toISOString(), ...(maxReplicas !== undefined ? { annotations: { [MAX_REPLICAS_ANNOTATION]: String(maxReplicas) } } : {}) },
    spec: { replicas },
  };
}

describe('maxSurge and maxUnavailable', () => {
  it('rounds a percentage up for surge and down for unavailable', () => {
    expect(scaledValue('25%', 10, true)).toBe(3);
    expect(scaledValue('25%', 10, false)).toBe(2);
    expect(scaledValue(4, 10, true)).toBe(4);
    expect(() => scaledValue('4', 10, true)).toThrow(/not a percentage/);
  });
  it('never lets both be 0', () => {
    expect(resolveFenceposts('25%', '25%', 3)).toEqual({ surge: 1, unavailable: 0 });
    expect(resolveFenceposts(0, '10%', 3)).toEqual({ surge: 0, unavailable: 1 });
  });
  it('caps unavailable at replicas and is 0 for Recreate or no replicas', () => {
    expect(maxUnavailable(deployment(2, 0, 5))).toBe(2);
    expect(maxUnavailable(deployment(0))).toBe(0);
    expect(maxUnavailable(deployment(4, 0, 0, 'Recreate'))).toBe(0);
    expect(maxSurge(deployment(10))).toBe(3);
    expect(maxSurge(deployment(10, 0, 0, 'Recreate'))).toBe(0);
  });
});

describe('new replica set size', () => {
  it('grows by at most the surge over replicas in total', () => {
    const d = deployment(10);
    const old = rs('old', 10, 100);
    const fresh = rs('new', 0, 0);
    expect(newRSNewReplicas(d, [old, fresh], fresh)).toBe(3);
    const grown = rs('new', 3, 0);
    expect(newRSNewReplicas(d, [old, grown], grown)).toBe(3); // 13 pods already: wait for old ones to go
    expect(newRSNewReplicas(d, [rs('old', 5, 100), grown], grown)).toBe(8);
  });
  it('is the whole size for Recreate', () => {
    const fresh = rs('new', 0, 0);
    expect(newRSNewReplicas(deployment(4, 0, 0, 'Recreate'), [fresh], fresh)).toBe(4);
  });
});

describe('proportional scaling (kube’s sync_test cases)', () => {
  const sizesByName = (d: Deployment, sets: ReplicaSet[]) => {
    const { sizes, operation } = proportionalSizes(d, sets);
    return { operation, sizes: Object.fromEntries([...sizes].map(([r, n]) => [r.metadata.name, n])) };
  };
  it('5 -> 10 keeps each set’s share', () => {
    const d = deployment(10, 0, 0);
    expect(sizesByName(d, [rs('foo-v2', 2, 0, 5), rs('foo-v1', 3, 100, 5)])).toEqual({ operation: 'up', sizes: { 'foo-v1': 6, 'foo-v2': 4 } });
  });
  it('5 -> 3 scales down the larger, older set first', () => {
    const d = deployment(3, 0, 0);
    expect(sizesByName(d, [rs('foo-v2', 2, 0, 5), rs('foo-v1', 3, 100, 5)])).toEqual({ operation: 'down', sizes: { 'foo-v1': 2, 'foo-v2': 1 } });
  });
  it('leftovers go to the largest set', () => {
    const d = deployment(10, 0, 0);
    expect(sizesByName(d, [rs('a', 1, 0, 3), rs('b', 1, 50, 3), rs('c', 1, 100, 3)]).sizes).toEqual({ a: 4, b: 3, c: 3 });
  });
});
