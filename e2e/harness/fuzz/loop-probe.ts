/**
 * Event-loop probe for the server process, preloaded by the fuzz test with
 * `NODE_OPTIONS=--import=<dist>/e2e/harness/fuzz/loop-probe.js`. Every interval it appends one
 * JSON line to the file named by `KUBE_SPACES_LOOP_PROBE` and starts the interval afresh, so the
 * test keeps only the intervals of its own run (start-up does not count).
 *
 * Two figures per interval: `maxMs`, the loop delay `monitorEventLoopDelay` saw, and `busyMs`,
 * the longest stall the process spent computing. On a shared machine the process can wait for a
 * core for a long time with nothing wrong in it; so a 10 ms tick counts each late tick's delay
 * only up to the CPU time the main thread used meanwhile (Linux's per-thread figure, so the YAML
 * decoding worker's work is not counted as the loop's). A stall of synchronous work shows in both; waiting for a core only in `maxMs`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

export interface LoopSample {
  /** Date.now() at the end of the interval. */
  t: number;
  maxMs: number;
  p99Ms: number;
  busyMs: number;
  /** The longest garbage-collection pause of the interval (part of the loop's stalls). */
  gcMs: number;
}

const INTERVAL_MS = 250;
/** Linux's CPU clock for /proc (USER_HZ = 100). */
const CPU_CLOCK_STEP_MS = 10;
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/stat`;

/**
 * CPU time of the main thread alone (user + system, ms), from Linux's per-thread stat: the
 * process's figure would count the body decoding worker's CPU as the event loop's.
 */
function mainThreadCpuMs(): number {
  const stat = readFileSync(MAIN_THREAD_STAT, 'latin1');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CPU_CLOCK_STEP_MS;
}
const TICK_MS = 10;
const file = process.env.KUBE_SPACES_LOOP_PROBE;

// Worker threads load `--import` modules too; only the main thread's loop serves requests.
if (file && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: TICK_MS });
  histogram.enable();
  let busyMs = 0;
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration);
  }).observe({ entryTypes: ['gc'] });
  let lastTick = performance.now();
  let lastCpu = mainThreadCpuMs();
  setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    // The CPU clock counts in 10 ms steps: a stall is its delay, up to the CPU it used plus one step.
    busyMs = Math.max(busyMs, Math.min(now - lastTick - TICK_MS, cpu - lastCpu + CPU_CLOCK_STEP_MS));
    lastTick = now;
    lastCpu = cpu;
  }, TICK_MS).unref();
  const write = (): void => {
    const sample: LoopSample = { t: Date.now(), maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, busyMs, gcMs };
    histogram.reset();
    busyMs = 0;
    gcMs = 0;
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  };
  setInterval(write, INTERVAL_MS).unref();
  process.on('exit', write);
}
