/**
 * Kubernetes `Status` errors: the only place that renders one. Later layers throw `ApiError`;
 * storage errors are mapped to it by the registry; anything else that reaches the root error
 * handler is answered here too (Fastify's own 4xx errors keep their code, the rest are 500
 * InternalError and logged with their stack).
 *
 * @example
 *   throw new ApiError(404, 'NotFound', 'configmaps "cm1" not found', { name: 'cm1', kind: 'configmaps' });
 *   // → 404 {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
 *   //        "message":"configmaps \"cm1\" not found","reason":"NotFound","details":{…},"code":404}
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Kubernetes' `metav1.StatusReason` values. */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'ServerTimeout'
  | 'Timeout';

/** One reason among several, e.g. a field that failed validation (`FieldValueInvalid`, `spec.x`). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  /** The resource (plural) or kind the error is about. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** An error meant for the client: its code, reason, message and details become the Status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }
}

/** The reason Kubernetes gives for a bare HTTP code (Fastify's own errors carry only a code). */
const REASON_BY_CODE: Readonly<Record<number, StatusReason>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const INTERNAL_MESSAGE = 'Internal error occurred: unexpected server error (details are in the server log)';

/**
 * The Status for anything thrown. Only `ApiError`s and client errors that carry a 4xx
 * `statusCode` (Fastify's body, content-type and URL errors) reach the client with their
 * message; everything else is a 500 whose cause stays in the server log.
 */
export function statusFromError(err: unknown): Status {
  if (err instanceof ApiError) return status(err.code, err.reason, err.message, err.details);
  const code = clientErrorCode(err);
  if (code !== null) return status(code, REASON_BY_CODE[code] ?? 'BadRequest', (err as Error).message);
  return status(500, 'InternalError', INTERNAL_MESSAGE);
}

function clientErrorCode(err: unknown): number | null {
  if (!(err instanceof Error) || !('statusCode' in err)) return null;
  const code = err.statusCode;
  return typeof code === 'number' && code >= 400 && code < 500 ? code : null;
}

/** Built in `metav1.Status` order, details before code (the JSON encoder also drops Go's empty fields). */
function status(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

/** The Status for an HTTP protocol error answered before any request exists (see connections.ts). */
export function protocolErrorStatus(code: number, reason: StatusReason, message: string): Status {
  return status(code, reason, message);
}

/** Sends a Status in the format the request negotiated (`sendStatus` in negotiate.ts). */
export type StatusSender = (request: FastifyRequest, reply: FastifyReply, body: Status) => FastifyReply;

/** The root error handler: every thrown error answers with a Status; 5xx are logged with their stack. */
export function statusErrorHandler(send: StatusSender) {
  return (err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const body = statusFromError(err);
    // As kube-apiserver: a Status that says when to retry says it in the header too.
    const retryAfter = body.details?.retryAfterSeconds;
    if (retryAfter !== undefined && retryAfter > 0) reply.header('retry-after', String(retryAfter));
    if (body.code >= 500) request.log.error({ err }, 'request failed');
    else request.log.debug({ reason: body.reason, message: body.message }, 'request refused');
    return send(request, reply, body);
  };
}

/** The root not-found handler: unknown paths answer 404 NotFound, as kube-apiserver does. */
export function statusNotFoundHandler(send: StatusSender) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => send(request, reply, status(404, 'NotFound', 'the server could not find the requested resource'));
}
