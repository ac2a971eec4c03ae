/**
 * How the HTTPS server treats connections before a request exists or while it arrives: header
 * size and time limits, a stalled body, and protocol errors, each answered with a Status.
 *
 * kube-apiserver (Go's net/http) allows 1 MiB of request line and headers and drops a client that
 * has not sent its headers within 32 s. We keep the size and drop sooner (seconds, not a
 * minute): a connection that sends nothing holds memory and a file descriptor, and Node checks
 * these deadlines only every `connectionsCheckingInterval`. Watches are unaffected: the header
 * and request deadlines cover receiving the request, not the answer.
 *
 * @example
 *   Fastify({ https: { key, cert, ...SERVER_CONNECTION_OPTIONS }, requestTimeout: REQUEST_TIMEOUT_MS,
 *             clientErrorHandler: answerClientError });
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { constants as http2Constants, type Http2SecureServer, type Http2ServerRequest } from 'node:http2';
import type { Server, ServerOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { failureStatus, type Status } from '../../api/status.js';

/** Go's `http.DefaultMaxHeaderBytes`, which kube-apiserver keeps: the request line and headers. */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** A client must have sent its request line and headers this long after it started. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A request body may pause this long between bytes before the connection is dropped. */
export const BODY_IDLE_TIMEOUT_MS = 10_000;
/**
 * The whole request (headers and body) must have arrived by then: a 3 MiB body needs about
 * 10 KiB/s, so slow links still upload, while a trickle of a byte every few seconds ends.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/** Node HTTPS server options for the limits above; the TLS handshake gets the header deadline too. */
export const SERVER_CONNECTION_OPTIONS: ServerOptions = {
  maxHeaderSize: MAX_HEADER_BYTES,
  headersTimeout: HEADERS_TIMEOUT_MS,
  // Node's default (30 s) would let an expired connection live up to that much longer.
  connectionsCheckingInterval: 1_000,
  handshakeTimeout: HEADERS_TIMEOUT_MS,
};

interface ClientError extends Error {
  code?: string;
  reason?: string;
}

/** The Status answer for an error Node's HTTP parser raised, with its code. */
function statusOfClientError(err: ClientError): { code: number; body: Status } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 431, body: failureStatus(431, 'BadRequest', 'Request Header Fields Too Large') };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 408, body: failureStatus(408, 'Timeout', 'the request was not received in time') };
    default:
      return { code: 400, body: failureStatus(400, 'BadRequest', `malformed HTTP request: ${err.reason ?? err.message}`) };
  }
}

/** How long a connection answered with a protocol error stays open for its client to read the answer. */
const CLOSE_LINGER_MS = 1000;

/** Connections whose request now arriving is a HEAD (its answer must have no body). */
const receivingHead = new WeakSet<Socket>();

/** Notes whether the next request on the connection, starting with its next bytes, is a HEAD. */
function noteNextRequestMethod(socket: Socket): void {
  socket.once('data', (chunk: Buffer) => {
    if (chunk.subarray(0, 5).toString('latin1') === 'HEAD ') receivingHead.add(socket);
    else receivingHead.delete(socket);
  });
}

/**
 * Lets protocol errors know the method of a request that never became one: a request starts
 * with the first bytes of a connection, or the first bytes after the previous answer ended
 * (clients do not pipeline).
 */
export function trackRequestMethods(server: Server | Http2SecureServer): void {
  // Only HTTP/1.1 connections: an HTTP/2 connection's bytes belong to its session, whose
  // protocol errors are frames, never a written Status.
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol !== 'h2') noteNextRequestMethod(socket);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersionMajor === 1) res.once('finish', () => noteNextRequestMethod(req.socket));
  });
}

/**
 * Fastify's `clientErrorHandler`: bad framing, oversized headers and request deadlines happen
 * before any request object exists, so the answer is written on the socket by hand, then the
 * connection is closed. A HEAD request gets no body, as clients reading a HEAD answer expect none.
 */
export function answerClientError(err: ClientError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { code, body } = statusOfClientError(err);
  const json = JSON.stringify(body);
  // Parse errors carry the bytes being parsed, from the start of the request when it came in one
  // piece; deadlines and overflows fall back to what the connection's next bytes said.
  const raw: unknown = (err as { rawPacket?: unknown }).rawPacket;
  const start = Buffer.isBuffer(raw) ? raw.subarray(0, 8).toString('latin1') : undefined;
  const isHead = start !== undefined && /^[A-Z]+ /.test(start) ? start.startsWith('HEAD ') : receivingHead.has(socket);
  const head = `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n`;
  // Destroyed a moment after it is written: at once, the rest of a body still arriving would make
  // the kernel reset the connection and the client could lose the answer; never, a client that
  // does not close its side would keep the socket.
  socket.end(isHead ? head : head + json, () => setTimeout(() => socket.destroy(), CLOSE_LINGER_MS).unref());
}

/** A body still arriving when its request is answered is drained up to this size and time. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
const DRAIN_MAX_MS = 2_000;

/** Reads the rest of a request body and drops it; false when it has not all come within DRAIN_MAX_MS. */
function bodyDrained(req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (done: boolean): void => {
      clearTimeout(timer);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(done);
    };
    const onEnd = (): void => finish(true);
    const onError = (): void => finish(false);
    const timer = setTimeout(onError, DRAIN_MAX_MS);
    req.on('end', onEnd);
    req.on('error', onError);
    req.resume();
  });
}

/**
 * Drops a connection whose request body stops arriving for BODY_IDLE_TIMEOUT_MS (a request
 * announcing more `Content-Length` than it sends), and only while the body arrives: once it is
 * read (preHandler), the idle limit is lifted, so slow answers and long watches are untouched.
 * Node destroys a socket that times out when nobody listens for the timeout. Over HTTP/2 the
 * deadline is the stream's, and the stalled stream alone is reset: the connection carries others.
 * An HTTP/1.1 request answered before its body has arrived closes its connection.
 */
export function dropStalledBodies(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const { headers } = request.raw;
    const announcesBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
    const h2 = http2Stream(request.raw);
    if (h2) {
      // An HTTP/2 request whose headers did not end the stream has a body coming, with or without a length.
      if (!h2.stream.endAfterHeaders) h2.stream.setTimeout(BODY_IDLE_TIMEOUT_MS, () => h2.stream.close(http2Constants.NGHTTP2_CANCEL));
    } else if (announcesBody && typeof request.raw.socket?.setTimeout === 'function') {
      // inject()'s stand-in socket has no timers.
      request.raw.socket.setTimeout(BODY_IDLE_TIMEOUT_MS);
    }
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const h2 = http2Stream(request.raw);
    if (h2) h2.stream.setTimeout(0);
    else if (request.raw.socket?.timeout === BODY_IDLE_TIMEOUT_MS) request.raw.socket.setTimeout(0);
    done();
  });
  // Answered before its body arrived (refused by authentication or too large, say): a client
  // still sending would have its connection reset under it and lose the answer, so a body of a
  // bounded size is read and dropped first (Go's server lingers the same way before closing).
  // One that does not arrive in time closes the connection after the answer. HTTP/2 needs none of
  // this: the answer ends the stream alone, and there is no Connection header to send.
  app.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (raw.httpVersionMajor === 2) return;
    // `complete` is Node's HTTP parser's flag; inject()'s stand-in request never sets it, but its
    // stream has ended once the body was read (without this, every in-process write waited DRAIN_MAX_MS).
    if (raw.complete || raw.readableEnded) return;
    if (Number(raw.headers['content-length']) <= DRAIN_MAX_BYTES && (await bodyDrained(raw))) return;
    reply.header('connection', 'close');
  });
}

/** The HTTP/2 request behind Fastify's raw request, or null for HTTP/1.1 and inject(). */
function http2Stream(raw: IncomingMessage): Http2ServerRequest | null {
  return raw.httpVersionMajor === 2 ? (raw as unknown as Http2ServerRequest) : null;
}
