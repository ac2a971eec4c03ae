/**
 * How the client reaches a server: one request in, one response out, the body as a stream (a watch
 * never ends). Credentials belong to the transport: over HTTPS a token or a client certificate,
 * in-process a named identity handed to the server's own authentication.
 *
 * @example
 *   const res = await transport.send({ method: 'GET', path: '/api/v1/namespaces', headers: { accept: 'application/json' } });
 *   for await (const chunk of res.body) …;
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  /** Path and query from the server's root, e.g. `/api/v1/tenants/t1/namespaces/ns1/configmaps?limit=10`. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Aborting closes the request or the response stream. */
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: AsyncIterable<Buffer>;
  /** Stops reading and frees the connection (a watch the caller leaves). */
  close(): void;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Closes kept-alive connections. */
  close(): void;
}

/** The whole body of a response that ends (everything but a watch). */
export async function readBody(response: TransportResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return Buffer.concat(chunks);
}
