/**
 * The HTTPS transport: one keep-alive agent per client, so requests reuse connections (a TLS
 * handshake per request would cost more than most requests), with the kubeconfig's trust and
 * credentials.
 *
 * @example
 *   const transport = new HttpsTransport({ server: 'https://127.0.0.1:6443', ca: pem, token: 'secret' });
 */
import { Agent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
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
}

export class HttpsTransport implements Transport {
  private readonly agent: Agent;
  private readonly base: URL;

  constructor(private readonly options: HttpsTransportOptions) {
    this.base = new URL(options.server);
    if (this.base.protocol !== 'https:') throw new Error(`server ${options.server}: only https is supported`);
    this.agent = new Agent({
      keepAlive: true,
      // Parsed once: by default each new connection parses the CA, certificate and key again, which
      // a controller manager opening a watch per resource pays for dozens of times at start.
      secureContext: createSecureContext({ ...(options.ca !== undefined ? { ca: options.ca } : {}), ...(options.clientCertificate ?? {}) }),
      rejectUnauthorized: options.insecureSkipTlsVerify !== true,
    });
  }

  send(req: TransportRequest): Promise<TransportResponse> {
    const headers: Record<string, string> = { ...req.headers };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    if (req.body !== undefined) headers['content-length'] = String(req.body.length);
    const url = new URL(this.base.pathname.replace(/\/+$/, '') + req.path, this.base);
    return new Promise((resolve, reject) => {
      const outgoing = httpsRequest(url, { method: req.method, headers, agent: this.agent, signal: req.signal }, (res) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, close: () => res.destroy() });
      });
      outgoing.on('error', reject);
      outgoing.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
