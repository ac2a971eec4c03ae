import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../api/access.js';
import { parseRequestInfo } from '../request-info.js';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap-configuration.js';
import { FLOW_SCHEMA_UID_HEADER, FlowControl, nominalSeats, PRIORITY_LEVEL_UID_HEADER } from './dispatcher.js';
import type { FlowSchemaObject, PriorityLevelObject } from './flow-objects.js';

const withUid = <T extends FlowSchemaObject | PriorityLevelObject>(o: T): T => ({ ...o, metadata: { ...o.metadata, uid: `uid-${o.metadata.name}` } });
const schemas = [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map(withUid);
const levels = [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map(withUid);

/** An app whose requests name their user in headers and wait for `release()` before answering. */
function appWith(flowControl: FlowControl) {
  const app = Fastify();
  const waiting: Array<() => void> = [];
  app.decorateRequest('kube', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const tenant = String(request.headers['x-tenant']);
    const user: UserInfo = { name: 'u', uid: '', groups: tenant === 'system' ? ['system:masters', 'system:authenticated'] : ['system:authenticated'], tenant, extra: {} };
    request.kube = { user, tenant, info: parseRequestInfo(request.method, request.url.split('?')[0]!, {}) };
    done();
  });
  app.addHook('onRequest', flowControl.onRequest);
  app.get('/*', () => new Promise((resolve) => waiting.push(() => resolve({ ok: true }))));
  return { app, release: () => waiting.splice(0).forEach((f) => f()), waiting };
}

let flowControl: FlowControl | undefined;
afterEach(() => flowControl?.stop());

describe('FlowControl', () => {
  it('splits the server seats by nominal concurrency shares, rounding up', () => {
    const seats = nominalSeats(levels, 600);
    expect(seats.get('global-default')).toBe(49);
    expect(seats.get('workload-low')).toBe(245);
    expect(seats.get('catch-all')).toBe(13);
    expect(seats.has('exempt')).toBe(false);
    expect(nominalSeats(levels, 12).get('global-default')).toBe(1);
  });

  it('answers 429 in kube words, with Retry-After and the PF headers, once a flow fills its queue', async () => {
    flowControl = new FlowControl({ maxRequestsInflight: 8, maxMutatingRequestsInflight: 4 });
    const tight = levels.map((l) => (l.metadata.name === 'global-default' ? { ...l, spec: { type: 'Limited' as const, limited: { nominalConcurrencyShares: 20, limitResponse: { type: 'Queue' as const, queuing: { queues: 16, handSize: 1, queueLengthLimit: 2 } } } } } : l));
    flowControl.configure(schemas, tight);
    const { app, release, waiting } = appWith(flowControl);
    const get = (tenant: string) => app.inject({ url: '/api/v1/namespaces/default/configmaps', headers: { 'x-tenant': tenant } });
    // One seat: the first runs, two wait, the fourth is turned away.
    const first = [get('a'), get('a'), get('a')];
    // inject() starts requests once the app is ready: let the first three reach the queue.
    await new Promise((r) => setTimeout(r, 20));
    const rejected = await get('a');
    expect(rejected.statusCode).toBe(429);
    expect(rejected.headers['retry-after']).toBe('1');
    expect(rejected.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(rejected.body).toBe('Too many requests, please try again later.\n');
    expect(rejected.headers[FLOW_SCHEMA_UID_HEADER.toLowerCase()]).toBe('uid-global-default');
    expect(rejected.headers[PRIORITY_LEVEL_UID_HEADER.toLowerCase()]).toBe('uid-global-default');
    // The system admin is exempt: answered while the level is full.
    const admin = get('system');
    await new Promise((r) => setTimeout(r, 20));
    expect(waiting).toHaveLength(2);
    for (let i = 0; i < 5; i++) {
      release();
      await new Promise((r) => setTimeout(r, 10));
    }
    const answers = await Promise.all([...first, admin]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers[3]!.headers[PRIORITY_LEVEL_UID_HEADER.toLowerCase()]).toBe('uid-exempt');
    expect(flowControl.levelStates().get('global-default')!.queueSet!.seatsInUse).toBe(0);
  });

  it('lets another tenant in before the rest of a flood', async () => {
    flowControl = new FlowControl({ maxRequestsInflight: 8, maxMutatingRequestsInflight: 4 });
    flowControl.configure(schemas, levels);
    const { app, release, waiting } = appWith(flowControl);
    const order: string[] = [];
    const get = (tenant: string) => app.inject({ url: '/api/v1/namespaces/default/configmaps', headers: { 'x-tenant': tenant } }).then((r) => order.push(tenant) && r);
    const flood = Array.from({ length: 10 }, () => get('noisy'));
    await new Promise((r) => setTimeout(r, 10));
    const quiet = get('quiet');
    while (order.length < 11) {
      await new Promise((r) => setTimeout(r, 5));
      release();
    }
    await Promise.all([...flood, quiet]);
    expect(waiting).toHaveLength(0);
    // The flood spreads over its hand of 6 queues (shortest of the hand, as in kube); the quiet
    // tenant's queue takes its turn among them, not after the flood's other 9.
    expect(order.indexOf('quiet')).toBeLessThanOrEqual(7);
  });
});
