/**
 * The `onRequest` hook that authenticates every request before its body is read, so a refusal
 * costs no parsing. Health and version endpoints are open to everyone, as in kube-apiserver;
 * everything else without a valid identity is 401 Unauthorized.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Authenticator } from '../../authz/authenticate.js';
import { anonymousUser } from '../../authz/user.js';
import { ApiError } from './status.js';

/** `/healthz`, `/livez`, `/readyz`, `/version`, with a trailing slash or a sub-path (`/readyz/storage`). */
const ANONYMOUS_PATH = /^\/(?:healthz|livez|readyz|version)(?:\/[^?]*)?(?:\?.*)?$/;

function isAnonymousPath(url: string): boolean {
  return ANONYMOUS_PATH.test(url);
}

export function authenticateRequest(authenticate: Authenticator): onRequestAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const user = await authenticate(request);
    if (user) {
      request.kube = { user };
      return;
    }
    if (!isAnonymousPath(request.url)) throw new ApiError(401, 'Unauthorized', 'Unauthorized');
    request.kube = { user: anonymousUser() };
  };
}
