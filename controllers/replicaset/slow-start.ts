/**
 * kube's slowStartBatch: calls `fn` `count` times in batches of 1, 2, 4, … run concurrently,
 * stopping after the first batch with an error. A quota or a webhook refusing every pod then
 * costs a handful of requests, not hundreds. Answers how many calls succeeded and the first error.
 *
 * @example
 *   const { successes, error } = await slowStartBatch(10, 1, () => createPod());
 */
export async function slowStartBatch(count: number, initialBatchSize: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}
