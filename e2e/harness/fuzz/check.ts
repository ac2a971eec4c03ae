/**
 * The fuzz test's response checker: strict, with no knowledge of known bugs (the test's
 * KNOWN_OPEN list decides what may still fail). An answer passes when it is
 * - not a 5xx (storage is never down in this test),
 * - for a HEAD or a 304, anything else;
 * - for any other non-2xx, a Status (JSON, or protobuf when the answer says protobuf) whose
 *   `code` is the HTTP status;
 * - for a 2xx, a body that parses as its Content-Type says: JSON (an object; on API paths with a
 *   `kind`), a stream of watch events, YAML, protobuf, or the health endpoints' plain text.
 */
import { parseAllDocuments } from 'yaml';
import { decodeObject, decodeWatchFrames } from '../../../api/protobuf/codec.js';
import { PROTOBUF, type FuzzRequest } from './requests.js';
import type { FuzzResponse, NoAnswer } from './send.js';
import { BODY_LIMIT } from '../../../src/server/app.js';

export interface Failure {
  /** The failure class: `5xx`, `no-answer`, `not-a-status`, `bad-body`. */
  kind: string;
  detail: string;
}

type Json = Record<string, unknown>;

function contentType(res: FuzzResponse): string {
  const value = res.headers['content-type'];
  return (Array.isArray(value) ? value[0] : value)?.split(';')[0]?.trim().toLowerCase() ?? '';
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why `status` is not a Status for an answer of HTTP `code`, or undefined. */
function statusProblem(status: unknown, code: number): string | undefined {
  if (!isObject(status)) return 'not an object';
  if (status.kind !== 'Status' || status.apiVersion !== 'v1') return `kind ${String(status.kind)} apiVersion ${String(status.apiVersion)}`;
  if (status.status !== 'Failure') return `status ${String(status.status)}`;
  if (status.code !== code) return `code ${String(status.code)} for HTTP ${code}`;
  if (typeof status.message !== 'string') return 'no message';
  if (status.reason !== undefined && typeof status.reason !== 'string') return 'reason not a string';
  return undefined;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Splits a protobuf watch stream into whole frames (4-byte big-endian length prefixes). */
function wholeFrames(body: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let at = 0;
  while (at + 4 <= body.length) {
    const length = body.readUInt32BE(at);
    if (at + 4 + length > body.length) break;
    frames.push(body.subarray(at, at + 4 + length));
    at += 4 + length;
  }
  return frames;
}

function isApiPath(path: string): boolean {
  return /^(\/tenants\/[^/?]*)?\/apis?(\/|\?|$)/.test(path);
}

/** Why a 2xx body does not parse as its Content-Type says, or undefined. */
function bodyProblem(req: FuzzRequest, res: FuzzResponse): string | undefined {
  const type = contentType(res);
  // A watch may end before any event (timeoutSeconds); a write always answers an object.
  if (res.body.length === 0) return res.status === 204 || (req.watch && req.method === 'GET') ? undefined : `empty ${type} body`;
  if (type === 'application/json') {
    const text = res.body.toString('utf8');
    // A watch asked of something that cannot be watched (discovery, a subresource) answers a plain object.
    if (req.watch && !(!res.cut && isObject(parseOrUndefined(text)))) {
      const lines = text.split('\n');
      if (res.cut) lines.pop(); // the line being written when the client hung up
      for (const line of lines.filter((l) => l !== '')) {
        const event = JSON.parse(line) as unknown;
        if (!isObject(event) || typeof event.type !== 'string' || !isObject(event.object) || typeof event.object.kind !== 'string') return `watch event ${line.slice(0, 200)}`;
      }
      return undefined;
    }
    if (res.cut) return undefined;
    const value = JSON.parse(text) as unknown;
    if (!isObject(value)) return 'JSON that is not an object';
    if (isApiPath(req.path) && typeof value.kind !== 'string') return 'an API answer with no kind';
    return undefined;
  }
  if (type === 'application/yaml') {
    if (res.cut) return undefined;
    const errors = parseAllDocuments(res.body.toString('utf8')).flatMap((d) => ('errors' in d ? d.errors : []));
    return errors.length > 0 ? `YAML: ${errors[0]!.message}` : undefined;
  }
  if (type === PROTOBUF) {
    if (req.watch) {
      for (const frame of wholeFrames(res.body)) decodeWatchFrames(frame);
      return undefined;
    }
    if (res.cut) return undefined;
    decodeObject(res.body);
    return undefined;
  }
  // Health checks and /metrics (Prometheus' text format, as kube-apiserver's) answer text/plain.
  if (type === 'text/plain') return /^(\/tenants\/[^/?]*)?\/(healthz|readyz|livez)/.test(req.path) || /^(\/tenants\/[^/?]*)?\/metrics(\?|\/|$)/.test(req.path) ? undefined : 'text/plain on a non-health path';
  // OpenAPI v2 in protobuf is opaque to us; it is only ever asked for by path.
  if (type.startsWith('application/com.github.proto-openapi')) return req.path.includes('/openapi/') ? undefined : `${type} outside /openapi`;
  return `unexpected Content-Type "${type}"`;
}

export function checkAnswer(req: FuzzRequest, res: FuzzResponse | NoAnswer): Failure | undefined {
  if ('error' in res) {
    // A body over the limit is refused (413) once its headers arrive and the connection closed,
    // so a client still writing it may see its write fail instead of the answer.
    if ((req.body?.length ?? 0) > BODY_LIMIT && /EPIPE|ECONNRESET|aborted|socket hang up/.test(res.error)) return undefined;
    return { kind: 'no-answer', detail: res.error };
  }
  if (res.status >= 500) return { kind: '5xx', detail: `${res.status} ${res.body.subarray(0, 300).toString('utf8')}` };
  if (req.method === 'HEAD' || res.status === 304) return undefined;
  if (res.status < 200 || res.status >= 300) {
    const type = contentType(res);
    let problem: string | undefined;
    try {
      const status = type === PROTOBUF ? decodeObject(res.body) : type === 'application/json' ? (JSON.parse(res.body.toString('utf8')) as unknown) : undefined;
      problem = status === undefined ? `Content-Type "${type}"` : statusProblem(status, res.status);
    } catch (err) {
      problem = `does not parse: ${(err as Error).message}`;
    }
    return problem === undefined ? undefined : { kind: 'not-a-status', detail: `${res.status}: ${problem}: ${res.body.subarray(0, 300).toString('utf8')}` };
  }
  try {
    const problem = bodyProblem(req, res);
    return problem === undefined ? undefined : { kind: 'bad-body', detail: `${res.status}: ${problem}` };
  } catch (err) {
    return { kind: 'bad-body', detail: `${res.status} ${contentType(res)} does not parse: ${(err as Error).message}` };
  }
}
