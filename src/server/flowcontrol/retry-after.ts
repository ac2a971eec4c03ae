/**
 * The `Retry-After` a priority level's rejections carry, as kube-apiserver's dropped-requests
 * tracker sets it: 1 s at first; doubled (to at most 32 s) when the level dropped at least
 * 3 × Retry-After requests in the last Retry-After seconds, no sooner than Retry-After seconds after
 * the last increase; lowered by one when it dropped fewer than Retry-After. Like kube's, it is
 * reconsidered only when a drop opens a new second, from the seconds before it.
 *
 * @example
 *   const retry = new RetryAfter();
 *   retry.recordDrop(Math.floor(Date.now() / 1000));
 *   reply.header('Retry-After', String(retry.seconds));
 */

const MAX_RETRY_AFTER_SECONDS = 32;

export class RetryAfter {
  seconds = 1;
  private increasedAt = 0;
  private currentSecond = 0;
  private currentCount = 0;
  /** Drops per past second, oldest first, kept for at most 2 × Retry-After (≤ 32) seconds. */
  private readonly history: Array<{ second: number; count: number }> = [];

  /** Notes one rejected request at `nowSeconds` (Unix time, whole seconds). */
  recordDrop(nowSeconds: number): void {
    if (nowSeconds === this.currentSecond) {
      this.currentCount++;
      return;
    }
    this.remember(this.currentSecond, this.currentCount);
    this.currentSecond = nowSeconds;
    this.currentCount = 1;
    this.reconsider(nowSeconds);
  }

  private remember(second: number, count: number): void {
    this.history.push({ second, count });
    const keep = Math.min(2 * this.seconds, MAX_RETRY_AFTER_SECONDS);
    let drop = 0;
    while (drop < this.history.length && second - this.history[drop]!.second > keep) drop++;
    if (drop > 0) this.history.splice(0, drop);
  }

  /** Over the seconds [now - Retry-After, now). */
  private reconsider(now: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const { second, count } = this.history[i]!;
      if (now - second > this.seconds) break;
      if (second < now) dropped += count;
    }
    if (now - this.increasedAt >= this.seconds && dropped >= 3 * this.seconds) {
      this.seconds = Math.min(this.seconds * 2, MAX_RETRY_AFTER_SECONDS);
      this.increasedAt = now;
    } else if (dropped < this.seconds && this.seconds > 1) {
      this.seconds--;
    }
  }
}
