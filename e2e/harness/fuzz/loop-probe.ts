/**
 * Event-loop probe for the server process, preloaded by the fuzz test with
 * `NODE_OPTIONS=--import=<dist>/e2e/harness/fuzz/loop-probe.js`. Every interval it appends one
 * JSON line to the file named by `KUBE_SPACES_LOOP_PROBE` with the wall-clock time and the
 * interval's loop delay (max and p99, ms), then resets the histogram: the test keeps only the
 * intervals of its own run, so the start-up (module loading, boot) does not count.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoopSample {
  /** Date.now() at the end of the interval. */
  t: number;
  maxMs: number;
  p99Ms: number;
}

const INTERVAL_MS = 250;
const file = process.env.KUBE_SPACES_LOOP_PROBE;

if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const write = (): void => {
    const sample: LoopSample = { t: Date.now(), maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  };
  setInterval(write, INTERVAL_MS).unref();
  process.on('exit', write);
}
