/**
 * `/openapi/v2` (the whole Swagger document, in JSON or gnostic protobuf) and `/openapi/v3` (root
 * and one document per group/version), computed once per space view and served from memory.
 * Hashes and ETags are kube-openapi's: the SHA-512 of the JSON bytes, in upper-case hex.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SWAGGER_PROTOBUF, SWAGGER_PROTOBUF_DEPRECATED, swaggerDocument, swaggerProtobuf } from '../../api/openapi/openapi-v2.js';
import { groupVersionDocument, openApiRoot } from '../../api/openapi/openapi-v3.js';
import type { RegistryView, ResourceRegistry } from '../../api/registry/registry.js';
import { ApiError } from '../../api/status.js';
import { goEscape } from './json-body.js';

export interface OpenApiRoutesOptions {
  registry: ResourceRegistry;
  kubeVersion: string;
}

interface CachedDocument {
  /** Bytes, so the Content-Type goes out as given (a string body would gain `; charset=utf-8`). */
  body: Buffer;
  hash: string;
}

/** The one place OpenAPI documents become JSON text. */
/** kube-openapi's bytes: Go's escaping, no trailing newline (it marshals without an encoder). */
function jsonText(doc: unknown): string {
  return goEscape(JSON.stringify(doc));
}

function cached(doc: unknown): CachedDocument {
  const body = Buffer.from(jsonText(doc));
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

/** The v2 document of one view: JSON at once, protobuf on first demand (most clients want one or the other). */
interface SwaggerCache {
  json: CachedDocument;
  protobuf?: Buffer;
}

type DocumentForm = 'json' | 'protobuf';

/** What `/openapi/v2` serves: JSON and gnostic protobuf, in both spellings. */
const SWAGGER_FORMS: ReadonlyArray<[string, DocumentForm]> = [
  ['application/json', 'json'],
  [SWAGGER_PROTOBUF_DEPRECATED, 'protobuf'],
  [SWAGGER_PROTOBUF, 'protobuf'],
];
/** What a `/openapi/v3` group-version document is served as (no v3 protobuf yet). */
const V3_FORMS: ReadonlyArray<[string, DocumentForm]> = [['application/json', 'json']];

/**
 * kube-openapi's choice of form: the first Accept clause (by q) that names one of `offered`,
 * wildcards included; none of them is a 406.
 */
function documentFormAsked(accept: string | undefined, offered: ReadonlyArray<[string, DocumentForm]>): DocumentForm | undefined {
  const clauses = (accept || '*/*').split(',').map((part, index) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { type, q: q ? Number(q.slice(2)) : 1, index };
  });
  clauses.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type, q } of clauses) {
    if (q <= 0) continue;
    const [major, minor] = type.split('/');
    const match = offered.find(([t]) => {
      const [tMajor, tMinor] = t.split('/');
      return (major === tMajor || major === '*') && (minor === tMinor || minor === '*');
    });
    if (match) return match[1];
  }
  return undefined;
}

/** kube-openapi answers a bare 406; ours is a Status, as every error answer here is. */
function notAcceptable(types: string): ApiError {
  return new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${types}`);
}

/** Whether an If-None-Match header names this ETag (or `*`), as Go's http.ServeContent checks it. */
function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

export const openApiRoutes: FastifyPluginAsync<OpenApiRoutesOptions> = async (app, options) => {
  const v3Cache = new WeakMap<RegistryView, Map<string, CachedDocument | null>>();
  const v2Cache = new WeakMap<RegistryView, SwaggerCache>();

  const documentFor = (view: RegistryView, group: string, version: string): CachedDocument | null => {
    let docs = v3Cache.get(view);
    if (!docs) v3Cache.set(view, (docs = new Map()));
    const key = `${group}/${version}`;
    let doc = docs.get(key);
    if (doc === undefined) {
      const built = groupVersionDocument(view, group, version, options.kubeVersion);
      doc = built ? cached(built) : null;
      docs.set(key, doc);
    }
    return doc;
  };

  const swaggerFor = (view: RegistryView): SwaggerCache => {
    let entry = v2Cache.get(view);
    if (!entry) v2Cache.set(view, (entry = { json: cached(swaggerDocument(view, options.kubeVersion)) }));
    return entry;
  };

  const viewOf = (request: FastifyRequest): RegistryView => options.registry.view(request.kube?.tenant ?? '');

  app.get('/openapi/v2', async (request, reply) => {
    reply.header('Vary', 'Accept');
    const form = documentFormAsked(request.headers.accept, SWAGGER_FORMS);
    if (!form) throw notAcceptable(`application/json, ${SWAGGER_PROTOBUF_DEPRECATED}`);
    const doc = swaggerFor(viewOf(request));
    const etag = `"${doc.json.hash}"`;
    reply.header('Etag', etag);
    if (noneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    reply.type(form === 'json' ? 'application/json' : SWAGGER_PROTOBUF);
    if (form === 'json') return reply.send(doc.json.body);
    // As kube-openapi does, the protobuf form is made from the JSON bytes (once).
    doc.protobuf ??= Buffer.from(swaggerProtobuf(JSON.parse(doc.json.body.toString())));
    return reply.send(doc.protobuf);
  });

  app.get('/openapi/v3', async (request, reply) => {
    const info = request.kube?.info;
    const urlPrefix = info?.tenantForm === 'prefix' ? `/tenants/${encodeURIComponent(info.tenant!)}` : '';
    const view = viewOf(request);
    return reply.type('application/json').send(Buffer.from(jsonText(openApiRoot(view, urlPrefix, (g, v) => documentFor(view, g, v)?.hash ?? ''))));
  });

  app.get('/openapi/v3/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const parts = ((request.params as { '*': string })['*'] ?? '').split('/').filter((p) => p !== '');
    const gv = parts[0] === 'api' && parts.length === 2 ? { group: '', version: parts[1]! } : parts[0] === 'apis' && parts.length === 3 ? { group: parts[1]!, version: parts[2]! } : undefined;
    const doc = gv && documentFor(viewOf(request), gv.group, gv.version);
    if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    reply.header('Vary', 'Accept');
    if (!documentFormAsked(request.headers.accept, V3_FORMS)) throw notAcceptable('application/json');
    // A hashed URL names immutable content; clients may cache it for good.
    if ((request.query as Record<string, unknown>)['hash'] === doc.hash) reply.header('Cache-Control', 'public, immutable');
    const etag = `"${doc.hash}"`;
    reply.header('Etag', etag);
    if (noneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/json').send(doc.body);
  });
};
