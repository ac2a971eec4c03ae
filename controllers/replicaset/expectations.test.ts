import { describe, expect, it } from 'vitest';
import { Expectations, EXPECTATIONS_TTL_MS } from './expectations.js';
import { slowStartBatch } from './slow-start.js';

const rs = { tenant: 't1', namespace: 'default', name: 'web' };
const sameNameOtherSpace = { tenant: 't2', namespace: 'default', name: 'web' };
const pod = (name: string) => ({ tenant: 't1', namespace: 'default', name });

describe('expectations', () => {
  it('holds an owner until every creation is observed', () => {
    const e = new Expectations();
    expect(e.satisfied(rs)).toBe(true);
    e.expect(rs, { creations: 2, deletions: [] });
    expect(e.satisfied(rs)).toBe(false);
    e.creationObserved(rs);
    expect(e.satisfied(rs)).toBe(false);
    e.creationObserved(rs);
    expect(e.satisfied(rs)).toBe(true);
  });
  it('keys owners by space: another space’s web is not held', () => {
    const e = new Expectations();
    e.expect(rs, { creations: 1, deletions: [] });
    expect(e.satisfied(sameNameOtherSpace)).toBe(true);
    e.creationObserved(sameNameOtherSpace);
    expect(e.satisfied(rs)).toBe(false);
  });
  it('tracks deletions by pod and ignores pods it did not ask to delete', () => {
    const e = new Expectations();
    e.expect(rs, { creations: 0, deletions: [pod('a'), pod('b')] });
    e.deletionObserved(rs, pod('c'));
    e.deletionObserved(rs, pod('a'));
    expect(e.satisfied(rs)).toBe(false);
    e.deletionObserved(rs, pod('b'));
    expect(e.satisfied(rs)).toBe(true);
  });
  it('lowers creations that will never be seen, and expires after five minutes', () => {
    let now = 0;
    const e = new Expectations(() => now);
    e.expect(rs, { creations: 5, deletions: [] });
    e.lowerCreations(rs, 4);
    e.creationObserved(rs);
    expect(e.satisfied(rs)).toBe(true);
    e.expect(rs, { creations: 1, deletions: [] });
    now = EXPECTATIONS_TTL_MS + 1;
    expect(e.satisfied(rs)).toBe(true);
  });
});

describe('slow-start batches', () => {
  it('runs 1, 2, 4, … at a time and stops after a failing batch', async () => {
    let calls = 0;
    const result = await slowStartBatch(10, 1, async () => {
      calls += 1;
      if (calls > 4) throw new Error('exceeded quota');
    });
    // Batches of 1 and 2 succeed (3 calls), the batch of 4 has one success and three failures.
    expect(calls).toBe(7);
    expect(result.successes).toBe(4);
    expect((result.error as Error).message).toBe('exceeded quota');
  });
  it('creates all when nothing fails', async () => {
    let calls = 0;
    expect(await slowStartBatch(10, 1, async () => void (calls += 1))).toEqual({ successes: 10 });
    expect(calls).toBe(10);
  });
});
