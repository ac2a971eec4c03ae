/**
 * Discovery answers for the non-resource paths under `/api` and `/apis` (in any tenant form),
 * computed for the caller's space. Aggregated discovery when the client lists it in Accept
 * (v2 preferred, then v2beta1), legacy documents otherwise. Aggregated discovery carries an ETag,
 * as kube-apiserver's (`"<SHA-512 in upper-case hex>"`), and answers a matching If-None-Match
 * with 304: a client that cached it revalidates, and sees a space's new CRD on its next request.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  type AggregatedVersion,
} from '../../api/discovery/discovery.js';
import type { ResourceRegistry } from '../../api/registry/registry.js';
import type { KubeRequestContext } from './request-context.js';
import { encodeJson, requestWantsPretty, sendText } from './json-body.js';
import { ApiError } from '../../api/status.js';

function aggregatedVersionAsked(accept: string | undefined): AggregatedVersion | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const params = part.split(';').map((s) => s.trim());
    if (!params.includes('g=apidiscovery.k8s.io') || !params.includes('as=APIGroupDiscoveryList')) continue;
    if (params.includes('v=v2')) return 'v2';
    if (params.includes('v=v2beta1')) return 'v2beta1';
  }
  return undefined;
}

const notFound = (): ApiError => new ApiError(404, 'NotFound', 'the server could not find the requested resource');

export async function discoveryHandler(registry: ResourceRegistry, ctx: KubeRequestContext, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  if (request.method !== 'GET' && request.method !== 'HEAD') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const view = registry.view(ctx.tenant);
  const parts = ctx.info!.path.split('/').filter((p) => p !== '');
  const send = (body: unknown, type = 'application/json'): FastifyReply => {
    if (body === undefined) throw notFound();
    return sendText(reply.code(200), type, encodeJson(body, { pretty: requestWantsPretty(request) }));
  };
  const aggregated = parts.length === 1 ? aggregatedVersionAsked(request.headers.accept) : undefined;
  if (aggregated) {
    const doc = aggregatedDiscovery(view, parts[0] === 'api', aggregated);
    const etag = `"${createHash('sha512').update(encodeJson(doc)).digest('hex').toUpperCase()}"`;
    reply.header('Cache-Control', 'public').header('Etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return send(doc, aggregatedContentType(aggregated));
  }

  if (parts[0] === 'api') {
    if (parts.length === 1) return send(apiVersions(request.hostname));
    if (parts.length === 2) return send(apiResourceList(view, '', parts[1]!));
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return send(apiGroupList(view));
    if (parts.length === 2) return send(apiGroup(view, parts[1]!));
    if (parts.length === 3) return send(apiResourceList(view, parts[1]!, parts[2]!));
  }
  throw notFound();
}
