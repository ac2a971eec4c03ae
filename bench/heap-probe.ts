/**
 * Reads a server's live memory from inside it: a tiny module loaded with
 * `NODE_OPTIONS=--expose-gc --import=…` answers SIGUSR2 with two full collections and one line of
 * `heapUsed + external` bytes. RSS alone counts garbage not yet collected and heap the allocator
 * keeps, which swamps what a few thousand objects cost.
 *
 * @example
 *   const probe = await heapProbe();
 *   const server = await startServer({ env: probe.env });
 *   const before = await probe.liveBytes(server.pid);
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function probeModule(output: string): string {
  return `import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
  process.on('SIGUSR2', () => {
    globalThis.gc(); globalThis.gc();
    const m = process.memoryUsage();
    appendFileSync(${JSON.stringify(output)}, (m.heapUsed + m.external) + '\\n');
  });
}
`;
}

export interface HeapProbe {
  /** Environment for `startServer` that loads the probe. */
  readonly env: Record<string, string>;
  /** Live bytes (heap used + external) after a full collection in the process `pid`. */
  liveBytes(pid: number): Promise<number>;
  cleanup(): Promise<void>;
}

export async function heapProbe(): Promise<HeapProbe> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-spaces-heap-probe-'));
  const output = join(dir, 'live.txt');
  const module = join(dir, 'probe.mjs');
  await writeFile(module, probeModule(output));
  await writeFile(output, '');
  const lines = async (): Promise<string[]> => (await readFile(output, 'utf8')).split('\n').filter((l) => l !== '');
  return {
    env: { NODE_OPTIONS: `--expose-gc --import=${module}` },
    async liveBytes(pid) {
      const before = (await lines()).length;
      process.kill(pid, 'SIGUSR2');
      for (let i = 0; i < 200; i += 1) {
        const now = await lines();
        if (now.length > before) return Number(now[now.length - 1]);
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error('the heap probe did not answer');
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
