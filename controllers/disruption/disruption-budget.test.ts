import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import type { PodDisruptionBudget } from '../../api/kinds/policy/poddisruptionbudget.js';
import { currentHealthy, DELETION_TIMEOUT_MS, disruptedPods, disruptionsAllowed, expectedPods } from './disruption-budget.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(name: string, opts: { ready?: boolean; owner?: string; deleting?: boolean } = {}): Pod {
  return {
    metadata: {
      name,
      ...(opts.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: opts.owner, uid: opts.owner, controller: true }] } : {}),
      ...(opts.deleting ? { deletionTimestamp: at(NOW) } : {}),
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
  };
}
const budget = (spec: PodDisruptionBudget['spec'], disrupted?: Record<string, string>): PodDisruptionBudget => ({
  metadata: { name: 'web' },
  spec,
  ...(disrupted ? { status: { disruptedPods: disrupted } } : {}),
});
const scales: Record<string, number> = { rs1: 5 };
const scaleOf = (p: Pod) => {
  const uid = p.metadata.ownerReferences?.[0]?.uid;
  return uid && scales[uid] !== undefined ? { uid, replicas: scales[uid]! } : undefined;
};
const hasController = (p: Pod) => (p.metadata.ownerReferences ?? []).length > 0;

describe('expected and desired pods', () => {
  const pods = [pod('a', { owner: 'rs1' }), pod('b', { owner: 'rs1' }), pod('c', { owner: 'rs1' })];
  it('an integer minAvailable counts the pods themselves', () => {
    expect(expectedPods(budget({ minAvailable: 2 }), pods, scaleOf, hasController)).toEqual({ expectedCount: 3, desiredHealthy: 2, unmanaged: [] });
  });
  it('a percentage counts the controllers’ scale, rounded up', () => {
    expect(expectedPods(budget({ minAvailable: '50%' }), pods, scaleOf, hasController)).toEqual({ expectedCount: 5, desiredHealthy: 3, unmanaged: [] });
  });
  it('maxUnavailable: scale minus the unavailable allowed (rounded up)', () => {
    expect(expectedPods(budget({ maxUnavailable: '30%' }), pods, scaleOf, hasController)).toEqual({ expectedCount: 5, desiredHealthy: 3, unmanaged: [] });
    expect(expectedPods(budget({ maxUnavailable: 1 }), [...pods, pod('bare')], scaleOf, hasController)).toEqual({ expectedCount: 5, desiredHealthy: 4, unmanaged: ['bare'] });
  });
  it('a controller that cannot be found fails the computation', () => {
    expect(() => expectedPods(budget({ maxUnavailable: 1 }), [pod('x', { owner: 'gone' })], scaleOf, hasController)).toThrow('found no controllers for pod "x"');
  });
});

describe('healthy pods and allowed disruptions', () => {
  it('recent evictions and pods being deleted are not healthy; old evictions expire', () => {
    const pods = [pod('a'), pod('b'), pod('c'), pod('d', { deleting: true }), pod('e', { ready: false })];
    const pdb = budget({ minAvailable: 1 }, { a: at(NOW - 1000), b: at(NOW - DELETION_TIMEOUT_MS - 1000), d: at(NOW) });
    const { disrupted, expired, recheckAt } = disruptedPods(pdb, pods, NOW);
    expect(disrupted).toEqual({ a: at(NOW - 1000) });
    expect(expired.map((p) => p.metadata.name)).toEqual(['b']);
    expect(recheckAt).toBe(NOW - 1000 + DELETION_TIMEOUT_MS);
    expect(currentHealthy(pods, disrupted)).toBe(2); // b and c
  });
  it('allows healthy minus desired, never below 0 nor without expected pods', () => {
    expect(disruptionsAllowed(3, 3, 2)).toBe(1);
    expect(disruptionsAllowed(3, 1, 2)).toBe(0);
    expect(disruptionsAllowed(0, 3, 0)).toBe(0);
  });
});
