/**
 * Measures a server's event-loop stalls from inside it: a tiny module loaded with
 * `NODE_OPTIONS=--import=…` records, every 100 ms, the longest event-loop delay of that window
 * (`perf_hooks.monitorEventLoopDelay`) as a `<epoch ms> <max ms>` line. A test reads the windows
 * around what it sent, so it measures the server's stall, never its own request times.
 *
 * @example
 *   const probe = await eventLoopProbe();
 *   const cluster = await startCluster(backend, { env: probe.env });
 *   const since = Date.now(); await send(); expect(await probe.maxDelaySince(since)).toBeLessThan(200);
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WINDOW_MS = 100;

function probeModule(output: string): string {
  // Worker threads load --import modules too; only the main thread's loop serves requests.
  return `import { monitorEventLoopDelay } from 'node:perf_hooks';
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
setInterval(() => {
  appendFileSync(${JSON.stringify(output)}, Date.now() + ' ' + (histogram.max / 1e6).toFixed(1) + '\\n');
  histogram.reset();
}, ${WINDOW_MS}).unref();
}
`;
}

export interface EventLoopProbe {
  /** Environment for `startServer`/`startCluster` that loads the probe. */
  readonly env: Record<string, string>;
  /** The longest stall (ms) in the windows that ended after `since` (epoch ms), once a window after now was written. */
  maxDelaySince(since: number): Promise<number>;
  cleanup(): Promise<void>;
}

export async function eventLoopProbe(): Promise<EventLoopProbe> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-spaces-loop-probe-'));
  const output = join(dir, 'delays.txt');
  const module = join(dir, 'probe.mjs');
  await writeFile(module, probeModule(output));
  await writeFile(output, '');
  const windows = async (): Promise<Array<[number, number]>> =>
    (await readFile(output, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.split(' ').map(Number) as [number, number]);
  return {
    env: { NODE_OPTIONS: `--import=${module}` },
    async maxDelaySince(since) {
      const now = Date.now();
      // A window closing after now has seen everything up to now, however late its timer ran.
      for (let i = 0; i < 100 && !(await windows()).some(([at]) => at > now); i += 1) await new Promise((done) => setTimeout(done, WINDOW_MS));
      return Math.max(0, ...(await windows()).filter(([at]) => at > since).map(([, max]) => max));
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
