/**
 * `/openapi/v2` (a minimal protobuf document kubectl accepts) and `/openapi/v3` (root and one
 * document per group/version), computed once per space view and served from memory.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  documentHash,
  groupVersionDocument,
  openApiRoot,
  OPENAPI_V2_CONTENT_TYPE,
  OPENAPI_V2_STUB,
  type OpenApiDocument,
} from '../../api/openapi/openapi-v3.js';
import type { RegistryView, ResourceRegistry } from '../../api/registry/registry.js';
import { ApiError } from './status.js';

export interface OpenApiRoutesOptions {
  registry: ResourceRegistry;
  kubeVersion: string;
}

interface CachedDocument {
  body: string;
  hash: string;
}

export const openApiRoutes: FastifyPluginAsync<OpenApiRoutesOptions> = async (app, options) => {
  const cache = new WeakMap<RegistryView, Map<string, CachedDocument | null>>();

  const documentFor = (view: RegistryView, group: string, version: string): CachedDocument | null => {
    let docs = cache.get(view);
    if (!docs) cache.set(view, (docs = new Map()));
    const key = `${group}/${version}`;
    let cached = docs.get(key);
    if (cached === undefined) {
      const doc: OpenApiDocument | undefined = groupVersionDocument(view, group, version, options.kubeVersion);
      cached = doc ? { body: JSON.stringify(doc), hash: documentHash(doc) } : null;
      docs.set(key, cached);
    }
    return cached;
  };

  const viewOf = (request: FastifyRequest): RegistryView => options.registry.view(request.kube?.tenant ?? '');

  app.get('/openapi/v2', async (_request, reply) => reply.type(OPENAPI_V2_CONTENT_TYPE).send(OPENAPI_V2_STUB));

  app.get('/openapi/v3', async (request, reply) => {
    const info = request.kube?.info;
    const urlPrefix = info?.tenantForm === 'prefix' ? `/tenants/${encodeURIComponent(info.tenant!)}` : '';
    const view = viewOf(request);
    return reply.type('application/json').send(openApiRoot(view, urlPrefix, (g, v) => documentFor(view, g, v)?.hash ?? ''));
  });

  app.get('/openapi/v3/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const parts = ((request.params as { '*': string })['*'] ?? '').split('/').filter((p) => p !== '');
    const gv = parts[0] === 'api' && parts.length === 2 ? { group: '', version: parts[1]! } : parts[0] === 'apis' && parts.length === 3 ? { group: parts[1]!, version: parts[2]! } : undefined;
    const doc = gv && documentFor(viewOf(request), gv.group, gv.version);
    if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    // A hashed URL names immutable content; clients may cache it for good.
    if ((request.query as Record<string, unknown>)['hash'] === doc.hash) reply.header('Cache-Control', 'public, immutable');
    return reply.type('application/json').header('Etag', `"${doc.hash}"`).send(doc.body);
  });
};
