/**
 * Runs the fuzz generator against a server for a bounded time with a few requests in flight,
 * checking every answer, and keeps what a report needs: counts by status, each failure with
 * its request, and when each request was in flight (to name the requests behind a loop stall).
 */
import { readFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { checkAnswer, type Failure } from './check.js';
import type { LoopSample } from './loop-probe.js';
import { generateRequest, type Credentials, type FuzzRequest } from './requests.js';
import { send } from './send.js';

export interface RunOptions {
  agent: Agent;
  port: number;
  caCert: string;
  seed: number;
  seconds: number;
  /** At most this many requests in all. */
  maxRequests: number;
  concurrency: number;
  credentials: Credentials;
  /** Only this request (replay of one failure). */
  only?: number;
  /** Requests not to send (counted as skipped). */
  skip?: (req: FuzzRequest) => boolean;
  /** Called every few seconds while the run goes on (readiness check, fixtures); may record failures. */
  every?: { ms: number; run: () => Promise<void> };
  /** False once the server process is gone: the run stops. */
  alive: () => boolean;
}

export interface RunResult {
  requests: number;
  unsendable: number;
  /** Answered only on a fresh connection, the kept-alive one having been closed. */
  retried: number;
  skipped: number;
  byStatus: Map<string, number>;
  failures: Array<{ req: FuzzRequest; failure: Failure }>;
  /** [start, end] (Date.now()) of each request, by index. */
  spans: Map<number, [number, number]>;
  startedAt: number;
  endedAt: number;
}

export async function runFuzz(o: RunOptions): Promise<RunResult> {
  const result: RunResult = { requests: 0, unsendable: 0, retried: 0, skipped: 0, byStatus: new Map(), failures: [], spans: new Map(), startedAt: Date.now(), endedAt: 0 };
  const deadline = result.startedAt + o.seconds * 1000;
  let next = o.only ?? 0;
  const last = o.only ?? o.maxRequests - 1;
  const count = (key: string): void => void result.byStatus.set(key, (result.byStatus.get(key) ?? 0) + 1);

  const worker = async (): Promise<void> => {
    while (next <= last && Date.now() < deadline && o.alive()) {
      const req = generateRequest(o.seed, next++, o.credentials);
      if (o.only === undefined && o.skip?.(req)) {
        result.skipped += 1;
        continue;
      }
      const start = Date.now();
      const answer = await send(o.agent, o.port, o.caCert, req);
      result.spans.set(req.index, [start, Date.now()]);
      if ('unsendable' in answer) {
        result.unsendable += 1;
        continue;
      }
      result.requests += 1;
      if ('retried' in answer && answer.retried) result.retried += 1;
      count('error' in answer ? 'no answer' : String(answer.status));
      const failure = checkAnswer(req, answer);
      if (failure) result.failures.push({ req, failure });
    }
  };
  let periodic: NodeJS.Timeout | undefined;
  let chores: Promise<void> | undefined;
  if (o.every) {
    const { ms, run } = o.every;
    // One round at a time: a slow server must not pile rounds up.
    periodic = setInterval(() => void (chores ??= run().finally(() => (chores = undefined))), ms);
  }
  try {
    await Promise.all(Array.from({ length: o.only === undefined ? o.concurrency : 1 }, worker));
  } finally {
    clearInterval(periodic);
    await chores;
  }
  result.endedAt = Date.now();
  return result;
}

/** The distinct errors the server logged (pino level ≥ 50), each with the start of its stack. */
export function serverErrors(output: string): string[] {
  const seen = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: { level?: number; msg?: string; err?: { message?: string; stack?: string } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 50) continue;
    const key = `${entry.msg}: ${(entry.err?.stack ?? entry.err?.message ?? '').split('\n').slice(0, 4).join(' | ')}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([key, n]) => `x${n} ${key}`);
}

/** The probe's samples (see loop-probe.ts) taken during [from, to]. */
export function loopSamples(file: string, from: number, to: number): LoopSample[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoopSample)
    .filter((s) => s.t >= from && s.t <= to);
}

/** The requests in flight during a probe interval ending at `t` (the probe samples every 250 ms). */
export function inFlight(spans: Map<number, [number, number]>, t: number, windowMs: number): number[] {
  const out: number[] = [];
  for (const [index, [start, end]] of spans) if (start <= t && end >= t - windowMs) out.push(index);
  return out;
}

/** A request as a failure report shows it: enough to replay it by hand or by seed. */
export function describeRequest(req: FuzzRequest, seed: number): string {
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${k === 'authorization' ? `<${req.identity}>` : v.length > 120 ? `${v.slice(0, 120)}… (${v.length} chars)` : v}`)
    .join('; ');
  const body = req.body === undefined ? '' : `\n    body (${req.body.length} bytes): ${JSON.stringify(req.body.subarray(0, 240).toString('latin1'))}`;
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length} chars)` : req.path;
  return `#${req.index} [${req.identity}] ${req.method} ${path}\n    headers: ${headers}\n    tags: ${req.tags.join(' ')}${body}\n    replay: FUZZ_SEED=${seed} FUZZ_REQUEST=${req.index}`;
}
