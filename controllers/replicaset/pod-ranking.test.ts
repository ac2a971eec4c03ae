import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import { deletionCost, podsToDelete, POD_DELETION_COST } from './pod-ranking.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');

function pod(name: string, opts: { node?: string; phase?: string; ready?: number; cost?: string; restarts?: number; age?: number } = {}): Pod {
  return {
    metadata: { name, uid: `uid-${name}`, creationTimestamp: ago(opts.age ?? 1000), ...(opts.cost !== undefined ? { annotations: { [POD_DELETION_COST]: opts.cost } } : {}) },
    spec: opts.node ? { nodeName: opts.node } : {},
    status: {
      phase: opts.phase ?? 'Running',
      conditions: opts.ready !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: ago(opts.ready) }] : [],
      containerStatuses: [{ name: 'c', restartCount: opts.restarts ?? 0 }],
    },
  };
}

const first = (pods: Pod[], related: Pod[] = pods) => podsToDelete(pods, related, 1, NOW)[0]!.metadata.name;

describe('deletion ranking (kube ActivePodsWithRanks)', () => {
  it('unassigned before assigned', () => {
    expect(first([pod('assigned', { node: 'n1', phase: 'Pending' }), pod('unassigned', { phase: 'Pending' })])).toBe('unassigned');
  });
  it('pending before unknown before running', () => {
    expect(first([pod('running', { node: 'n1' }), pod('pending', { node: 'n1', phase: 'Pending' }), pod('unknown', { node: 'n1', phase: 'Unknown' })])).toBe('pending');
    expect(first([pod('running', { node: 'n1' }), pod('unknown', { node: 'n1', phase: 'Unknown' })])).toBe('unknown');
  });
  it('not ready before ready', () => {
    expect(first([pod('ready', { node: 'n1', ready: 100 }), pod('unready', { node: 'n1' })])).toBe('unready');
  });
  it('lower pod-deletion-cost first; an unparsable cost counts as 0', () => {
    expect(first([pod('zero', { node: 'n1', ready: 100 }), pod('cheap', { node: 'n1', ready: 100, cost: '-5' }), pod('dear', { node: 'n1', ready: 100, cost: '10' })])).toBe('cheap');
    expect(deletionCost(pod('x', { cost: 'abc' }))).toBe(0);
    expect(deletionCost(pod('x', { cost: '99999999999' }))).toBe(0);
  });
  it('more pods of the family on the node first', () => {
    const crowded = pod('crowded', { node: 'n1', ready: 100 });
    const alone = pod('alone', { node: 'n2', ready: 100 });
    const related = [crowded, alone, pod('sibling', { node: 'n1', ready: 100 })];
    expect(first([alone, crowded], related)).toBe('crowded');
  });
  it('ready for less time first, in powers of two', () => {
    expect(first([pod('long', { node: 'n1', ready: 10_000 }), pod('short', { node: 'n1', ready: 10 })])).toBe('short');
    // 100 s and 101 s fall in the same log2 bucket of nanoseconds: the tie goes on to restarts.
    expect(first([pod('a', { node: 'n1', ready: 100 }), pod('b', { node: 'n1', ready: 101, restarts: 3 })])).toBe('b');
  });
  it('more restarts first, then younger first', () => {
    expect(first([pod('calm', { node: 'n1', restarts: 0 }), pod('crashy', { node: 'n1', restarts: 4 })])).toBe('crashy');
    expect(first([pod('old', { node: 'n1', age: 100_000 }), pod('young', { node: 'n1', age: 10 })])).toBe('young');
  });
  it('answers every pod when asked for as many or more', () => {
    const pods = [pod('a'), pod('b')];
    expect(podsToDelete(pods, pods, 5, NOW)).toHaveLength(2);
  });
});
