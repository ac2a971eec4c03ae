/**
 * The `onRequest` hook that decides who a request is and whether it may proceed, before its body
 * is read, so a refusal costs no parsing: authentication, impersonation, the tenant gate (the
 * space acted in), authorization of the parsed request, then the path's tenant, namespace and
 * name (nothing that could not be stored goes further). Health and version endpoints are open
 * to requests without credentials, as in kube-apiserver; everything else without a valid
 * identity, and anything presenting credentials that prove none, is 401.
 */
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Authenticator } from '../../authz/authenticate.js';
import { forbidden, type Authorizer } from '../../authz/authorize.js';
import type { AccessAttributes, UserInfo } from '../../api/access.js';
import { impersonate } from '../../authz/impersonate.js';
import { resolveTenant, type TenantExists } from '../../authz/resolve-tenant.js';
import { anonymousUser } from '../../authz/user.js';
import { parseFieldSelector, pinnedValue } from '../../api/selection/field-selector.js';
import { pathSegmentProblems } from '../../api/validation/path-segment.js';
import { noteAccess, requestInfoOf, type AccessRecord } from './request-context.js';
import { checkPathSegments, type RequestInfo } from './request-info.js';
import { ApiError } from '../../api/status.js';
import { connectionSocket } from './http2-serving.js';

/** `/healthz`, `/livez`, `/readyz`, `/version`, with a trailing slash or a sub-path (`/readyz/storage`). */
const ANONYMOUS_ROOTS = new Set(['healthz', 'livez', 'readyz', 'version']);

/** Decided on the parsed request (request-info is the one place that knows URL shapes). */
function isAnonymous(info: RequestInfo | null): boolean {
  return info?.kind === 'nonresource' && ANONYMOUS_ROOTS.has(info.path.split('/')[1] ?? '');
}

/**
 * Whether the request presents credentials: a bearer token or a client certificate. kube-apiserver
 * lets a request be anonymous only when it presents none; one whose credentials all fail is 401,
 * on the open paths too.
 */
function presentsCredentials(request: FastifyRequest): boolean {
  if (/^\s*bearer\s+\S/i.test(request.headers.authorization ?? '')) return true;
  const socket = connectionSocket(request.raw) as Partial<TLSSocket>;
  const certificate = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : null;
  return certificate !== null && Object.keys(certificate).length > 0;
}

/**
 * The object a list or watch is pinned to by `fieldSelector=metadata.name=<n>` (`kubectl get cm app
 * -w`): kube-apiserver authorizes it as a request for that name, so rules limited to resourceNames
 * allow it. A selector that does not parse names nothing here; its handler answers 400.
 */
function pinnedName(query: unknown): string | undefined {
  const selector = (query as Record<string, unknown> | undefined)?.fieldSelector;
  if (typeof selector !== 'string' || !selector.includes('metadata.name')) return undefined;
  try {
    const name = pinnedValue(parseFieldSelector(selector), 'metadata.name');
    return name && pathSegmentProblems(name).length === 0 ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The attributes authorization decides on, as kube-apiserver derives them from the request. */
function attributesOf(info: RequestInfo, tenant: string, query: unknown): AccessAttributes {
  if (info.kind === 'nonresource') return { verb: info.verb, path: info.path, tenant };
  const name = info.name ?? (info.verb === 'list' || info.verb === 'watch' ? pinnedName(query) : undefined);
  return { verb: info.verb, group: info.group, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name, tenant };
}

/** The uid of the live Tenant of that name; undefined when there is none. */
export type TenantUid = (name: string) => string | undefined;

/**
 * A credential bound to an incarnation of its tenant (it names the Tenant's uid) proves nothing
 * once another Tenant of the same name lives: like a wrong credential (401). While no Tenant of
 * that name exists it is let through, to be refused as every credential of a missing tenant is
 * (403, the tenant gate).
 */
function ofLiveIncarnation(user: UserInfo | null, tenantUid: TenantUid | undefined, request: FastifyRequest): UserInfo | null {
  if (user?.tenantUid === undefined || tenantUid === undefined || user.tenant === null) return user;
  const live = tenantUid(user.tenant);
  if (live === undefined || live === user.tenantUid) return user;
  request.log.warn({ user: user.name, tenant: user.tenant, tenantUid: user.tenantUid }, 'credential refused: issued for an earlier incarnation of its tenant');
  return null;
}

export function authenticateRequest(authenticate: Authenticator, authorizer: Authorizer, tenantExists: TenantExists, tenantUid?: TenantUid): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const authenticated = ofLiveIncarnation(await authenticate({ headers: request.headers, socket: connectionSocket(request.raw) }), tenantUid, request);
    const info = requestInfoOf(request.raw);
    if (isAnonymous(info) && (authenticated || !presentsCredentials(request))) {
      request.kube = { user: authenticated ?? anonymousUser(), info, tenant: '' };
      return;
    }
    const record: AccessRecord = { authenticated };
    noteAccess(request.raw, record);
    if (!authenticated) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    const user = impersonate(authenticated, request.raw.rawHeaders, authorizer);
    record.user = user;
    const tenant = info ? resolveTenant(info, user, tenantExists) : '';
    record.tenant = tenant;
    // A path that is no request at all is answered 404 by routing.
    if (info) {
      const attrs = attributesOf(info, tenant, request.query);
      record.decision = authorizer.authorize(user, attrs);
      if (!record.decision.allowed) throw forbidden(user, attrs, record.decision.reason);
      const refusal = checkPathSegments(info);
      if (refusal) throw refusal;
    }
    request.kube = { user, info, tenant };
  };
}
