import { once } from 'node:events';
import { connect, createServer, type ClientHttp2Session, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionSocket, DEFAULT_HTTP2_MAX_STREAMS, http2ServerOptions, trackConnections } from './http2-serving.js';

const IDLE_MS = 150;

describe('http2ServerOptions', () => {
  it('gives kube-apiserver’s 250 streams for 0, the flag’s value otherwise, and 1 MiB of headers', () => {
    expect(http2ServerOptions(0)).toEqual({ allowHTTP1: true, settings: { maxConcurrentStreams: DEFAULT_HTTP2_MAX_STREAMS, maxHeaderListSize: 1024 * 1024 } });
    expect(http2ServerOptions(1000).settings?.maxConcurrentStreams).toBe(1000);
  });
});

describe('trackConnections (plain-text h2 server)', () => {
  let server: Http2Server;
  let client: ClientHttp2Session | undefined;
  /** The requests' connection sockets, as the handler saw them. */
  const sockets: unknown[] = [];
  /** Answers held open: a stream stays open until its answer ends. */
  const held: Http2ServerResponse[] = [];

  async function start(): Promise<string> {
    server = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
      sockets.push(connectionSocket(req as unknown as IncomingMessage));
      if (req.url === '/hold') {
        res.writeHead(200);
        res.write('open\n');
        held.push(res);
      } else {
        res.end('ok');
      }
    });
    trackConnections(server, IDLE_MS);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  function get(session: ClientHttp2Session, path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ':path': path });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        body += chunk;
        if (path === '/hold') resolve(body);
      });
      stream.on('end', () => resolve(body));
      stream.on('error', reject);
    });
  }

  afterEach(async () => {
    client?.destroy();
    for (const res of held.splice(0)) res.end();
    sockets.length = 0;
    await new Promise((resolve) => server.close(resolve));
  });

  it('closes a connection with no stream open after the idle time, not one carrying a quiet stream', async () => {
    client = connect(await start());
    await get(client, '/hold');
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3));
    // A stream (a watch, say) was open all along: the connection is not idle.
    expect(client.closed).toBe(false);
    held.splice(0).forEach((res) => res.end());
    await once(client, 'goaway');
  });

  it('gives every stream of a connection the same connection socket', async () => {
    client = connect(await start());
    await Promise.all([get(client, '/a'), get(client, '/b'), get(client, '/c')]);
    expect(sockets).toHaveLength(3);
    expect(new Set(sockets).size).toBe(1);
  });
});
