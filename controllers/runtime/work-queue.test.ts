import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.js';

const k = (name: string, tenant = 't1') => ({ tenant, namespace: 'ns', name });

describe('WorkQueue', () => {
  it('queues a key once however often it is added', async () => {
    const q = new WorkQueue();
    q.add(k('a'));
    q.add(k('a'));
    q.add(k('b'));
    expect(q.length).toBe(2);
    expect(await q.get()).toEqual(k('a'));
    expect(await q.get()).toEqual(k('b'));
  });

  it('keeps tenants apart in keys', async () => {
    const q = new WorkQueue();
    q.add(k('a', 't1'));
    q.add(k('a', 't2'));
    expect(q.length).toBe(2);
  });

  it('never hands a key being processed to a second worker, and requeues it after', async () => {
    const q = new WorkQueue();
    q.add(k('a'));
    const first = await q.get();
    q.add(k('a'));
    expect(q.length).toBe(0);
    q.done(first!);
    expect(q.length).toBe(1);
    expect(await q.get()).toEqual(k('a'));
  });

  it('wakes a waiting worker and releases workers on shutdown', async () => {
    const q = new WorkQueue();
    const waiting = q.get();
    q.add(k('x'));
    expect(await waiting).toEqual(k('x'));
    const idle = q.get();
    q.shutDown();
    expect(await idle).toBeNull();
  });

  it('backs off failures and delivers after the delay', async () => {
    const q = new WorkQueue(5, 1000);
    q.addRateLimited(k('r'));
    expect(q.length).toBe(0);
    expect(await q.get()).toEqual(k('r'));
    q.shutDown();
  });
});
