/**
 * client-go's EventCorrelator spam filter (`tools/record/events_cache.go`): each source and object
 * has a token bucket, 25 events at once and one more every five minutes, so a controller stuck in a
 * loop about one object writes a few dozen events an hour about it, not thousands. Buckets are
 * kept for the 4,096 most recently seen keys (an LRU, as upstream), so memory stays bounded.
 */
export interface SpamFilterOptions {
  burst?: number;
  /** Milliseconds per token refilled. */
  refillMs?: number;
  maxKeys?: number;
  now?: () => number;
}

/** Upstream's defaults: burst 25, qps 1/300. */
const DEFAULT_BURST = 25;
const DEFAULT_REFILL_MS = 5 * 60_000;
const DEFAULT_MAX_KEYS = 4096;

interface Bucket {
  tokens: number;
  at: number;
}

export class EventSpamFilter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;
  private readonly refillMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: SpamFilterOptions = {}) {
    this.burst = options.burst ?? DEFAULT_BURST;
    this.refillMs = options.refillMs ?? DEFAULT_REFILL_MS;
    this.maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    this.now = options.now ?? Date.now;
  }

  /** Takes a token of `key`'s bucket; false when it is empty (the event is dropped). */
  allow(key: string): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    // Re-inserted on every use: a Map iterates in insertion order, so the first key is the least recent.
    this.buckets.delete(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) / this.refillMs);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return allowed;
  }
}
