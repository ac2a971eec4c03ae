/**
 * Fair queuing for one priority level, after kube-apiserver's `queueset`: a request waits in one
 * of the level's queues (the shortest of its flow's shuffle-sharded hand) and queues take turns by
 * virtual time, so each busy flow gets an equal share of the level's seats, whatever its volume.
 * A flood from one flow lengthens its own queues, not anybody else's wait.
 *
 * Virtual time R advances, in seat-seconds, at the rate of the seats in use divided by the queues
 * that are busy. Dispatching a request of `seats` width moves its queue's `nextDispatchR` on by
 * `seats × G` (G the estimated service time); its completion gives back what it did not use. The
 * queue dispatched next is the one whose head would finish first in virtual time.
 *
 * Nothing here allocates per request but the request's record; waits are bounded by a sweep
 * (one timer per level), not by a timer per request.
 *
 * @example
 *   const level = new QueueSet({ seats: 4, queues: 64, handSize: 6, queueLengthLimit: 50 }, { waitLimitMs: 15_000 });
 *   const r = new FlowRequest(1, { start: () => serve(), reject: () => answer429() });
 *   level.enqueue(flowHash('global-default', 't1'), r); // start() now or later, or reject()
 *   // … when the response has ended:
 *   level.finish(r);
 */
import { dealHand } from './shuffle-shard.js';

/** kube-apiserver's estimated service duration (3 s), in seconds: the width of a turn in virtual time. */
const ESTIMATED_SERVICE_SECONDS = 3;

/** How often waiting requests are checked against the wait limit. */
const SWEEP_INTERVAL_MS = 250;

export interface QueueSetConfig {
  /** Seats the level may use at once (at least 1). */
  seats: number;
  /** Queues; 0 means the level rejects what does not fit at once (limitResponse Reject). */
  queues: number;
  handSize: number;
  /** Requests one queue may hold waiting. */
  queueLengthLimit: number;
}

export interface QueueSetOptions {
  /** How long a request may wait in a queue before it is rejected. */
  waitLimitMs: number;
  /** Milliseconds, monotonic (tests pass their own clock). */
  now?: () => number;
}

export interface FlowRequestCallbacks {
  /** The request may proceed (called once, possibly synchronously from `enqueue`). */
  start(): void;
  /** The request was rejected: its queue was full or it waited too long (called once). */
  reject(reason: 'queue-full' | 'timeout'): void;
}

export type FlowRequestState = 'new' | 'waiting' | 'executing' | 'finished' | 'rejected';

/** One request's record: its width in seats, its queue and where it stands. */
export class FlowRequest {
  state: FlowRequestState = 'new';
  queue: Queue | null = null;
  enqueuedAt = 0;
  startedAt = 0;

  constructor(
    public seats: number,
    readonly callbacks: FlowRequestCallbacks,
  ) {}
}

export class Queue {
  readonly waiting: FlowRequest[] = [];
  /** Seats of this queue's requests now executing. */
  seatsExecuting = 0;
  /** Virtual time at which this queue's next request would start. */
  nextDispatchR = 0;
  constructor(readonly index: number) {}

  /** Seats queued and executing: what "shortest queue" compares, as kube counts work not requests. */
  load(): number {
    let seats = this.seatsExecuting;
    for (const r of this.waiting) seats += r.seats;
    return seats;
  }

  isIdle(): boolean {
    return this.waiting.length === 0 && this.seatsExecuting === 0;
  }
}

export class QueueSet {
  readonly queues: Queue[];
  seatsInUse = 0;
  /** Requests waiting, over every queue. */
  waitingCount = 0;
  private virtualTime = 0;
  private lastAdvance: number;
  private readonly hand: Int32Array;
  private readonly now: () => number;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly config: QueueSetConfig,
    private readonly options: QueueSetOptions,
  ) {
    if (config.seats < 1) throw new Error(`a queue set needs at least one seat, got ${config.seats}`);
    this.queues = Array.from({ length: config.queues }, (_, i) => new Queue(i));
    this.hand = new Int32Array(Math.max(1, Math.min(config.handSize, config.queues)));
    this.now = options.now ?? (() => performance.now());
    this.lastAdvance = this.now();
  }

  /** Virtual time now, for tests. */
  get currentR(): number {
    this.advance();
    return this.virtualTime;
  }

  /**
   * Admits, queues or rejects a request of flow `hash`. A request wider than the level's seats
   * runs alone (when nothing else does), as in kube-apiserver, rather than never.
   */
  enqueue(hash: number, request: FlowRequest): void {
    if (request.state !== 'new') throw new Error(`enqueue of a request already ${request.state}`);
    request.seats = Math.max(1, request.seats);
    if (this.queues.length === 0) {
      if (this.fits(request.seats)) this.execute(request, null);
      else this.reject(request, 'queue-full');
      return;
    }
    this.advance();
    const queue = this.shortestOfHand(hash);
    if (queue.waiting.length >= this.config.queueLengthLimit) {
      this.reject(request, 'queue-full');
      return;
    }
    if (queue.isIdle()) queue.nextDispatchR = Math.max(queue.nextDispatchR, this.virtualTime);
    request.state = 'waiting';
    request.queue = queue;
    request.enqueuedAt = this.now();
    queue.waiting.push(request);
    this.waitingCount++;
    this.dispatchAsMuchAsPossible();
    if (this.waitingCount > 0) this.startSweeping();
  }

  /** The request ended (answered, or its client went away): its seats go to the next in line. */
  finish(request: FlowRequest): void {
    if (request.state === 'waiting') {
      this.remove(request);
      request.state = 'finished';
      return;
    }
    if (request.state !== 'executing') return;
    this.advance();
    request.state = 'finished';
    this.seatsInUse -= request.seats;
    const queue = request.queue;
    if (queue) {
      queue.seatsExecuting -= request.seats;
      // Give back the part of the estimated turn the request did not use (or charge its overrun).
      const usedSeconds = (this.now() - request.startedAt) / 1000;
      queue.nextDispatchR -= request.seats * (ESTIMATED_SERVICE_SECONDS - usedSeconds);
    }
    this.dispatchAsMuchAsPossible();
  }

  /** Stops the sweep timer; requests still waiting stay where they are. */
  stop(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
  }

  /** Rejects requests that waited past the limit (the timer calls it; tests call it with their clock). */
  sweep(): void {
    const deadline = this.now() - this.options.waitLimitMs;
    for (const queue of this.queues) {
      // Each queue is in arrival order, so the oldest are at its head.
      while (queue.waiting.length > 0 && queue.waiting[0]!.enqueuedAt <= deadline) {
        const request = queue.waiting[0]!;
        this.remove(request);
        this.reject(request, 'timeout');
      }
    }
    if (this.waitingCount === 0) this.stop();
  }

  private startSweeping(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  private fits(seats: number): boolean {
    return this.seatsInUse === 0 || this.seatsInUse + seats <= this.config.seats;
  }

  private advance(): void {
    const now = this.now();
    const elapsedSeconds = (now - this.lastAdvance) / 1000;
    this.lastAdvance = now;
    if (elapsedSeconds <= 0) return;
    let busy = 0;
    for (const queue of this.queues) if (!queue.isIdle()) busy++;
    if (busy > 0) this.virtualTime += (elapsedSeconds * Math.min(this.seatsInUse, this.config.seats)) / busy;
  }

  /** The queue of the flow's hand with the least work in it (the first such, for determinism). */
  private shortestOfHand(hash: number): Queue {
    const handSize = this.hand.length;
    dealHand(hash, this.queues.length, handSize, this.hand);
    let best = this.queues[this.hand[0]!]!;
    let bestLoad = best.load();
    for (let i = 1; i < handSize; i++) {
      const queue = this.queues[this.hand[i]!]!;
      const load = queue.load();
      if (load < bestLoad) {
        best = queue;
        bestLoad = load;
      }
    }
    return best;
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.waitingCount > 0) {
      let next: Queue | null = null;
      let nextFinish = Infinity;
      for (const queue of this.queues) {
        const head = queue.waiting[0];
        if (!head) continue;
        const finish = queue.nextDispatchR + head.seats * ESTIMATED_SERVICE_SECONDS;
        if (finish < nextFinish) {
          next = queue;
          nextFinish = finish;
        }
      }
      // The fairest head waits for room rather than letting narrower ones overtake it forever.
      if (!next || !this.fits(next.waiting[0]!.seats)) return;
      const request = next.waiting[0]!;
      this.remove(request);
      next.nextDispatchR += request.seats * ESTIMATED_SERVICE_SECONDS;
      this.execute(request, next);
    }
  }

  private remove(request: FlowRequest): void {
    const queue = request.queue!;
    const at = queue.waiting.indexOf(request);
    if (at >= 0) {
      queue.waiting.splice(at, 1);
      this.waitingCount--;
    }
  }

  private execute(request: FlowRequest, queue: Queue | null): void {
    request.state = 'executing';
    request.queue = queue;
    request.startedAt = this.now();
    this.seatsInUse += request.seats;
    if (queue) queue.seatsExecuting += request.seats;
    request.callbacks.start();
  }

  private reject(request: FlowRequest, reason: 'queue-full' | 'timeout'): void {
    request.state = 'rejected';
    request.callbacks.reject(reason);
  }
}
