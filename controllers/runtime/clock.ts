/**
 * Where controllers read the time: injected, so a test moves time forward instead of waiting
 * (a CronJob's schedule, a Job's deadline and backoff, a TTL).
 *
 * @example
 *   const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
 *   clock.advance(60_000);
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const realClock: Clock = { now: () => Date.now() };

export class FakeClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(ms: number): void {
    this.current = ms;
  }
}
