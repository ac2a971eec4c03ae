import { describe, expect, it } from 'vitest';
import { EventSpamFilter } from './event-spam-filter.js';

describe('EventSpamFilter', () => {
  it('lets 25 events through at once, then one every five minutes, per key', () => {
    let now = 0;
    const filter = new EventSpamFilter({ now: () => now });
    const taken = Array.from({ length: 30 }, () => filter.allow('a')).filter(Boolean).length;
    expect(taken).toBe(25);
    expect(filter.allow('b')).toBe(true);
    now += 4 * 60_000;
    expect(filter.allow('a')).toBe(false);
    now += 60_000;
    expect(filter.allow('a')).toBe(true);
    expect(filter.allow('a')).toBe(false);
  });

  it('forgets the least recently seen keys beyond its size', () => {
    const filter = new EventSpamFilter({ burst: 1, maxKeys: 2, now: () => 0 });
    expect([filter.allow('a'), filter.allow('b'), filter.allow('a')]).toEqual([true, true, false]);
    // 'c' pushes out 'b' (least recent), whose bucket starts full again.
    expect([filter.allow('c'), filter.allow('b'), filter.allow('a')]).toEqual([true, true, true]);
  });
});
