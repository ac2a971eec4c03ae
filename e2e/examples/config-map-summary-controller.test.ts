import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { KubeClient, type Transport, type TransportRequest, type TransportResponse } from '../../src/client/index.js';
import { runConfigMapSummary, SUMMARY_NAME } from './config-map-summary-controller.js';

const json = (status: number, body: unknown): TransportResponse => {
  const stream = Readable.from([Buffer.from(JSON.stringify(body))]);
  return { status, headers: {}, body: stream, close: () => stream.destroy() };
};

/** One ConfigMap in space t1; a watch that stays open and quiet; the first summary write fails. */
class QuietServer implements Transport {
  readonly applies: TransportRequest[] = [];
  async send(req: TransportRequest): Promise<TransportResponse> {
    if (req.method === 'PATCH') {
      this.applies.push(req);
      if (this.applies.length === 1) return json(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: 'InternalError', message: 'etcd is down' });
      return json(200, JSON.parse(req.body!.toString('utf8')) as unknown);
    }
    if (!req.path.includes('watch=true')) {
      return json(200, { kind: 'ConfigMapList', metadata: { resourceVersion: '5' }, items: [{ metadata: { tenant: 't1', namespace: 'default', name: 'a', resourceVersion: '4' }, data: { x: '1' } }] });
    }
    const quiet = new PassThrough();
    req.signal?.addEventListener('abort', () => quiet.destroy(), { once: true });
    return { status: 200, headers: {}, body: quiet, close: () => quiet.destroy() };
  }
  close(): void {}
}

describe('the example controller', () => {
  it('retries a failed summary write with no further event (a quiet system does not stay wrong)', async () => {
    const server = new QuietServer();
    const stop = new AbortController();
    const running = runConfigMapSummary(new KubeClient(server), stop.signal);
    const deadline = Date.now() + 10_000;
    while (server.applies.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    stop.abort();
    await running;
    expect(server.applies.map((r) => r.path.split('?')[0])).toEqual([`/api/v1/tenants/t1/namespaces/default/configmaps/${SUMMARY_NAME}`, `/api/v1/tenants/t1/namespaces/default/configmaps/${SUMMARY_NAME}`]);
    expect(JSON.parse(server.applies[1]!.body!.toString('utf8'))).toMatchObject({ data: { count: '1' } });
  });
});
