/**
 * JSON bodies with the bytes kube-apiserver writes. Go's `encoding/json` differs from
 * `JSON.stringify` in a few ways that clients comparing bodies byte for byte notice:
 * - `<`, `>` and `&` are escaped as `\u003c`, `\u003e`, `\u0026` (HTML-safe), and U+2028 and
 *   U+2029 as `\u2028`, `\u2029`;
 * - a lone UTF-16 surrogate cannot exist in a Go string (its decoder turns `"\ud800"` into
 *   U+FFFD), so it is written as U+FFFD, where `JSON.stringify` writes `\ud800`;
 * - `json.Encoder` ends every body with `\n` (objects, lists, Status, each watch event);
 *   the pretty serializer (`json.MarshalIndent` with two spaces) and `/version` do not.
 * Field order is the caller's: objects keep the order they were built in.
 *
 * @example
 *   encodeJson({ message: 'a<b' })        // '{"message":"a\\u003cb"}\n'
 *   encodeJson({ a: [] }, { pretty: true }) // '{\n  "a": []\n}'
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Characters that can only occur inside JSON strings, so replacing them anywhere in the text is safe. */
const GO_ESCAPED = /[<>&\u2028\u2029]/g;
const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `JSON.stringify`'s escape of a lone surrogate, preceded by an even run of backslashes (so not an escaped `\`). */
const LONE_SURROGATE = /(?<=(?:^|[^\\])(?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/** Go's escaping applied to the output of `JSON.stringify`. */
export function goEscape(text: string): string {
  // A single-character indexOf is a memchr over the text, some twenty times faster than the
  // regular expression's scan: a LIST of 10,000 objects (9 MiB) rarely holds any of them.
  let out = needsGoEscape(text) ? text.replace(GO_ESCAPED, (c) => GO_ESCAPES[c]!) : text;
  if (out.includes('\\ud')) out = out.replace(LONE_SURROGATE, '\ufffd');
  return out;
}

function needsGoEscape(text: string): boolean {
  return text.includes('<') || text.includes('>') || text.includes('&') || text.includes('\u2028') || text.includes('\u2029');
}

export interface JsonBodyOptions {
  /** Indented by two spaces and without the trailing newline, as kube-apiserver's pretty serializer. */
  pretty?: boolean;
}

/** A JSON body as kube-apiserver's JSON serializer writes it. */
export function encodeJson(value: unknown, options: JsonBodyOptions = {}): string {
  if (options.pretty) return goEscape(JSON.stringify(value, null, 2));
  return goEscape(JSON.stringify(value)) + '\n';
}

/**
 * Sends a text body (JSON, YAML) as bytes, so its Content-Type goes out exactly as given, as
 * kube-apiserver writes it: for a string body Fastify adds `; charset=utf-8` and re-spells the
 * parameters (`g="apidiscovery.k8s.io"`), which kube-apiserver never sends.
 */
export function sendText(reply: FastifyReply, contentType: string, text: string): FastifyReply {
  return reply.type(contentType).send(utf8Bytes(text));
}

/**
 * `text` in UTF-8. Most bodies are ASCII (Go escapes what HTML would read), whose UTF-8 is their
 * Latin-1: that copy is several times faster than the UTF-8 encoder, and the length that tells
 * them apart is counted faster still. `kept`: in memory of its own, not a slice of Node's shared
 * 8 KiB pool, which a kept slice would hold whole.
 */
export function utf8Bytes(text: string, kept = false): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const encoding = length === text.length ? 'latin1' : 'utf8';
  if (!kept) return Buffer.from(text, encoding);
  const bytes = Buffer.allocUnsafeSlow(length);
  bytes.write(text, 0, encoding);
  return bytes;
}

/** `wantsPretty` for a request: its first `pretty` query value and its User-Agent. */
export function requestWantsPretty(request: FastifyRequest): boolean {
  const param = (request.query as Record<string, string | string[] | undefined> | undefined)?.['pretty'];
  return wantsPretty(Array.isArray(param) ? param[0] : param, request.headers['user-agent']);
}

/**
 * Whether kube-apiserver would indent this response: `?pretty=` parsed as a Go bool when given
 * (anything unparsable is false), else a browser's or curl's or wget's User-Agent.
 */
export function wantsPretty(prettyParam: string | undefined, userAgent: string | undefined): boolean {
  if (prettyParam !== undefined && prettyParam !== '') return GO_TRUE.has(prettyParam);
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** The spellings `strconv.ParseBool` reads as true. */
const GO_TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
