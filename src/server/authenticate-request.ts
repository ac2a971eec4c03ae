/**
 * The `onRequest` hook that authenticates every request and resolves its space before its body
 * is read, so a refusal costs no parsing. Health and version endpoints are open to everyone, as in kube-apiserver;
 * everything else without a valid identity is 401 Unauthorized.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Authenticator } from '../../authz/authenticate.js';
import { resolveTenant } from '../../authz/resolve-tenant.js';
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

export function authenticateRequest(authenticate: Authenticator): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const user = await authenticate(request);
    const info = requestInfoOf(request.raw);
    if (isAnonymous(info)) {
      request.kube = { user: user ?? anonymousUser(), info, tenant: '' };
      return;
    }
    if (!user) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    // The tenant gate runs here, before any body is read: a refusal costs no parsing.
    request.kube = { user, info, tenant: info ? resolveTenant(info, user) : '' };
  };
}
