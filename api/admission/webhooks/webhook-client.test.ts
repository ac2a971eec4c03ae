import https from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueServingCertificate } from '../../../src/bootstrap/certificates.js';
import { MAX_RESPONSE_BYTES, postReview } from './webhook-client.js';

describe('postReview', () => {
  let server: https.Server;
  let port: number;
  let caPem: string;
  let otherCa: string;
  const connections = new Set<import('node:tls').TLSSocket>();
  let handshakes = 0;

  beforeAll(async () => {
    const ca = await createCa('test-ca');
    caPem = ca.cert;
    otherCa = (await createCa('other-ca')).cert;
    const serving = await issueServingCertificate(ca, ['127.0.0.1', 'webhook.hooks.svc']);
    server = https.createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const path = req.url ?? '';
      req.resume();
      req.on('end', () => {
        if (path.startsWith('/slow')) return void setTimeout(() => res.end('{}'), 2000);
        if (path.startsWith('/html')) return void res.writeHead(502).end('<html>internal secrets</html>');
        if (path.startsWith('/huge')) return void res.end(Buffer.alloc(MAX_RESPONSE_BYTES + 10, 'a'));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ path }));
      });
    });
    server.on('secureConnection', (socket) => {
      handshakes += 1;
      connections.add(socket);
      socket.on('close', () => connections.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const url = (path: string) => `https://127.0.0.1:${port}${path}`;

  it('posts with the timeout parameter client-go adds, trusting the CA bundle', async () => {
    expect(await postReview({ url: url('/ok'), caPem, timeoutSeconds: 5 }, '{}')).toEqual({ status: 200, body: { path: '/ok?timeout=5s' } });
  });

  it('connects to a service endpoint while checking the certificate for the service name', async () => {
    const answer = await postReview({ url: 'https://webhook.hooks.svc/ok', connectTo: { host: '127.0.0.1', port }, caPem, timeoutSeconds: 5 }, '{}');
    expect(answer).toEqual({ status: 200, body: { path: '/ok?timeout=5s' } });
  });

  it("words failures as Go's client does", async () => {
    expect(await postReview({ url: url('/ok'), caPem: otherCa, timeoutSeconds: 5 }, '{}')).toEqual({
      error: `Post "${url('/ok')}?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    });
    expect(await postReview({ url: url('/slow'), caPem, timeoutSeconds: 1 }, '{}')).toEqual({ error: `Post "${url('/slow')}?timeout=1s": context deadline exceeded` });
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const closed = (free.address() as AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    expect(await postReview({ url: `https://127.0.0.1:${closed}/x`, caPem, timeoutSeconds: 5 }, '{}')).toEqual({
      error: `Post "https://127.0.0.1:${closed}/x?timeout=5s": dial tcp 127.0.0.1:${closed}: connect: connection refused`,
    });
  });

  it('never shows what a non-review answer says, and stops reading past the size limit', async () => {
    const html = await postReview({ url: url('/html'), caPem, timeoutSeconds: 5 }, '{}');
    expect(html).toEqual({ error: 'the server responded with the status code 502 but did not return more information' });
    const huge = await postReview({ url: url('/huge'), caPem, timeoutSeconds: 5 }, '{}');
    expect(huge).toEqual({ error: `Post "${url('/huge')}?timeout=5s": the webhook's response exceeds ${MAX_RESPONSE_BYTES} bytes` });
  });

  it('keeps its connection for the next review, and opens a new one when the server closed it', async () => {
    const before = handshakes;
    for (let i = 0; i < 5; i += 1) expect(await postReview({ url: url('/ok'), caPem, timeoutSeconds: 5 }, '{}')).toMatchObject({ status: 200 });
    expect(handshakes - before).toBe(1);
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await postReview({ url: url('/ok'), caPem, timeoutSeconds: 5 }, '{}')).toMatchObject({ status: 200 });
    expect(handshakes - before).toBe(2);
  });
});
