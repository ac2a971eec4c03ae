import { describe, expect, it } from 'vitest';
import { RetryAfter } from './retry-after.js';

describe('RetryAfter', () => {
  it('starts at 1 s and doubles under sustained drops, up to 32 s', () => {
    const retry = new RetryAfter();
    expect(retry.seconds).toBe(1);
    const seen: number[] = [];
    for (let second = 1000; second < 1100; second++) {
      for (let i = 0; i < 200; i++) retry.recordDrop(second);
      seen.push(retry.seconds);
    }
    expect(seen.slice(0, 4)).toEqual([1, 2, 2, 4]);
    expect(Math.max(...seen)).toBe(32);
    expect(retry.seconds).toBe(32);
  });

  it('comes down by one a second once drops are rare', () => {
    const retry = new RetryAfter();
    for (let second = 1000; second < 1010; second++) for (let i = 0; i < 100; i++) retry.recordDrop(second);
    const high = retry.seconds;
    expect(high).toBeGreaterThan(2);
    // One drop every 100 s: fewer than Retry-After in each window.
    retry.recordDrop(1100);
    retry.recordDrop(1200);
    expect(retry.seconds).toBe(high - 2);
  });

  it('stays at 1 s for an occasional drop', () => {
    const retry = new RetryAfter();
    for (let second = 1000; second < 1050; second += 5) retry.recordDrop(second);
    expect(retry.seconds).toBe(1);
  });
});
