/**
 * The costly part of decoding large request bodies, off the event loop. The `yaml` package
 * decodes about 1 MB a second, and the JSON syntax scan (Go's messages, duplicate keys, bounds)
 * runs at tens of milliseconds per MB in JavaScript: large bodies decoded inline would stall every
 * tenant's requests. Bodies over the inline limits go to one worker thread instead (started on
 * first use, in order, unref'd); small ones stay inline where a round trip would cost more.
 *
 * @example
 *   const { value, duplicateFields } = await decodeYamlBody(text); // throws YamlDecodeError
 *   const { error, duplicateFields, value } = await decodeJsonBody(text); // value unless error
 */
import { Worker } from 'node:worker_threads';
import { scanJson, type JsonScan } from '../../api/schema/json-syntax.js';
import { decodeYaml, YamlDecodeError, type DecodedYaml } from '../../api/schema/yaml-body.js';

/** Measured: 16 KiB of YAML (about a thousand keys) decodes in a few milliseconds on an idle core. */
export const YAML_INLINE_LIMIT = 16 * 1024;
/** Measured: 64 KiB of JSON scans in about a millisecond; a round trip costs about as much. */
export const JSON_INLINE_LIMIT = 64 * 1024;

export interface BodyRequest {
  id: number;
  format: 'yaml' | 'json';
  text: string;
}

export interface BodyReply {
  id: number;
  /** YAML: the decoded value as JSON text, and the duplicate keys found. */
  json?: string;
  duplicateFields?: string[];
  /** JSON: the scan's result. */
  scan?: JsonScan;
  /** `bad`: the body does not decode (the client's error); otherwise a failure of ours. */
  error?: { bad: boolean; message: string };
}

interface Pending {
  resolve: (reply: BodyReply) => void;
  reject: (err: Error) => void;
}

interface DecoderThread {
  worker: Worker;
  /** Bodies sent to this worker, by request id. */
  pending: Map<number, Pending>;
}

let thread: DecoderThread | undefined;
let nextId = 0;

function startThread(): DecoderThread {
  const worker = new Worker(new URL('./body-decoder-worker.js', import.meta.url));
  const started: DecoderThread = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', (reply: BodyReply) => {
    const waiting = started.pending.get(reply.id);
    started.pending.delete(reply.id);
    waiting?.resolve(reply);
  });
  // A worker that dies fails what it held; the next large body starts a new one.
  const fail = (err: Error): void => {
    if (thread === started) thread = undefined;
    for (const waiting of started.pending.values()) waiting.reject(err);
    started.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the body decoding worker exited with code ${code}`)));
  return started;
}

function offThread(format: BodyRequest['format'], text: string): Promise<BodyReply> {
  const target = (thread ??= startThread());
  const id = nextId++;
  return new Promise((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    target.worker.postMessage({ id, format, text } satisfies BodyRequest);
  });
}

export async function decodeYamlBody(text: string): Promise<DecodedYaml> {
  if (text.length <= YAML_INLINE_LIMIT) return decodeYaml(text);
  const reply = await offThread('yaml', text);
  if (reply.json !== undefined) return { value: await parseInOwnTurn(reply.json), duplicateFields: reply.duplicateFields ?? [] };
  if (reply.error?.bad) throw new YamlDecodeError(reply.error.message);
  throw new Error(`YAML decoding failed: ${reply.error?.message ?? 'no reply'}`);
}

/** `scanJson` of a body, then (if it passed) the value, parsed on the loop, which V8 does fast. */
export async function decodeJsonBody(text: string): Promise<JsonScan & { value?: unknown }> {
  if (text.length <= JSON_INLINE_LIMIT) {
    const scan = scanJson(text);
    return scan.error === undefined ? { ...scan, value: JSON.parse(text) } : scan;
  }
  const reply = await offThread('json', text);
  if (reply.scan === undefined) throw new Error(`JSON scanning failed: ${reply.error?.message ?? 'no reply'}`);
  return reply.scan.error === undefined ? { ...reply.scan, value: await parseInOwnTurn(text) } : reply.scan;
}

let lastParseTurn: Promise<void> = Promise.resolve();

/**
 * Parses a large body's JSON in an event-loop turn no other large body parses in. A megabyte of
 * small objects takes V8 tens of milliseconds plus the garbage collection it causes; the worker's
 * replies for several bodies often arrive together, and parsed in the same turn they would add up
 * to one long stall for every tenant. An immediate queued from an immediate's callback runs in
 * the next turn, after the loop's timers and I/O.
 */
export function parseInOwnTurn(text: string): Promise<unknown> {
  const turn = lastParseTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastParseTurn = turn;
  return turn.then(() => JSON.parse(text) as unknown);
}
