import { describe, expect, it } from 'vitest';
import { dealHand, flowHash } from './shuffle-shard.js';

function hand(hash: number, deck: number, size: number): number[] {
  const cards = new Int32Array(size);
  dealHand(hash, deck, size, cards);
  return [...cards];
}

describe('shuffle sharding', () => {
  it('deals the same hand for the same flow, every time', () => {
    const h = flowHash('global-default', 'acme');
    expect(hand(h, 128, 6)).toEqual(hand(flowHash('global-default', 'acme'), 128, 6));
    expect(flowHash('global-default', 'acme')).not.toBe(flowHash('global-default', 'acmf'));
    expect(flowHash('ab', 'c')).not.toBe(flowHash('a', 'bc'));
  });

  it('deals distinct cards within the deck', () => {
    for (let t = 0; t < 500; t++) {
      const cards = hand(flowHash('workload-low', `tenant-${t}`), 128, 6);
      expect(new Set(cards).size).toBe(6);
      for (const c of cards) expect(c >= 0 && c < 128).toBe(true);
    }
    expect(hand(0, 4, 4).sort()).toEqual([0, 1, 2, 3]);
    expect(hand(2 ** 52 - 1, 4, 4).sort()).toEqual([0, 1, 2, 3]);
  });

  it('spreads flows over the queues', () => {
    const used = new Set<number>();
    for (let t = 0; t < 200; t++) used.add(hand(flowHash('global-default', `t${t}`), 128, 1)[0]!);
    expect(used.size).toBeGreaterThan(64);
  });
});
