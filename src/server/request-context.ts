/**
 * What a request carries through the layers: one decoration, `request.kube`, declared null at
 * boot (Fastify refuses shared object values, which would leak between requests) and set by the
 * authentication hook in `onRequest`. Request info and the resolved tenant join it later.
 *
 * @example
 *   app.get('/x', async (request) => request.kube?.user.name);
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AccessDecision, UserInfo } from '../../api/access.js';
import { parseRequestInfo, type RequestInfo } from './request-info.js';

export interface KubeRequestContext {
  /** The authenticated identity, or the anonymous user on the paths open to everyone. */
  user: UserInfo;
  /** What the path asks for; null for a path that is no request at all (answered 404). */
  info: RequestInfo | null;
  /** The space the request acts in (`all` for every space); '' where no space applies (health, version). */
  tenant: string;
  /** Keys a JSON or YAML body held twice (`metadata.name`), which parsing alone would silently merge; set by `decodeBody`. */
  duplicateFields?: string[];
  /** The body as decoded (JSON, YAML or protobuf), set by `decodeBody`. */
  decodedBody?: unknown;
  /** The object answered, before encoding, set by `sendFormatted`. */
  responseBody?: unknown;
  /** Audit annotations admission added (admission policies' Audit action), for the request's audit events. */
  auditAnnotations?: Map<string, string>;
  /**
   * The seats the request holds in API Priority and Fairness (flowcontrol/dispatcher.ts): given
   * back when the response ends, or by the watch handler once the initial state is sent.
   */
  seats?: { release(): void };
}

/**
 * What authentication and authorization found out about a request, kept even when they refuse it
 * (then `request.kube` stays null): the audit log records who was refused, and why.
 */
export interface AccessRecord {
  /** Who the credentials prove (null: none proved). */
  authenticated: UserInfo | null;
  /** Who the request acts as: the impersonated user, else `authenticated`. */
  user?: UserInfo;
  tenant?: string;
  decision?: AccessDecision;
}

const accessRecords = new WeakMap<IncomingMessage, AccessRecord>();

export function noteAccess(req: IncomingMessage, record: AccessRecord): void {
  accessRecords.set(req, record);
}

export function accessRecordOf(req: IncomingMessage): AccessRecord | undefined {
  return accessRecords.get(req);
}

/** Request info parsed while rewriting the URL, waiting for `onRequest` to pick it up. */
const parsedInfo = new WeakMap<IncomingMessage, RequestInfo | null>();

/**
 * Fastify's `rewriteUrl`: parses the path once (the only parse) and routes on its canonical form,
 * so `/tenants/t1/api/v1/...` reaches the same routes as `/api/v1/...` with its tenant kept.
 */
export function rewriteRequestUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q);
  // Only `watch` matters to the parse; reading it alone avoids parsing the query twice.
  const watch = search.includes('watch=') ? new URLSearchParams(search).get('watch') ?? undefined : undefined;
  const info = parseRequestInfo(req.method ?? 'GET', path, { watch });
  parsedInfo.set(req, info);
  return info && info.tenantForm === 'prefix' ? info.path + search : url;
}

/** The info `rewriteRequestUrl` parsed for this request. */
export function requestInfoOf(req: IncomingMessage): RequestInfo | null {
  return parsedInfo.get(req) ?? null;
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
