/**
 * Runs async work one call at a time per key: the quota plugins charge one namespace (or one
 * space) at a time, so concurrent creates queue instead of conflicting on the usage record.
 *
 * @example
 *   const mutex = new KeyedMutex();
 *   await mutex.run('/registry/core/resourcequotas/t1/ns1/', () => charge());
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier call for the same key has finished (whether it failed or not). */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
