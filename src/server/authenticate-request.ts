/**
 * The `onRequest` hook that decides who a request is and whether it may proceed, before its body
 * is read, so a refusal costs no parsing: authentication, impersonation, the tenant gate (the
 * space acted in), then authorization of the parsed request. Health and version endpoints are
 * open to everyone, as in kube-apiserver; everything else without a valid identity is 401.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Authenticator } from '../../authz/authenticate.js';
import type { AccessAttributes, Authorizer } from '../../authz/authorize.js';
import { impersonate } from '../../authz/impersonate.js';
import { resolveTenant, type TenantExists } from '../../authz/resolve-tenant.js';
import { anonymousUser } from '../../authz/user.js';
import { requestInfoOf } from './request-context.js';
import type { RequestInfo } from './request-info.js';
import { ApiError } from './status.js';

/** `/healthz`, `/livez`, `/readyz`, `/version`, with a trailing slash or a sub-path (`/readyz/storage`). */
const ANONYMOUS_ROOTS = new Set(['healthz', 'livez', 'readyz', 'version']);

/** Decided on the parsed request (request-info is the one place that knows URL shapes). */
function isAnonymous(info: RequestInfo | null): boolean {
  return info?.kind === 'nonresource' && ANONYMOUS_ROOTS.has(info.path.split('/')[1] ?? '');
}

/** The attributes authorization decides on, as kube-apiserver derives them from the request. */
function attributesOf(info: RequestInfo, tenant: string): AccessAttributes {
  if (info.kind === 'nonresource') return { verb: info.verb, path: info.path, tenant };
  return { verb: info.verb, group: info.group, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name, tenant };
}

export function authenticateRequest(authenticate: Authenticator, authorizer: Authorizer, tenantExists: TenantExists): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const authenticated = await authenticate(request);
    const info = requestInfoOf(request.raw);
    if (isAnonymous(info)) {
      request.kube = { user: authenticated ?? anonymousUser(), info, tenant: '' };
      return;
    }
    if (!authenticated) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    const user = impersonate(authenticated, request.raw.rawHeaders, authorizer);
    const tenant = info ? resolveTenant(info, user, tenantExists) : '';
    // A path that is no request at all is answered 404 by routing.
    if (info) authorizer.assertAuthorized(user, attributesOf(info, tenant));
    request.kube = { user, info, tenant };
  };
}
