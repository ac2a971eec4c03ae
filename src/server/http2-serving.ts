/**
 * HTTP/2 on the TLS listener, as kube-apiserver serves it: ALPN offers `h2` and `http/1.1`, so
 * kubectl and client-go multiplex every request and watch of a process over one connection,
 * while HTTP/1.1 clients keep working with the same limits as before.
 *
 * kube-apiserver (k8s.io/apiserver `secure_serving.go`) gives clients 250 concurrent streams per
 * connection unless `--http2-max-streams-per-connection` says otherwise, and closes a connection
 * after 90 s with no stream open (Go's `http2.Server.IdleTimeout`). A watch is a stream, so a
 * connection carrying a silent watch is never idle.
 *
 * @example
 *   Fastify({ http2: true, https: { key, cert, ...http2ServerOptions(250) }, http2SessionTimeout: 0 });
 *   const connections = trackConnections(app.server); // then connections.close() / destroy() on shutdown
 */
import type { IncomingMessage } from 'node:http';
import { constants, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type Http2Session, type SecureServerOptions } from 'node:http2';
import type { Server as HttpServer } from 'node:http';
import type { Server } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { HEADERS_TIMEOUT_MS, MAX_HEADER_BYTES, REQUEST_TIMEOUT_MS } from './connections.js';

/** kube-apiserver's streams per connection when `--http2-max-streams-per-connection` is 0 (Go's default). */
export const DEFAULT_HTTP2_MAX_STREAMS = 250;
/** A connection with no stream open for this long is closed (GOAWAY), as Go's http2 server does. */
export const HTTP2_IDLE_TIMEOUT_MS = 90_000;
/** How long an idle HTTP/1.1 keep-alive connection stays open (Fastify's default for HTTP/1.1 servers). */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/** What `--http2-max-streams-per-connection` and `--disable-http2-serving` decide. */
export interface Http2Options {
  enabled: boolean;
  /** 0: DEFAULT_HTTP2_MAX_STREAMS. */
  maxStreamsPerConnection: number;
}

/** TLS server options that turn on HTTP/2 beside HTTP/1.1, with kube-apiserver's settings. */
export function http2ServerOptions(maxStreamsPerConnection: number): Pick<SecureServerOptions, 'allowHTTP1' | 'settings'> {
  return {
    allowHTTP1: true,
    settings: {
      maxConcurrentStreams: maxStreamsPerConnection > 0 ? maxStreamsPerConnection : DEFAULT_HTTP2_MAX_STREAMS,
      // The same 1 MiB of headers HTTP/1.1 clients get (Go's MaxHeaderBytes covers both).
      maxHeaderListSize: MAX_HEADER_BYTES,
    },
  };
}

/** The properties Node's HTTP/1.1 code reads from the server it serves for. */
interface Http1Limits {
  maxHeaderSize: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

/**
 * An HTTP/2 server answers HTTP/1.1 clients with Node's HTTP/1.1 code, but reads its limits from
 * properties the HTTP/2 server does not set from options: without these, HTTP/1.1 clients would
 * get 16 KiB of headers, a 60 s header deadline and keep-alive connections that never expire.
 * Set before `listen`, which starts the deadline checks at `connectionsCheckingInterval`.
 */
export function applyHttp1Limits(server: Http2SecureServer): void {
  const http1 = server as Http2SecureServer & Http1Limits;
  http1.maxHeaderSize = MAX_HEADER_BYTES;
  http1.headersTimeout = HEADERS_TIMEOUT_MS;
  http1.requestTimeout = REQUEST_TIMEOUT_MS;
  http1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  http1.connectionsCheckingInterval = 1_000;
}

/** Whether a request came over HTTP/2 (Node's compatibility request, which has no socket of its own). */
function isHttp2Request(req: IncomingMessage | Http2ServerRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2;
}

/**
 * The TLS connection a request came on, the same object for every request of the connection
 * (an HTTP/2 request's own `socket` is a new proxy per stream), so per-connection caches such as
 * the client certificate's verdict hold across the streams of one connection.
 */
export function connectionSocket(req: IncomingMessage): Socket {
  const h2 = req as unknown as IncomingMessage | Http2ServerRequest;
  if (isHttp2Request(h2)) return (h2.stream.session?.socket ?? h2.socket) as TLSSocket;
  return req.socket;
}

/** The server's open connections, to end them on shutdown. */
export interface ServerConnections {
  /** Asks every HTTP/2 connection to finish (GOAWAY): streams open go on, no new ones start. */
  close(): void;
  /** Cuts every connection, HTTP/1.1 and HTTP/2, whatever is in flight. */
  destroy(): void;
}

/**
 * Tracks the server's connections, and closes an HTTP/2 connection once it has had no stream open
 * for `idleTimeoutMs` (HTTP2_IDLE_TIMEOUT_MS; tests pass less). One timer per idle connection, none per stream.
 */
export function trackConnections(server: HttpServer | Server | Http2SecureServer | Http2Server, idleTimeoutMs = HTTP2_IDLE_TIMEOUT_MS): ServerConnections {
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  // The TCP socket under each connection, TLS or not (an app built without TLS listens in plain text).
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    let openStreams = 0;
    let idle: NodeJS.Timeout | undefined;
    const startIdle = (): void => {
      idle = setTimeout(() => session.close(), idleTimeoutMs);
      idle.unref();
    };
    startIdle();
    session.on('stream', (stream) => {
      openStreams++;
      clearTimeout(idle);
      stream.once('close', () => {
        openStreams--;
        if (openStreams === 0 && !session.closed) startIdle();
      });
    });
    session.once('close', () => {
      clearTimeout(idle);
      sessions.delete(session);
    });
  });
  return {
    close: () => {
      for (const session of sessions) if (!session.closed) session.close();
    },
    destroy: () => {
      for (const session of sessions) session.destroy(undefined, constants.NGHTTP2_NO_ERROR);
      for (const socket of sockets) socket.destroy();
    },
  };
}
