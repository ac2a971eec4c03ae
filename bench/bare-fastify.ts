/**
 * The baseline server of `bench/api.ts` and `bench/http2.ts`: a bare Fastify HTTPS route answering
 * GET /cm with the JSON it reads from standard input, nothing else (no auth, no storage). With
 * `h2`, it speaks HTTP/2 beside HTTP/1.1 as kube-spaces does. Prints its URL, then serves until SIGTERM.
 *
 *   node dist/bench/bare-fastify.js serving.key serving.crt [h2] < body.json
 */
import { readFile } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';

const [keyPath, certPath, protocol] = process.argv.slice(2);
if (!keyPath || !certPath) throw new Error('usage: bare-fastify.js <key.pem> <cert.pem> [h2]');
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const body = Buffer.concat(chunks).toString('utf8');

const tls = { key: await readFile(keyPath), cert: await readFile(certPath) };
const app = protocol === 'h2' ? Fastify({ http2: true, https: { ...tls, allowHTTP1: true } }) : Fastify({ https: tls });
// The two servers' route types differ only in their raw request and response; the route uses neither.
(app as FastifyInstance).get('/cm', async (_request, reply) => reply.type('application/json').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no address');
process.stdout.write(`https://127.0.0.1:${address.port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
