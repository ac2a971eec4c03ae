/**
 * What a request carries through the layers: one decoration, `request.kube`, declared null at
 * boot (Fastify refuses shared object values, which would leak between requests) and set by the
 * authentication hook in `onRequest`. Request info and the resolved tenant join it later.
 *
 * @example
 *   app.get('/x', async (request) => request.kube?.user.name);
 */
import type { FastifyInstance } from 'fastify';
import type { UserInfo } from '../../authz/user.js';

export interface KubeRequestContext {
  /** The authenticated identity, or the anonymous user on the paths open to everyone. */
  user: UserInfo;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null only before `onRequest` has run (e.g. for errors raised while routing). */
    kube: KubeRequestContext | null;
  }
}

export function declareRequestContext(app: FastifyInstance): void {
  app.decorateRequest('kube', null);
}
