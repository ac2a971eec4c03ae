/**
 * The root error and not-found handlers: every failure of an HTTP request answers with a Kubernetes
 * `Status` (built by `statusFromError`, `api/status.ts`); Fastify's own 4xx errors keep their code,
 * the rest are 500 InternalError and logged with their stack.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { failureStatus, statusFromError, type Status } from '../../api/status.js';

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
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => send(request, reply, failureStatus(404, 'NotFound', 'the server could not find the requested resource'));
}
