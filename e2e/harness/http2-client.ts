/**
 * An HTTP/2 client on one connection, as client-go keeps one per process: every request and
 * watch is a stream of the same session.
 *
 * @example
 *   const h2 = await connectHttp2(server.url, server.caCert, token);
 *   expect(h2.alpnProtocol).toBe('h2');
 *   const res = await h2.get('/version');
 *   const watch = h2.watch('/api/v1/namespaces/ns/configmaps?watch=1');
 *   await watch.until((events) => events.length > 0);
 *   h2.close();
 */
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';

export interface Http2Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface WatchEvent {
  type: string;
  object: { kind?: string; metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> } };
}

export interface Http2Watch {
  /** The watch events received so far, parsed. */
  readonly events: WatchEvent[];
  readonly status: Promise<number>;
  /** Resolves when the stream has closed, with its RST_STREAM code (0 for an end without one). */
  readonly closed: Promise<number>;
  /** Stops reading: the server's writes for this stream back up once the flow-control window is full. */
  pause(): void;
  /** Reads again (a reset stream closes only once what it buffered has been read). */
  resume(): void;
  /** Resolves once `done(events)` holds; rejects after `timeoutMs` (default 15 s). */
  until(done: (events: Http2Watch['events']) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export interface Http2Client {
  /** The protocol ALPN chose for the connection. */
  readonly alpnProtocol: string | undefined;
  readonly session: ClientHttp2Session;
  request(method: string, path: string, body?: unknown): Promise<Http2Response>;
  get(path: string): Promise<Http2Response>;
  watch(path: string): Http2Watch;
  close(): void;
}

export async function connectHttp2(url: string, caCert: string, token: string): Promise<Http2Client> {
  const session = connect(url, { ca: caCert });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  const open = (method: string, path: string, body?: unknown): ClientHttp2Stream => {
    const headers: Record<string, string> = { ':method': method, ':path': path, authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const stream = session.request(headers, { endStream: body === undefined });
    if (body !== undefined) stream.end(JSON.stringify(body));
    return stream;
  };
  const request = (method: string, path: string, body?: unknown): Promise<Http2Response> =>
    new Promise((resolve, reject) => {
      const stream = open(method, path, body);
      let head: Record<string, string | string[] | undefined> = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => (head = h));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks).toString('utf8') }));
      stream.on('error', reject);
    });
  const watch = (path: string): Http2Watch => {
    const stream = open('GET', path);
    const events: Http2Watch['events'] = [];
    let pending: string[] = [];
    const waiters = new Set<() => void>();
    const status = new Promise<number>((resolve, reject) => {
      stream.on('response', (h) => resolve(Number(h[':status'])));
      stream.on('error', reject);
    });
    stream.setEncoding('utf8');
    // Only each new chunk is searched for line ends: a 1 MiB event arrives in many frames.
    stream.on('data', (text: string) => {
      let start = 0;
      let newline: number;
      while ((newline = text.indexOf('\n', start)) >= 0) {
        pending.push(text.slice(start, newline));
        const line = pending.join('');
        pending = [];
        start = newline + 1;
        if (line.trim() !== '') events.push(JSON.parse(line) as WatchEvent);
      }
      if (start < text.length) pending.push(text.slice(start));
      for (const wake of waiters) wake();
    });
    // Errors after the head (a reset when the session closes) end the watch; `status` carries a refusal.
    stream.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
    return {
      events,
      status,
      closed,
      pause: () => stream.pause(),
      resume: () => stream.resume(),
      until: (done, timeoutMs = 15_000) =>
        new Promise<void>((resolve, reject) => {
          const check = (): void => {
            if (!done(events)) return;
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            reject(new Error(`watch ${path}: condition not met in ${timeoutMs} ms; events: ${JSON.stringify(events.map((e) => e.type))}`));
          }, timeoutMs);
          waiters.add(check);
          check();
        }),
      close: () => stream.close(constants.NGHTTP2_CANCEL),
    };
  };
  return {
    get alpnProtocol() {
      return session.alpnProtocol;
    },
    session,
    request,
    get: (path) => request('GET', path),
    watch,
    close: () => session.destroy(),
  };
}
