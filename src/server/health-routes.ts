/**
 * `/healthz`, `/livez` and `/readyz`, answered as kube-apiserver answers them: `ok`, or with
 * `?verbose` one `[+]name ok` line per check and `<endpoint> check passed`; a failing check is
 * `[-]name failed: reason withheld` (the reason goes to the log), `<endpoint> check failed` and
 * 500. `/<endpoint>/<check>` runs a single check.
 *
 *   livez:   ping                      (the process answers)
 *   healthz: ping, storage             (the backend answers too)
 *   readyz:  ping, storage, shutdown   (and the server is not shutting down)
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../storage/store.js';
import { ApiError } from '../../api/status.js';

interface HealthCheck {
  name: string;
  /** Resolves when healthy; the rejection's message is logged, never sent. */
  run(): Promise<void>;
}

export interface HealthRoutesOptions {
  store: Pick<Store, 'ping'>;
  /** True once graceful shutdown has begun: readyz fails so load balancers stop sending traffic. */
  isShuttingDown(): boolean;
}

interface CheckResult {
  name: string;
  ok: boolean;
}

export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, options) => {
  const ping: HealthCheck = { name: 'ping', run: async () => {} };
  const storage: HealthCheck = { name: 'storage', run: () => options.store.ping() };
  const shutdown: HealthCheck = {
    name: 'shutdown',
    run: async () => {
      if (options.isShuttingDown()) throw new Error('the server is shutting down');
    },
  };
  registerEndpoint('livez', [ping]);
  registerEndpoint('healthz', [ping, storage]);
  registerEndpoint('readyz', [ping, storage, shutdown]);

  function registerEndpoint(endpoint: string, checks: readonly HealthCheck[]): void {
    const all = async (request: FastifyRequest, reply: FastifyReply) => {
      const results = await Promise.all(checks.map((check) => runCheck(request, endpoint, check)));
      const failed = results.some((r) => !r.ok);
      const verbose = Object.hasOwn(request.query as object, 'verbose');
      let body = 'ok';
      if (failed || verbose) {
        const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
        body = `${lines.join('\n')}\n${endpoint} check ${failed ? 'failed' : 'passed'}\n`;
      }
      return sendText(reply, failed ? 500 : 200, body);
    };
    const one = async (request: FastifyRequest<{ Params: { check: string } }>, reply: FastifyReply) => {
      const check = checks.find((c) => c.name === request.params.check);
      if (!check) throw new ApiError(404, 'NotFound', `${endpoint} check "${request.params.check}" not found`);
      const result = await runCheck(request, endpoint, check);
      return result.ok ? sendText(reply, 200, 'ok') : sendText(reply, 500, 'internal server error: reason withheld\n');
    };
    app.get(`/${endpoint}`, all);
    app.get(`/${endpoint}/`, all);
    app.get(`/${endpoint}/:check`, one);
  }
};

async function runCheck(request: FastifyRequest, endpoint: string, check: HealthCheck): Promise<CheckResult> {
  try {
    await check.run();
    return { name: check.name, ok: true };
  } catch (err) {
    request.log.warn({ err, check: check.name }, `${endpoint} check failed`);
    return { name: check.name, ok: false };
  }
}

function sendText(reply: FastifyReply, code: number, body: string): FastifyReply {
  return reply.code(code).header('x-content-type-options', 'nosniff').type('text/plain; charset=utf-8').send(body);
}
