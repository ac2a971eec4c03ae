import { describe, expect, it } from 'vitest';
import { FlowRequest, QueueSet } from './queue-set.js';
import { flowHash } from './shuffle-shard.js';

/** A queue set on a hand-driven clock, recording the order requests start in. */
function harness(config: { seats: number; queues: number; handSize: number; queueLengthLimit: number }) {
  let clock = 0;
  const started: string[] = [];
  const rejected: Array<[string, string]> = [];
  const set = new QueueSet(config, { waitLimitMs: 1000, now: () => clock });
  const submit = (flow: string, seats = 1): FlowRequest => {
    const r: FlowRequest = new FlowRequest(seats, { start: () => started.push(flow), reject: (why) => rejected.push([flow, why]) });
    set.enqueue(flowHash('level', flow), r);
    return r;
  };
  return { set, started, rejected, submit, tick: (ms: number) => (clock += ms) };
}

describe('QueueSet', () => {
  it('serves two flows alternately, however many one of them sends', () => {
    const h = harness({ seats: 1, queues: 64, handSize: 1, queueLengthLimit: 100 });
    const a = Array.from({ length: 20 }, () => h.submit('a'));
    const b = Array.from({ length: 3 }, () => h.submit('b'));
    const order: string[] = [];
    // Finish whatever runs, one at a time, 10 ms each, and note who starts next.
    const all = [...a, ...b];
    for (let i = 0; i < 8; i++) {
      h.tick(10);
      const current = all.find((r) => r.state === 'executing')!;
      h.set.finish(current);
      order.push(h.started[h.started.length - 1]!);
    }
    // b's three requests start within the first six turns, not after a's twenty.
    expect(order.slice(0, 6).filter((f) => f === 'b')).toHaveLength(3);
    expect(h.rejected).toEqual([]);
  });

  it('gives each flow an equal share of seats over time', () => {
    const h = harness({ seats: 2, queues: 64, handSize: 2, queueLengthLimit: 1000 });
    const all = [...Array.from({ length: 300 }, () => h.submit('noisy')), ...Array.from({ length: 100 }, () => h.submit('quiet'))];
    for (let i = 0; i < 100; i++) {
      h.tick(5);
      // The longest running finishes first.
      const current = all.filter((r) => r.state === 'executing').sort((x, y) => x.startedAt - y.startedAt)[0]!;
      h.set.finish(current);
    }
    const quiet = h.started.filter((f) => f === 'quiet').length;
    expect(quiet).toBeGreaterThanOrEqual(45);
    expect(quiet).toBeLessThanOrEqual(55);
  });

  it('rejects when the flow queue is full, and never beyond the seats', () => {
    const h = harness({ seats: 1, queues: 8, handSize: 1, queueLengthLimit: 3 });
    for (let i = 0; i < 6; i++) h.submit('a');
    // One runs, three wait, two are turned away.
    expect(h.started).toEqual(['a']);
    expect(h.set.waitingCount).toBe(3);
    expect(h.rejected).toEqual([['a', 'queue-full'], ['a', 'queue-full']]);
    expect(h.set.seatsInUse).toBe(1);
  });

  it('rejects requests that waited past the limit, and forgets cancelled ones', () => {
    const h = harness({ seats: 1, queues: 8, handSize: 1, queueLengthLimit: 10 });
    const first = h.submit('a');
    const cancelled = h.submit('a');
    h.submit('a');
    h.set.finish(cancelled);
    expect(h.set.waitingCount).toBe(1);
    h.tick(1500);
    h.set.sweep();
    expect(h.rejected).toEqual([['a', 'timeout']]);
    h.set.finish(first);
    expect(h.set.seatsInUse).toBe(0);
    expect(cancelled.state).toBe('finished');
  });

  it('counts wide requests in seats: a 3-seat LIST waits for 3 free seats', () => {
    const h = harness({ seats: 4, queues: 16, handSize: 2, queueLengthLimit: 10 });
    const narrow = [h.submit('a'), h.submit('b')];
    const wide = h.submit('c', 3);
    expect(h.set.seatsInUse).toBe(2);
    expect(wide.state).toBe('waiting');
    h.set.finish(narrow[0]!);
    expect(wide.state).toBe('executing');
    expect(h.set.seatsInUse).toBe(4);
    h.set.finish(wide);
    h.set.finish(narrow[1]!);
    expect(h.set.seatsInUse).toBe(0);
  });

  it('runs a request wider than the level alone rather than never', () => {
    const h = harness({ seats: 2, queues: 16, handSize: 2, queueLengthLimit: 10 });
    const wide = h.submit('a', 10);
    expect(wide.state).toBe('executing');
    const next = h.submit('b');
    expect(next.state).toBe('waiting');
    h.set.finish(wide);
    expect(next.state).toBe('executing');
  });

  it('with no queues (limitResponse Reject) rejects what does not fit at once', () => {
    const h = harness({ seats: 1, queues: 0, handSize: 0, queueLengthLimit: 0 });
    const first = h.submit('a');
    h.submit('b');
    expect(h.rejected).toEqual([['b', 'queue-full']]);
    h.set.finish(first);
    h.submit('b');
    expect(h.started).toEqual(['a', 'b']);
  });
});
