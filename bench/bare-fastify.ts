/**
 * The baseline server of `bench/api.ts`: a bare Fastify HTTPS route answering GET /cm with the
 * JSON it reads from standard input, nothing else (no auth, no storage). Prints its URL, then
 * serves until SIGTERM.
 *
 *   node dist/bench/bare-fastify.js serving.key serving.crt < body.json
 */
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';

const [keyPath, certPath] = process.argv.slice(2);
if (!keyPath || !certPath) throw new Error('usage: bare-fastify.js <key.pem> <cert.pem>');
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const body = Buffer.concat(chunks).toString('utf8');

const app = Fastify({ https: { key: await readFile(keyPath), cert: await readFile(certPath) } });
app.get('/cm', async (_request, reply) => reply.type('application/json').send(body));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no address');
process.stdout.write(`https://127.0.0.1:${address.port}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
