import { describe, expect, it } from 'vitest';
import { NodeUsage } from './above-spaces.js';

const placed = (node: string | undefined) => ({ metadata: {}, spec: node ? { nodeName: node } : {} });

describe('NodeUsage', () => {
  it('knows which nodes run pods of which space, as pods are placed, moved and deleted', () => {
    const usage = new NodeUsage();
    usage.apply({ tenant: 't1', namespace: 'a', name: 'p1' }, placed('n1'));
    usage.apply({ tenant: 't1', namespace: 'b', name: 'p2' }, placed('n1'));
    usage.apply({ tenant: 't2', namespace: 'a', name: 'p1' }, placed(undefined));
    expect(usage.runsPodsOf('t1', 'n1')).toBe(true);
    expect(usage.runsPodsOf('t2', 'n1')).toBe(false);

    usage.apply({ tenant: 't2', namespace: 'a', name: 'p1' }, placed('n2'));
    usage.apply({ tenant: 't1', namespace: 'a', name: 'p1' }, undefined);
    expect(usage.runsPodsOf('t1', 'n1')).toBe(true); // p2 still runs there
    usage.apply({ tenant: 't1', namespace: 'b', name: 'p2' }, undefined);
    expect(usage.runsPodsOf('t1', 'n1')).toBe(false);
    expect(usage.runsPodsOf('t2', 'n2')).toBe(true);
    expect(usage.runsPodsOf('t1', 'n2')).toBe(false);
  });
});
