/**
 * The benchmarks' load generator: bounded request counts over keep-alive HTTPS connections from
 * this process, so every subject of a run is driven by the same client.
 */
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';

export interface Target {
  url: string;
  ca: string;
  /** Absent: requests carry no credential. */
  token?: string;
}

export interface Answer {
  status: number;
  body: string;
}

export function send(agent: Agent, target: Target, method: string, path: string, body?: string, accept = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept };
    if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(new URL(path, target.url), { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface Load {
  perSecond: number;
  p99Ms: number;
}

/** `total` requests over `concurrency` keep-alive connections; each must answer `expect`. */
export async function load(target: Target, concurrency: number, total: number, expect: number, make: (i: number) => { method: string; path: string; body?: string }): Promise<Load> {
  const agent = new Agent({ ca: target.ca, keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const r = make(next++);
        const t0 = performance.now();
        const answer = await send(agent, target, r.method, r.path, r.body);
        latencies.push(performance.now() - t0);
        if (answer.status !== expect) throw new Error(`${r.method} ${r.path}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p99Ms: latencies[Math.floor(latencies.length * 0.99)]! };
}
