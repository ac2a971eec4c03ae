/**
 * The API's resource routes: two catch-all routes (`/api/*`, `/apis/*`), none per kind. The path
 * was parsed once into request info (see `request-info.ts`); here the request finds its kind in
 * its space's view of the registry and is handed to the handler for its verb.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/status.js';
import { resolveResource, type ResourceRequest } from './handlers/resolve-resource.js';
import { warningHeaders } from './warning-headers.js';
import { handleGet, handleList } from './handlers/read-handlers.js';
import { handleCreate, handleDelete, handleDeleteCollection, handlePatch, handleUpdate } from './handlers/write-handlers.js';
import { handleWatch } from './handlers/watch-handler.js';
import type { ApiRoutesOptions, HandlerDeps, WatchStreams } from './handlers/handler-deps.js';
import { discoveryHandler } from './discovery-routes.js';

type Handler = (deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const handlers: Record<ResourceRequest['verb'], Handler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

export const apiRoutes: FastifyPluginAsync<ApiRoutesOptions> = async (app, options) => {
  const watches: WatchStreams = new Set();
  const deps: HandlerDeps = { ...options, watches };
  // Open watches end cleanly when the server closes (their clients re-watch elsewhere).
  app.addHook('preClose', async () => {
    for (const w of watches) w.close();
  });

  const route = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const ctx = request.kube;
    const info = ctx?.info;
    if (!ctx || !info) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    if (info.kind === 'nonresource') return discoveryHandler(options.registry, ctx, request, reply);
    const req = resolveResource(options.registry, ctx, info);
    // Writes add their own warnings after it (write-handlers), watches copy it into their head.
    if (req.def.deprecationWarning) reply.header('Warning', warningHeaders([req.def.deprecationWarning]));
    return handlers[req.verb](deps, req, request, reply);
  };

  for (const prefix of ['/api', '/apis']) {
    app.all(prefix, route);
    app.all(`${prefix}/*`, route);
  }
};
