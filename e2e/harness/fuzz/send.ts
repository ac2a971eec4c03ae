/**
 * Sends one fuzz request exactly as generated (the path is not normalized, the body is raw
 * bytes) over HTTPS and collects the answer. A watch is read for a moment, then hung up on.
 */
import { Agent, request } from 'node:https';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { FuzzRequest } from './requests.js';

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The client stopped reading (a watch still streaming, or a body over the read limit). */
  cut: boolean;
}

/** The request never got an answer: its connection failed or it timed out. */
export interface NoAnswer {
  error: string;
}

/** Node's client refused to send it (e.g. a character it will not put in a path): nothing reached the server. */
export interface Unsendable {
  unsendable: string;
}

const WATCH_READ_MS = 1_500;
const TIMEOUT_MS = 20_000;
const READ_LIMIT = 16 * 1024 * 1024;

export function fuzzAgent(caCert: string, concurrency: number): Agent {
  return new Agent({ ca: caCert, keepAlive: true, maxSockets: concurrency });
}

/** A connection for one request, when a kept-alive one was reset (see `send`). */
const freshConnection = new Agent({ keepAlive: false });

/**
 * Sends `req` on a kept-alive connection of `agent`. When that connection turns out closed (the
 * server may close a connection after answering an error, and an idle one at any time), the
 * request is sent once more on a fresh connection and `retried` says so.
 */
export async function send(agent: Agent, port: number, caCert: string, req: FuzzRequest): Promise<(FuzzResponse & { retried?: boolean }) | NoAnswer | Unsendable> {
  const first = await sendOn(agent, port, undefined, req);
  if (!('error' in first) || !/ECONNRESET|EPIPE|socket hang up/.test(first.error)) return first;
  const second = await sendOn(freshConnection, port, caCert, req);
  return 'status' in second ? { ...second, retried: true } : second;
}

function sendOn(agent: Agent, port: number, ca: string | undefined, req: FuzzRequest): Promise<FuzzResponse | NoAnswer | Unsendable> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: FuzzResponse | NoAnswer | Unsendable): void => {
      if (!settled) resolve(result);
      settled = true;
    };
    const headers: Record<string, string> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = String(req.body.length);
    let outgoing: ReturnType<typeof request>;
    try {
      outgoing = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent, ca, timeout: TIMEOUT_MS });
    } catch (err) {
      done({ unsendable: (err as Error).message });
      return;
    }
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let cut = false;
      const finish = (): void => {
        let body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        try {
          if (!cut && encoding === 'gzip') body = gunzipSync(body);
          if (!cut && encoding === 'deflate') body = inflateSync(body);
        } catch (err) {
          done({ error: `answer not decodable as ${encoding}: ${(err as Error).message}` });
          return;
        }
        done({ status: res.statusCode ?? 0, headers: res.headers, body, cut });
      };
      const stop = (): void => {
        cut = true;
        res.destroy();
        finish();
      };
      const watchTimer = req.watch ? setTimeout(stop, WATCH_READ_MS) : undefined;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > READ_LIMIT) stop();
      });
      res.on('end', () => {
        clearTimeout(watchTimer);
        finish();
      });
      res.on('error', (err) => {
        clearTimeout(watchTimer);
        if (!cut) done({ error: `answer broken: ${err.message}` });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    outgoing.on('error', (err) => done({ error: err.message }));
    outgoing.end(req.body);
  });
}
