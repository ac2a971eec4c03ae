/**
 * A small HTTPS client for end-to-end tests that talk to the API directly: it trusts only the
 * server's generated CA and sends the admin token from the admin kubeconfig. Requests go out
 * exactly as given (method, path, headers, raw body), so tests can send what no real client
 * would: broken JSON, a missing Content-Type, a 4 MiB body.
 *
 * @example
 *   const api = await apiClientFor(server);
 *   const res = await api.request('POST', '/api/v1/namespaces/default/configmaps', { json: { ... } });
 *   expect(res.status).toBe(201);
 *   expect(res.json()).toMatchObject({ kind: 'ConfigMap' });
 */
import { request as httpsRequest, Agent } from 'node:https';
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { ServerProcess } from './server.js';

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON; throws with the body in the message when it is not JSON. */
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  /** Sent as JSON with `Content-Type: application/json` (unless `headers` names another type). */
  json?: unknown;
  /** Sent as is; no Content-Type is added. */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Default 30 s; the request is aborted after it. */
  timeoutMs?: number;
}

export interface ApiClient {
  readonly url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Closes the client's kept-alive connections. */
  close(): void;
}

/** The first user's token in a kubeconfig (the admin kubeconfig has exactly one user). */
export async function kubeconfigToken(path: string): Promise<string> {
  const config = parseYaml(await readFile(path, 'utf8')) as { users?: Array<{ user?: { token?: string } }> };
  const token = config.users?.[0]?.user?.token;
  if (!token) throw new Error(`${path} has no user token`);
  return token;
}

/** Where to connect and how to prove who we are: a bearer token or a client certificate. */
export type ApiClientOptions = { url: string; caCert: string } & ({ token: string } | { clientCertificate: { cert: string; key: string } });

export function createApiClient(options: ApiClientOptions): ApiClient {
  const certificate = 'clientCertificate' in options ? options.clientCertificate : {};
  const agent = new Agent({ ca: options.caCert, keepAlive: true, ...certificate });
  return {
    url: options.url,
    request: (method, path, requestOptions = {}) => send(agent, options, method, path, requestOptions),
    close: () => agent.destroy(),
  };
}

/** A client for the test server's admin user. */
export async function apiClientFor(server: Pick<ServerProcess, 'url' | 'caCert' | 'adminKubeconfig'>): Promise<ApiClient> {
  return createApiClient({ url: server.url, caCert: server.caCert, token: await kubeconfigToken(server.adminKubeconfig) });
}

function send(agent: Agent, client: ApiClientOptions, method: string, path: string, options: RequestOptions): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if ('token' in client) headers.authorization = `Bearer ${client.token}`;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers);
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, client.url), { method, headers, agent, timeout: options.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          json<T>(): T {
            try {
              return JSON.parse(text) as T;
            } catch {
              throw new Error(`${method} ${path} answered ${res.statusCode} with no JSON: ${text.slice(0, 500)}`);
            }
          },
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
