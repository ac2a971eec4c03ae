/**
 * Sends one API request through a transport and answers its decoded body, or throws the server's
 * Status as an `ApiError`. Every read and write of the client goes through here; watches open
 * their stream here too.
 */
import { errorFromResponse } from './api-status.js';
import { readBody, type HttpMethod, type Transport, type TransportResponse } from './transport.js';
import { acceptFor, decodeBody, encodeBody, isProtobuf, type WireFormat } from './wire-format.js';

/** kube-spaces names writes by the User-Agent's first word when no fieldManager is given, as kube-apiserver does. */
const USER_AGENT = 'kube-spaces-client';

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** A patch's type; without one the body is a whole object, sent in the requester's format. */
  contentType?: string;
  signal?: AbortSignal | undefined;
}

export class ApiRequester {
  /** @param format `protobuf` asks for built-in kinds in protobuf and sends them so (see wire-format.ts). */
  constructor(
    readonly transport: Transport,
    readonly format: WireFormat = 'json',
  ) {}

  async json<T>(request: ApiRequest): Promise<T> {
    const response = await this.open(request);
    return decodeBody(response, await readBody(response)) as T;
  }

  /** Opens the request; a non-2xx answer is read and thrown as an `ApiError`. */
  async open(request: ApiRequest): Promise<TransportResponse> {
    const headers: Record<string, string> = { accept: acceptFor(this.format), 'user-agent': USER_AGENT };
    let body: Buffer | undefined;
    if (request.body !== undefined) {
      // A patch is JSON whatever the format; a whole object may go as protobuf.
      const encoded = request.contentType ? { body: Buffer.from(JSON.stringify(request.body)), contentType: request.contentType } : encodeBody(this.format, request.body);
      body = encoded.body;
      headers['content-type'] = encoded.contentType;
    }
    const response = await this.transport.send({ method: request.method, path: request.path, headers, ...(body ? { body } : {}), ...(request.signal ? { signal: request.signal } : {}) });
    if (response.status >= 200 && response.status < 300) return response;
    throw errorFromResponse(response.status, await readBody(response), isProtobuf(response));
  }
}
