/**
 * `GET /metrics` (Prometheus text format) and the hook that counts every request into it. The
 * route is authorized like any non-resource path (`get` on `/metrics`: the `system:monitoring`
 * group, or the system admin), and only for users of the system space (authz/authorize.ts).
 *
 * @example
 *   recordRequestMetrics(app, metrics);            // first onRequest hook, before authentication
 *   app.register(metricsRoutes, { metrics });
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ApiMetrics } from './metrics.js';
import { requestInfoOf } from './request-context.js';

/**
 * Counts each request when its response closes (watches and other streams included, which
 * Fastify's onResponse does not see once hijacked), under the series request-info parsed, so
 * requests refused by authentication or authorization count with their 401 or 403.
 */
export function recordRequestMetrics(app: FastifyInstance, metrics: ApiMetrics): void {
  app.addHook('onRequest', (request, reply, done) => {
    const series = metrics.requestStarted(requestInfoOf(request.raw), request.method, request.headers['content-type']);
    const started = performance.now();
    reply.raw.once('close', () => metrics.requestEnded(series, reply.raw.statusCode, (performance.now() - started) / 1000));
    done();
  });
}

export const metricsRoutes: FastifyPluginAsync<{ metrics: ApiMetrics }> = async (app, { metrics }) => {
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));
};
