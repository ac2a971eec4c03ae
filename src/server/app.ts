/**
 * The Fastify application, built without listening: tests call `inject()`, the CLI listens.
 *
 * @example
 *   const app = buildApp({ store, authenticate, logger, buildInfo });
 *   const res = await app.inject({ url: '/readyz' }); // 'ok'
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Server } from 'node:https';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Http2SecureServer } from 'node:http2';
import type { Authenticator, TokenAuthenticator } from '../../authz/authenticate.js';
import type { Authorizer } from '../../authz/authorize.js';
import type { TenantExists } from '../../authz/resolve-tenant.js';
import type { Store } from '../../storage/store.js';
import { type BuildInfo, versionInfo } from './build-info.js';
import { authenticateRequest, type TenantUid } from './authenticate-request.js';
import { healthRoutes } from './health-routes.js';
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { WatchCaches } from '../../api/registry/watch-cache.js';
import type { ResourceRegistry } from '../../api/registry/registry.js';
import { apiRoutes } from './api-routes.js';
import type { NodeUsage } from './handlers/above-spaces.js';
import type { ServiceAccountTokens } from '../../authz/service-account-token.js';
import { openApiRoutes } from './openapi-routes.js';
import { declareRequestContext, rewriteRequestUrl } from './request-context.js';
import { sendStatus } from './negotiate.js';
import { answerClientError, dropStalledBodies, trackRequestMethods, REQUEST_TIMEOUT_MS, SERVER_CONNECTION_OPTIONS } from './connections.js';
import { applyHttp1Limits, http2ServerOptions, trackConnections, type Http2Options, type ServerConnections } from './http2-serving.js';
import { statusErrorHandler, statusNotFoundHandler } from './status.js';
import { statusFromError } from '../../api/status.js';
import { versionRoutes } from './version-routes.js';
import type { ApiMetrics } from './metrics.js';
import { metricsRoutes, recordRequestMetrics } from './metrics-routes.js';
import { recordAudit, type AuditRecorder } from './audit/audit-events.js';
import type { FlowControl } from './flowcontrol/dispatcher.js';

const AUDIT_ID = /^[A-Za-z0-9._-]{1,64}$/;

function auditId(req: IncomingMessage): string {
  const given = req.headers['audit-id'];
  return typeof given === 'string' && AUDIT_ID.test(given) ? given : randomUUID();
}

/** Request log lines name who asked, in which space, for what: bound once per request, after authentication. */
function bindRequestLog(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const kube = request.kube;
  if (kube) {
    const bindings = { user: kube.user.name, tenant: kube.tenant, verb: kube.info?.verb };
    request.log = request.log.child(bindings);
    reply.log = request.log;
  }
  done();
}

/** Kubernetes' limit on request bodies (3 MiB); larger bodies are 413 RequestEntityTooLarge. */
export const BODY_LIMIT = 3 * 1024 * 1024;

export interface AppDeps {
  store: Store;
  authenticate: Authenticator;
  logger: FastifyBaseLogger;
  buildInfo: BuildInfo;
  registry: ResourceRegistry;
  generic: GenericStore;
  /** Serves watches (the control plane's, shared with its controllers). */
  watchCaches: WatchCaches;
  /** Decides every request after authentication (the control plane's, with its RBAC view). */
  authorizer: Authorizer;
  /** Whether a tenant exists: credentials of a tenant that does not act nowhere. */
  tenantExists: TenantExists;
  /** The live Tenant's uid, against which credentials bound to a tenant's incarnation are checked. */
  tenantUid?: TenantUid;
  /** Authenticates bearer tokens alone, for TokenReviews. */
  reviewToken?: TokenAuthenticator;
  /**
   * PEM serving key and certificate, and the client CA whose subject the TLS handshake names when
   * it asks for a client certificate; without them the app speaks plain HTTP (tests use inject()).
   */
  tls?: { key: string; cert: string; clientCa: string };
  /** Signs service-account tokens (TokenRequest); without it no tokens are issued. */
  serviceAccountTokens?: ServiceAccountTokens;
  /** Which nodes run pods of which space (the control plane's), for a tenant's view of nodes. */
  nodeUsage?: NodeUsage;
  /** Counts requests and serves `/metrics`; without it there is no `/metrics`. */
  metrics?: ApiMetrics;
  /** Writes audit events as the audit policy says; without it nothing is audited. */
  audit?: AuditRecorder;
  /** HTTP/2 beside HTTP/1.1 on the TLS listener (on unless disabled); no effect without `tls`. */
  http2?: Http2Options;
  /** API Priority and Fairness; without it every request is served at once. */
  flowControl?: FlowControl;
}

/**
 * An HTTPS server in production (HTTP/2 and HTTP/1.1, or HTTP/1.1 only); plain HTTP when built
 * without `tls` (tests). Typed as the HTTP/1.1 server: HTTP/2 requests reach the handlers as
 * Node's compatibility request and response, which carry the same API, and the few places that
 * touch the connection itself ask `http2-serving.ts` which protocol they serve.
 */
export type KubeApp = FastifyInstance<Server> & { connections: ServerConnections };

/** The Fastify options that decide the listener: TLS with or without HTTP/2, or plain HTTP for inject(). */
function listenerOptions(deps: AppDeps): { http2?: true; https: object | null; http2SessionTimeout?: number } {
  if (!deps.tls) return { https: null };
  // Ask for a client certificate without requiring one: kubectl presents its certificate only
  // when asked, and token users have none. `ca` only names the client CA in the request (so
  // clients choosing a certificate by CA pick ours); Node judges nothing (rejectUnauthorized
  // false), the x509 authenticator does.
  const tls = { key: deps.tls.key, cert: deps.tls.cert, ca: deps.tls.clientCa, requestCert: true, rejectUnauthorized: false, ...SERVER_CONNECTION_OPTIONS };
  const http2 = deps.http2 ?? { enabled: true, maxStreamsPerConnection: 0 };
  if (!http2.enabled) return { https: tls };
  // Fastify's session timeout (72 s of no frames) would cut a connection whose only stream is a
  // quiet watch; trackConnections closes connections with no stream open instead.
  return { http2: true, https: { ...tls, ...http2ServerOptions(http2.maxStreamsPerConnection) }, http2SessionTimeout: 0 };
}

export function buildApp(deps: AppDeps): KubeApp {
  const listener = listenerOptions(deps);
  // A line per request only from debug (`--v=2`) on, as kube-apiserver logs requests only when
  // verbose: at info, two lines per request (and a pino child to bind them) cost a GET about a
  // third of its time. Other lines name the request by its id, the audit ID.
  const requestLogging = deps.logger.level === 'debug' || deps.logger.level === 'trace';
  const fastify = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: !requestLogging }),
    bodyLimit: BODY_LIMIT,
    // Requests still arriving on open connections while closing are served (with
    // `Connection: close`), instead of Fastify's non-Status 503.
    return503OnClosing: false,
    // Errors raised before routing (e.g. a malformed URL) answer with a Status too.
    frameworkErrors: (err, request, reply) => sendStatus(request, reply, statusFromError(err)),
    rewriteUrl: rewriteRequestUrl,
    // The request id is the audit ID: the client's `Audit-ID` when it sent a sane one, as
    // kube-apiserver keeps it, else a new UUID. It names the request in the log lines too.
    genReqId: auditId,
    // Bad framing, oversized headers and requests not received in time answer with a Status.
    clientErrorHandler: answerClientError,
    requestTimeout: REQUEST_TIMEOUT_MS,
    ...listener,
  } as FastifyServerOptions) as unknown as FastifyInstance<Server>;
  if (listener.http2) applyHttp1Limits(fastify.server as unknown as Http2SecureServer);
  const app = Object.assign(fastify, { connections: trackConnections(fastify.server) });

  if (deps.tls) trackRequestMethods(app.server);
  declareRequestContext(app);
  app.setErrorHandler(statusErrorHandler(sendStatus));
  app.setNotFoundHandler(statusNotFoundHandler(sendStatus));
  // Every body, of any type or with no Content-Type at all (kubectl's PUT …/scale), is read as a
  // Buffer and decoded by the handler (`decodeBody` in negotiate.ts), which bounds its work and
  // words failures as kube-apiserver does; Fastify's JSON parser would answer in its own words.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
    app.connections.close();
  });
  // While draining, each answer ends its connection: a kept-alive idle connection would hold
  // close() open until the drain timeout.
  app.addHook('onSend', async (request, reply, payload) => {
    // HTTP/2 has no Connection header (setting one throws); its connections get GOAWAY on close.
    if (shuttingDown && request.raw.httpVersionMajor === 1) reply.header('connection', 'close');
    // Node writes the head in a string body's encoding (UTF-8), which would encode the UTF-8
    // bytes of a Warning header a second time; a Buffer body leaves the head in latin1, byte for byte.
    return typeof payload === 'string' && reply.hasHeader('warning') ? Buffer.from(payload) : payload;
  });
  dropStalledBodies(app);
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, so streams written past Fastify (watches) carry it too.
    reply.raw.setHeader('Audit-Id', request.id);
    done();
  });
  if (deps.metrics) recordRequestMetrics(app, deps.metrics);
  const audit = deps.audit ? recordAudit(app, deps.audit) : undefined;
  app.addHook('onRequest', authenticateRequest(deps.authenticate, deps.authorizer, deps.tenantExists, deps.tenantUid));
  audit?.afterAuthentication();
  if (requestLogging) app.addHook('onRequest', bindRequestLog);
  if (deps.flowControl) app.addHook('onRequest', deps.flowControl.onRequest);

  app.register(healthRoutes, { store: deps.store, isShuttingDown: () => shuttingDown });
  app.register(versionRoutes, { buildInfo: deps.buildInfo });
  app.register(apiRoutes, { registry: deps.registry, generic: deps.generic, store: deps.store, watchCaches: deps.watchCaches, authorizer: deps.authorizer, reviewToken: deps.reviewToken, serviceAccountTokens: deps.serviceAccountTokens, nodeUsage: deps.nodeUsage, metrics: deps.metrics });
  if (deps.metrics) app.register(metricsRoutes, { metrics: deps.metrics });
  app.register(openApiRoutes, { registry: deps.registry, kubeVersion: versionInfo(deps.buildInfo).gitVersion });
  return app;
}
