/**
 * The HTTPS transport, with the kubeconfig's trust and credentials. Like client-go it speaks
 * HTTP/2 when the server offers it (ALPN `h2`): every request and watch is then a stream of one
 * connection. A server that answers `http/1.1` gets HTTP/1.1 over a keep-alive agent (a TLS
 * handshake per request would cost more than most requests). The protocol is chosen on the first
 * connection and kept; a closed HTTP/2 connection is opened again on the next request.
 *
 * @example
 *   const transport = new HttpsTransport({ server: 'https://127.0.0.1:6443', ca: pem, token: 'secret' });
 */
import { connect as connectHttp2, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { connect as connectTls, createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

export interface HttpsTransportOptions {
  /** `https://host:port`, with the path of a proxy in front of the server if any (never a `/tenants/<t>` suffix). */
  server: string;
  /** PEM of the CAs trusted for the serving certificate; default: Node's trusted roots. */
  ca?: string;
  /** Accept any serving certificate (kubeconfig `insecure-skip-tls-verify`). */
  insecureSkipTlsVerify?: boolean;
  token?: string;
  /** PEM client certificate and key. */
  clientCertificate?: { cert: string; key: string };
  /** Offer only HTTP/1.1 (as client-go's DisableHTTP2). */
  disableHttp2?: boolean;
}

export type HttpProtocol = 'h2' | 'http/1.1';

export class HttpsTransport implements Transport {
  private readonly agent: Agent;
  private readonly base: URL;
  private readonly secureContext: SecureContext;
  /** Chosen by ALPN on the first connection; undefined until then. */
  private chosen: Promise<HttpProtocol> | undefined;
  private session: ClientHttp2Session | undefined;
  private connecting: Promise<ClientHttp2Session> | undefined;
  /** Open streams per session: a session with none must not keep the process alive. */
  private readonly openStreams = new WeakMap<ClientHttp2Session, number>();

  constructor(private readonly options: HttpsTransportOptions) {
    this.base = new URL(options.server);
    if (this.base.protocol !== 'https:') throw new Error(`server ${options.server}: only https is supported`);
    // Parsed once: by default each new connection parses the CA, certificate and key again, which
    // a controller manager opening a watch per resource pays for dozens of times at start.
    this.secureContext = createSecureContext({ ...(options.ca !== undefined ? { ca: options.ca } : {}), ...(options.clientCertificate ?? {}) });
    this.agent = new Agent({ keepAlive: true, secureContext: this.secureContext, rejectUnauthorized: options.insecureSkipTlsVerify !== true });
  }

  /** The protocol in use, once the first request has chosen it. */
  get protocol(): Promise<HttpProtocol> | undefined {
    return this.chosen;
  }

  async send(req: TransportRequest): Promise<TransportResponse> {
    const headers: Record<string, string> = { ...req.headers };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    const path = this.base.pathname.replace(/\/+$/, '') + req.path;
    if (this.options.disableHttp2) return this.sendHttp1(req, path, headers);
    this.chosen ??= this.connect().then(
      (session) => (session ? 'h2' : 'http/1.1'),
      (err: unknown) => {
        this.chosen = undefined;
        throw err;
      },
    );
    return (await this.chosen) === 'h2' ? this.sendHttp2(req, path, headers) : this.sendHttp1(req, path, headers);
  }

  close(): void {
    this.agent.destroy();
    this.session?.close();
    this.session = undefined;
  }

  private sendHttp1(req: TransportRequest, path: string, headers: Record<string, string>): Promise<TransportResponse> {
    if (req.body !== undefined) headers['content-length'] = String(req.body.length);
    return new Promise((resolve, reject) => {
      const outgoing = httpsRequest(new URL(path, this.base), { method: req.method, headers, agent: this.agent, signal: req.signal }, (res) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, close: () => res.destroy() });
      });
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  }

  private async sendHttp2(req: TransportRequest, path: string, headers: Record<string, string>): Promise<TransportResponse> {
    const session = await this.currentSession();
    const stream = session.request({ ...headers, ':method': req.method, ':path': path }, { endStream: req.body === undefined, ...(req.signal ? { signal: req.signal } : {}) });
    // An open stream (a watch) keeps the process alive; an idle session does not.
    const open = this.openStreams.get(session) ?? 0;
    this.openStreams.set(session, open + 1);
    if (open === 0) session.ref();
    stream.once('close', () => {
      const left = (this.openStreams.get(session) ?? 1) - 1;
      this.openStreams.set(session, left);
      if (left === 0 && !session.destroyed) session.unref();
    });
    if (req.body !== undefined) stream.end(req.body);
    const head = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
      stream.once('close', () => reject(Object.assign(new Error('the HTTP/2 stream closed before its response'), { code: 'ERR_HTTP2_STREAM_CANCEL' })));
    });
    const { ':status': status, ...rest } = head;
    return { status: Number(status), headers: rest, body: stream, close: () => stream.close(constants.NGHTTP2_CANCEL) };
  }

  /** The session to send on: the open one, or a new one after the last closed or was told to go away. */
  private currentSession(): Promise<ClientHttp2Session> {
    if (this.session) return Promise.resolve(this.session);
    this.connecting ??= this.connect()
      .then((session) => {
        if (!session) throw new Error(`server ${this.options.server} stopped offering HTTP/2`);
        return session;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  /** Opens a connection offering h2 and http/1.1: an HTTP/2 session if the server chose h2, else undefined. */
  private connect(): Promise<ClientHttp2Session | undefined> {
    return new Promise((resolve, reject) => {
      const socket: TLSSocket = connectTls({
        host: this.base.hostname.replace(/^\[|\]$/g, ''),
        port: Number(this.base.port || 443),
        servername: isIp(this.base.hostname) ? undefined : this.base.hostname,
        secureContext: this.secureContext,
        rejectUnauthorized: this.options.insecureSkipTlsVerify !== true,
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      socket.once('error', reject);
      socket.once('secureConnect', () => {
        socket.off('error', reject);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          resolve(undefined);
          return;
        }
        const session = connectHttp2(this.base.origin, { createConnection: () => socket });
        session.unref();
        session.on('error', () => undefined); // reported through the streams it breaks
        // After GOAWAY the session serves its open streams only: new requests go to a new one.
        const forget = (): void => {
          if (this.session === session) this.session = undefined;
        };
        session.once('goaway', forget);
        session.once('close', forget);
        this.session = session;
        resolve(session);
      });
    });
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
