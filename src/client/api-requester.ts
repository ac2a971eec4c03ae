/**
 * Sends one API request through a transport and answers its JSON body, or throws the server's
 * Status as an `ApiError`. Every read and write of the client goes through here; watches open
 * their stream here too.
 */
import { errorFromResponse } from './api-status.js';
import { readBody, type HttpMethod, type Transport, type TransportResponse } from './transport.js';

/** kube-spaces names writes by the User-Agent's first word when no fieldManager is given, as kube-apiserver does. */
const USER_AGENT = 'kube-spaces-client';

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** Default `application/json` when there is a body. */
  contentType?: string;
  signal?: AbortSignal | undefined;
}

export class ApiRequester {
  constructor(readonly transport: Transport) {}

  async json<T>(request: ApiRequest): Promise<T> {
    const response = await this.open(request);
    return JSON.parse((await readBody(response)).toString('utf8')) as T;
  }

  /** Opens the request; a non-2xx answer is read and thrown as an `ApiError`. */
  async open(request: ApiRequest): Promise<TransportResponse> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    let body: Buffer | undefined;
    if (request.body !== undefined) {
      body = Buffer.from(JSON.stringify(request.body));
      headers['content-type'] = request.contentType ?? 'application/json';
    }
    const response = await this.transport.send({ method: request.method, path: request.path, headers, ...(body ? { body } : {}), ...(request.signal ? { signal: request.signal } : {}) });
    if (response.status >= 200 && response.status < 300) return response;
    throw errorFromResponse(response.status, await readBody(response));
  }
}
