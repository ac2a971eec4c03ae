/**
 * Response negotiation and request body decoding. Answers are JSON, YAML or a server-side Table
 * (`application/json;as=Table;v=v1;g=meta.k8s.io`); protobuf-preferring clients also accept JSON,
 * so they get JSON until protobuf encoding exists. Bodies arrive as JSON (parsed by Fastify) or as
 * a Buffer (YAML, patch types, no Content-Type at all), decoded here.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { ApiError } from './status.js';

export type ResponseFormat = { kind: 'json' } | { kind: 'yaml' } | { kind: 'table'; version: 'v1' | 'v1beta1' };

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const parsed: Record<string, string> = {};
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq > 0) parsed[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
    }
    return { type: type.toLowerCase(), params: parsed };
  });
}

/** Picks the first acceptable representation in the client's order, as kube-apiserver does. */
export function negotiateFormat(accept: string | undefined, tableAllowed: boolean): ResponseFormat {
  if (!accept) return { kind: 'json' };
  for (const range of parseAccept(accept)) {
    if (range.params['as'] === 'Table') {
      if (!tableAllowed || range.params['g'] !== 'meta.k8s.io') continue;
      if (range.params['v'] === 'v1' || range.params['v'] === 'v1beta1') return { kind: 'table', version: range.params['v'] };
      continue;
    }
    if (range.params['as'] !== undefined) continue;
    if (range.type === 'application/yaml') return { kind: 'yaml' };
    if (range.type === 'application/json' || range.type === '*/*' || range.type === 'application/*' || range.type === 'application/vnd.kubernetes.protobuf') {
      return { kind: 'json' };
    }
  }
  throw new ApiError(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
}

/** Sends a body in the negotiated format (Table conversion happens before, in the handler). */
export function sendFormatted(reply: FastifyReply, code: number, format: ResponseFormat, body: unknown): FastifyReply {
  reply.code(code);
  if (format.kind === 'yaml') return reply.type('application/yaml').send(toYaml(body));
  return reply.type('application/json').send(JSON.stringify(body));
}

/** The media type of a request body, without parameters. */
export function contentType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Decodes a request body into a JSON value; a body that does not decode is 400 BadRequest. */
export function decodeBody(request: FastifyRequest): unknown {
  const body = request.body;
  if (!Buffer.isBuffer(body)) return body ?? null;
  const type = contentType(request);
  const text = body.toString('utf8');
  if (type === 'application/vnd.kubernetes.protobuf') {
    throw new ApiError(415, 'UnsupportedMediaType', 'the body of the request was in an unsupported format: application/vnd.kubernetes.protobuf');
  }
  try {
    if (type === 'application/yaml' || type === 'application/apply-patch+yaml') return parseYaml(text);
    return JSON.parse(text);
  } catch (err) {
    const what = type === 'application/yaml' ? 'yaml' : 'json';
    throw new ApiError(400, 'BadRequest', `error decoding ${what}: ${(err as Error).message}`);
  }
}
