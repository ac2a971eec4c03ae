/**
 * Event-loop probe for the server process, preloaded by the fuzz test with
 * `NODE_OPTIONS=--import=<dist>/e2e/harness/fuzz/loop-probe.js`. Every interval it appends one
 * JSON line to the file named by `KUBE_SPACES_LOOP_PROBE` and starts the interval afresh, so the
 * test keeps only the intervals of its own run (start-up does not count).
 *
 * Two figures per interval: `maxMs`, the loop delay `monitorEventLoopDelay` saw, and `busyMs`,
 * the longest stall the process spent computing. On a shared machine the process can wait for a
 * core for a long time with nothing wrong in it; so a 10 ms tick counts each late tick's delay
 * only up to the CPU time the process used meanwhile (all threads: never less than the loop's own
 * work). A stall of synchronous work shows in both; waiting for a core only in `maxMs`.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

export interface LoopSample {
  /** Date.now() at the end of the interval. */
  t: number;
  maxMs: number;
  p99Ms: number;
  busyMs: number;
}

const INTERVAL_MS = 250;
const TICK_MS = 10;
const file = process.env.KUBE_SPACES_LOOP_PROBE;

// Worker threads load `--import` modules too; only the main thread's loop serves requests.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: TICK_MS });
  histogram.enable();
  let busyMs = 0;
  let lastTick = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    busyMs = Math.max(busyMs, Math.min(now - lastTick - TICK_MS, (cpu.user + cpu.system) / 1000));
    lastTick = now;
    lastCpu = process.cpuUsage();
  }, TICK_MS).unref();
  const write = (): void => {
    const sample: LoopSample = { t: Date.now(), maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, busyMs };
    histogram.reset();
    busyMs = 0;
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  };
  setInterval(write, INTERVAL_MS).unref();
  process.on('exit', write);
}
