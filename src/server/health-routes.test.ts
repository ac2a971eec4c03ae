import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { healthRoutes } from './health-routes.js';

describe('healthRoutes', () => {
  it('fails readyz, not livez or healthz, once shutdown has begun', async () => {
    const app = Fastify();
    await app.register(healthRoutes, { store: { ping: async () => {} }, isShuttingDown: () => true });
    const ready = await app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(500);
    expect(ready.body).toBe('[+]ping ok\n[+]storage ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n');
    expect((await app.inject({ url: '/readyz/shutdown' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/livez' })).body).toBe('ok');
    expect((await app.inject({ url: '/healthz?verbose' })).body).toBe('[+]ping ok\n[+]storage ok\nhealthz check passed\n');
  });
});
