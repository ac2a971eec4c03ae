/**
 * One HTTPS POST of an AdmissionReview to a webhook, bounded in time and size, with errors worded
 * as Go's net/http and client-go word them (`Post "https://…?timeout=10s": dial tcp
 * 127.0.0.1:9: connect: connection refused`), since kube-apiserver puts that text in the Status
 * it answers.
 *
 * A webhook server is chosen by whoever writes the configuration (a tenant): what it answers must
 * never become a channel to read other servers, so an answer that is no AdmissionReview is
 * reported by its status code only, never by its body.
 *
 * @example
 *   const answer = await postReview({ url: 'https://127.0.0.1:8443/validate', caPem, timeoutSeconds: 10, body });
 *   if ('error' in answer) … // 'Post "https://127.0.0.1:8443/validate?timeout=10s": context deadline exceeded'
 */
import type { ClientRequest } from 'node:http';
import https from 'node:https';
import type { ServiceReference, WebhookClientConfig } from '../../kinds/admissionregistration/webhook-types.js';

/** The largest answer read from a webhook; a review carries an object and a patch, both bounded by the 3 MiB request limit. */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

export interface WebhookTarget {
  /** The URL as configured (or built from a service reference), without the timeout parameter. */
  url: string;
  /** Where to connect when it is not the URL's host (a service's endpoint address); TLS still checks the URL's host. */
  connectTo?: { host: string; port: number };
  /** PEM certificates to trust; the system's roots when undefined. */
  caPem?: string;
  timeoutSeconds: number;
  /** The largest answer read; MAX_RESPONSE_BYTES when undefined. */
  maxResponseBytes?: number;
}

export type WebhookAnswer = { status: number; body: unknown } | { error: string };

/** Go's words for the network failures Node reports by code. */
function goNetError(err: NodeJS.ErrnoException & { host?: string; address?: string; port?: number }, host: string, port: number): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}:${port}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${host}:${port}: read: connection reset by peer`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${host}: no such host`;
    case 'EHOSTUNREACH':
      return `dial tcp ${host}:${port}: connect: no route to host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is valid for other names, not ${host}`;
    default:
      return err.message;
  }
}

/**
 * Connections to webhooks are kept and reused, as kube-apiserver's clients do: a TLS handshake per
 * admitted request would cost more CPU than the request. The agent pools by address, server name
 * and CA, so a connection is only reused for the same server trusted the same way. Idle ones close
 * before a Go or Node server's own idle timeout would close them under a request.
 */
const webhookAgent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 8, timeout: 4_000, scheduling: 'lifo' });

/** The URL a request goes to: client-go adds the timeout as a query parameter. */
export function requestUrl(target: Pick<WebhookTarget, 'url' | 'timeoutSeconds'>): string {
  return `${target.url}?timeout=${target.timeoutSeconds}s`;
}

/** Where a service reference answers (`service-resolver.ts`), or why it cannot. */
export type ResolveService = (ref: ServiceReference) => Promise<{ host: string; port: number } | { error: string }>;

/**
 * Where a webhook's `clientConfig` leads (admission and CRD conversion webhooks share this form):
 * its URL, or the name kube-apiserver would dial for its service, connected to the service's
 * endpoint; trusting `caBundle`. A service that resolves nowhere is the failed Post, in Go's words.
 */
export async function clientTarget(cc: WebhookClientConfig, timeoutSeconds: number, resolve: ResolveService): Promise<WebhookTarget | { error: string }> {
  const caPem = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  if (cc.url !== undefined) return { url: cc.url, caPem, timeoutSeconds };
  const service = cc.service ?? {};
  const port = service.port ?? 443;
  // The URL kube would call (always with its port); its name is what the serving certificate must be for.
  const url = `https://${service.name ?? ''}.${service.namespace ?? ''}.svc:${port}${service.path ?? ''}`;
  const resolved = await resolve(service);
  if ('error' in resolved) return { error: `Post ${JSON.stringify(requestUrl({ url, timeoutSeconds }))}: ${resolved.error}` };
  return { url, connectTo: resolved, caPem, timeoutSeconds };
}

/** POSTs `body` (an AdmissionReview) and reads the answer as JSON, within the target's timeout. */
export function postReview(target: WebhookTarget, body: string): Promise<WebhookAnswer> {
  const full = requestUrl(target);
  const url = new URL(full);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  const fail = (why: string): WebhookAnswer => ({ error: `Post ${JSON.stringify(full)}: ${why}` });
  return new Promise<WebhookAnswer>((resolve) => {
    let settled = false;
    let current: ClientRequest | undefined;
    const done = (answer: WebhookAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const timer = setTimeout(() => {
      current?.destroy();
      done(fail('context deadline exceeded'));
    }, target.timeoutSeconds * 1000);
    const attempt = (mayRetry: boolean): void => {
      const req = https.request(
        {
          method: 'POST',
          host: target.connectTo?.host ?? host,
          port: target.connectTo?.port ?? port,
          servername: /^[\d.]+$|:/.test(host) ? undefined : host, // SNI may not be an IP address
          path: `${url.pathname}${url.search}`,
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body), 'User-Agent': 'kube-spaces-apiserver' },
          ca: target.caPem,
          // Node checks the certificate against the servername (else the connected host): so a
          // service's endpoint address is dialled while the certificate must be for the service's name.
          agent: webhookAgent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const maxBytes = target.maxResponseBytes ?? MAX_RESPONSE_BYTES;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              req.destroy();
              done(fail(`the webhook's response exceeds ${maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              // Never the body itself: it may be another server's content (see the file comment).
              done(status >= 200 && status < 300 ? { error: `couldn't get version/kind; json parse error: the webhook's response is not JSON` } : { error: `the server responded with the status code ${status} but did not return more information` });
              return;
            }
            done({ status, body: parsed });
          });
          res.on('error', (err) => done(fail(goNetError(err, host, port))));
        },
      );
      current = req;
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept connection the server closed meanwhile: once more on a new one, as Go's client does.
        if (mayRetry && req.reusedSocket && err.code === 'ECONNRESET') attempt(false);
        else done(fail(goNetError(err, host, port)));
      });
      req.end(body);
    };
    attempt(true);
  });
}
