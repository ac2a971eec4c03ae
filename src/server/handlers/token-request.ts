/**
 * `POST …/namespaces/<ns>/serviceaccounts/<name>/token`: a TokenRequest (authentication.k8s.io/v1),
 * as `kubectl create token` sends it, answered with a signed token for that service account of the
 * request's space. Nothing is stored; the account must exist.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_ACCOUNT_ISSUER } from '../../../authz/service-account-token.js';
import { ApiError, type StatusCause } from '../../../api/status.js';
import { checkTypeMeta } from '../../../api/registry/api-errors.js';
import { goJsonValueName } from '../../../api/schema/json-syntax.js';
import { nowTimestamp } from '../../../api/registry/generic-store.js';
import type { HandlerDeps } from './handler-deps.js';
import { decodeObjectBody, negotiateFormat, sendFormatted } from '../negotiate.js';
import { locationOf } from './read-handlers.js';
import type { ResourceRequest } from './resolve-resource.js';

const API_VERSION = 'authentication.k8s.io/v1';
/** Kubernetes' defaults and bounds for `spec.expirationSeconds`. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
}

function invalidTokenRequest(name: string, field: string, message: string, reason: 'FieldValueInvalid' | 'FieldValueForbidden' = 'FieldValueInvalid'): ApiError {
  const cause: StatusCause = { reason, message, field };
  return new ApiError(422, 'Invalid', `TokenRequest.authentication.k8s.io "${name}" is invalid: ${field}: ${message}`, {
    name,
    group: 'authentication.k8s.io',
    kind: 'TokenRequest',
    causes: [cause],
  });
}

/** A body Go's decoder would not decode, in its words (`field`: the struct holding it and the JSON path). */
function undecodable(value: unknown, field: string, goType: string): ApiError {
  const found = typeof value === 'number' && goType === 'int64' ? `number ${value}` : goJsonValueName(value);
  return new ApiError(400, 'BadRequest', `TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal ${found} into Go struct field ${field} of type ${goType}`);
}

/** The spec of the body, defaulted and checked as kube-apiserver does. */
function tokenRequestSpec(body: Record<string, unknown>, name: string): TokenRequestSpec {
  checkTypeMeta(body, [{ apiVersion: API_VERSION, kind: 'TokenRequest' }]);
  // Go clients send unset fields as null (kubectl 1.27: `"audiences": null`).
  const spec = body.spec ?? {};
  if (typeof spec !== 'object' || Array.isArray(spec)) throw undecodable(spec, 'TokenRequest.spec', 'v1.TokenRequestSpec');
  const fields = spec as { audiences?: unknown; expirationSeconds?: unknown; boundObjectRef?: unknown };
  const audiences = fields.audiences ?? [];
  const expirationSeconds = fields.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (!Array.isArray(audiences)) throw undecodable(audiences, 'TokenRequestSpec.spec.audiences', '[]string');
  const notString = audiences.find((a) => a !== null && typeof a !== 'string');
  if (notString !== undefined) throw undecodable(notString, 'TokenRequestSpec.spec.audiences', 'string');
  if (typeof expirationSeconds !== 'number' || !Number.isSafeInteger(expirationSeconds)) throw undecodable(expirationSeconds, 'TokenRequestSpec.spec.expirationSeconds', 'int64');
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
    throw invalidTokenRequest(name, 'spec.expirationSeconds', `Invalid value: ${expirationSeconds}: may not specify a duration less than 10 minutes`);
  }
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
    throw invalidTokenRequest(name, 'spec.expirationSeconds', `Invalid value: ${expirationSeconds}: may not specify a duration larger than 2^32 seconds`);
  }
  // Binding a token to a pod or secret is not supported: silently ignoring it would let the token outlive its object.
  if (fields.boundObjectRef !== undefined && fields.boundObjectRef !== null) {
    throw invalidTokenRequest(name, 'spec.boundObjectRef', 'Forbidden: tokens bound to objects are not supported', 'FieldValueForbidden');
  }
  return { audiences: audiences.map((a) => (a as string | null) ?? ''), expirationSeconds };
}

export async function handleTokenRequest(deps: HandlerDeps, req: ResourceRequest, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  // A server built without a signing key (unit tests of other handlers) issues no tokens.
  const tokens = deps.serviceAccountTokens;
  if (!tokens) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const format = negotiateFormat(request.headers.accept, false);
  const loc = locationOf(req);
  const spec = tokenRequestSpec(await decodeObjectBody(request, 'TokenRequest'), loc.name);
  // No audience asked: the API server's own, as kube-apiserver defaults it.
  const audiences = spec.audiences.length > 0 ? spec.audiences : [SERVICE_ACCOUNT_ISSUER];
  const account = await deps.generic.get(req.def, loc);
  const issued = tokens.issue({ tenant: req.tenant, namespace: loc.namespace!, name: loc.name, uid: account.metadata.uid! }, { audiences, expirationSeconds: spec.expirationSeconds });
  return sendFormatted(reply, 201, format, {
    apiVersion: API_VERSION,
    kind: 'TokenRequest',
    metadata: { name: loc.name, namespace: loc.namespace, creationTimestamp: nowTimestamp() },
    spec: { audiences, expirationSeconds: spec.expirationSeconds },
    status: { token: issued.token, expirationTimestamp: nowTimestamp(issued.expirationTimestamp.getTime()) },
  });
}
