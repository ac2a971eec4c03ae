/**
 * YAML request bodies off the event loop. The `yaml` package decodes about 1 MB a second, so a
 * large body decoded inline would stall every tenant's requests; bodies over `YAML_INLINE_LIMIT`
 * go to one worker thread instead (started on first use, in order, unref'd), small ones stay
 * inline where a worker round trip would cost more than the decoding.
 *
 * @example
 *   const { value, duplicateFields } = await decodeYamlBody(text); // throws YamlDecodeError
 */
import { Worker } from 'node:worker_threads';
import { decodeYaml, YamlDecodeError, type DecodedYaml } from '../../api/schema/yaml-body.js';

/** Measured: 16 KiB of YAML (about a thousand keys) decodes in a few milliseconds on an idle core. */
export const YAML_INLINE_LIMIT = 16 * 1024;

export interface YamlRequest {
  id: number;
  text: string;
}

export interface YamlReply {
  id: number;
  /** The decoded value as JSON text, and the duplicate keys found. */
  json?: string;
  duplicateFields?: string[];
  /** `bad`: the body does not decode (the client's error); otherwise a failure of ours. */
  error?: { bad: boolean; message: string };
}

interface Pending {
  resolve: (decoded: DecodedYaml) => void;
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
  const worker = new Worker(new URL('./yaml-decoder-worker.js', import.meta.url));
  const started: DecoderThread = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', (reply: YamlReply) => {
    const waiting = started.pending.get(reply.id);
    started.pending.delete(reply.id);
    if (!waiting) return;
    if (reply.json !== undefined) waiting.resolve({ value: JSON.parse(reply.json) as unknown, duplicateFields: reply.duplicateFields ?? [] });
    else if (reply.error?.bad) waiting.reject(new YamlDecodeError(reply.error.message));
    else waiting.reject(new Error(`YAML decoding failed: ${reply.error?.message ?? 'no reply'}`));
  });
  // A worker that dies fails what it held; the next large body starts a new one.
  const fail = (err: Error): void => {
    if (thread === started) thread = undefined;
    for (const waiting of started.pending.values()) waiting.reject(err);
    started.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the YAML decoding worker exited with code ${code}`)));
  return started;
}

export function decodeYamlBody(text: string): Promise<DecodedYaml> {
  if (text.length <= YAML_INLINE_LIMIT) {
    try {
      return Promise.resolve(decodeYaml(text));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  const target = (thread ??= startThread());
  const id = nextId++;
  return new Promise((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    target.worker.postMessage({ id, text } satisfies YamlRequest);
  });
}
