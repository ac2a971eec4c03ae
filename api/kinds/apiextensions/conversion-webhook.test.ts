import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../registry/object.js';
import type { WebhookAnswer, WebhookTarget } from '../../admission/webhooks/webhook-client.js';
import { conversionWebhook } from './conversion-webhook.js';

const V1 = 'stable.example.com/v1';
const V2 = 'stable.example.com/v2';

function crontab(name: string, apiVersion = V1, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion, kind: 'CronTab', metadata: { name, namespace: 'default', tenant: 't1', uid: `uid-${name}`, resourceVersion: '7', labels: { a: 'b' } }, spec: { cronSpec: '* * * * */5' }, ...extra };
}

interface Review {
  apiVersion: string;
  request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
}

/** A webhook answering with `respond(review)`, recording what it was sent. */
function fakeWebhook(respond: (review: Review) => unknown, versions = ['v1']) {
  const calls: Array<{ target: WebhookTarget; review: Review }> = [];
  const post = async (target: WebhookTarget, body: string): Promise<WebhookAnswer> => {
    const review = JSON.parse(body) as Review;
    calls.push({ target, review });
    return { status: 200, body: respond(review) };
  };
  const converter = conversionWebhook('CronTab', { clientConfig: { url: 'https://127.0.0.1:9443/convert' }, conversionReviewVersions: versions }, async () => ({ error: 'unused' }), post);
  return { converter, calls };
}

/** A good answer: each object in the desired version, `spec.cronSpec` renamed to `spec.schedule` for v2. */
function convertAll(review: Review, change: (o: KubeObject) => KubeObject = (o) => o): unknown {
  const convertedObjects = review.request.objects.map((o) => change({ ...o, apiVersion: review.request.desiredAPIVersion, spec: { schedule: (o['spec'] as { cronSpec: string }).cronSpec } }));
  return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects, result: { status: 'Success' } } };
}

describe('conversionWebhook', () => {
  it('sends the objects not in the desired version in one v1 review, and keeps the order', async () => {
    const { converter, calls } = fakeWebhook((r) => convertAll(r));
    const out = await converter.convert([crontab('a'), crontab('b', V2, { spec: { schedule: 'x' } }), crontab('c')], V2, 't1', true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.target).toMatchObject({ url: 'https://127.0.0.1:9443/convert', timeoutSeconds: 30 });
    expect(calls[0]!.review.apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(calls[0]!.review.request.desiredAPIVersion).toBe(V2);
    expect(calls[0]!.review.request.objects.map((o) => o.metadata.name)).toEqual(['a', 'c']);
    expect(out.map((o) => [o.metadata.name, o.apiVersion, o['spec']])).toEqual([
      ['a', V2, { schedule: '* * * * */5' }],
      ['b', V2, { schedule: 'x' }],
      ['c', V2, { schedule: '* * * * */5' }],
    ]);
  });

  it('makes no call when every object is in the desired version', async () => {
    const { converter, calls } = fakeWebhook(() => ({}));
    expect(await converter.convert([crontab('a', V2)], V2, 't1', false)).toHaveLength(1);
    expect(calls).toHaveLength(0);
  });

  it('keeps labels and annotations the webhook set, and restores the rest of the metadata', async () => {
    const { converter } = fakeWebhook((r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { c: 'd' }, annotations: { n: 'm' }, resourceVersion: '99', generation: 5 } })));
    const [out] = await converter.convert([crontab('a')], V2, 't1', false);
    expect(out!.metadata).toEqual({ name: 'a', namespace: 'default', tenant: 't1', uid: 'uid-a', resourceVersion: '7', labels: { c: 'd' }, annotations: { n: 'm' } });
  });

  it.each([
    ['a wrong uid', (r: Review) => ({ ...(convertAll(r) as object), response: { ...(convertAll(r) as { response: object }).response, uid: 'other' } }), /failed: expected response\.uid="[0-9a-f-]+", got "other"$/],
    ['a failure result', (r: Review) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview', response: { uid: r.request.uid, result: { status: 'Failure', message: 'cannot convert' } } }), /failed: cannot convert$/],
    ['a failure without message', (r: Review) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview', response: { uid: r.request.uid, result: {} } }), /failed: response\.result\.status was '', not 'Success'$/],
    ['no response', (r: Review) => ({ apiVersion: r.apiVersion, kind: 'ConversionReview' }), /failed: no response provided$/],
    ['another kind of answer', () => ({ apiVersion: 'v1', kind: 'Status' }), /failed: expected webhook response of apiextensions\.k8s\.io\/v1, Kind=ConversionReview, got v1, Kind=Status$/],
  ])('refuses %s', async (_what, respond, message) => {
    const { converter } = fakeWebhook(respond);
    const err = await converter.convert([crontab('a')], V2, 't1', false).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 500, reason: '' });
    expect((err as Error).message).toMatch(/^conversion webhook for stable\.example\.com\/v1, Kind=CronTab /);
    expect((err as Error).message).toMatch(message);
  });

  it('refuses a converted object that changed name, version or kind, or an answer with too few objects', async () => {
    const renamed = fakeWebhook((r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, name: 'zz' } })));
    await expect(renamed.converter.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: a != zz');
    await expect(renamed.converter.convert([crontab('a')], V2, 't1', true)).rejects.toThrow('conversion webhook for stable.example.com/v1, Kind=CronTabList returned invalid converted object at index 1: must have the same name: a != zz');
    const stale = fakeWebhook((r) => convertAll(r, (o) => ({ ...o, apiVersion: V1 })));
    await expect(stale.converter.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v1)');
    const otherKind = fakeWebhook((r) => convertAll(r, (o) => ({ ...o, kind: 'Other' })));
    await expect(otherKind.converter.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('invalid kind (expected CronTab, received Other)');
    const short = fakeWebhook((r) => ({ ...(convertAll(r) as object), response: { uid: r.request.uid, convertedObjects: [], result: { status: 'Success' } } }));
    await expect(short.converter.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('conversion webhook for stable.example.com/v1, Kind=CronTab returned 0 objects, expected 1');
    const badLabel = fakeWebhook((r) => convertAll(r, (o) => ({ ...o, metadata: { ...o.metadata, labels: { a: 1 } } }) as unknown as KubeObject));
    await expect(badLabel.converter.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('returned invalid metadata: metadata.labels[a] must be a string, but is int64 in converted object');
  });

  it('speaks v1beta1 when that is all the CRD offers, without checking the uid', async () => {
    const { converter, calls } = fakeWebhook((r) => ({ ...(convertAll(r) as object), response: { ...(convertAll(r) as { response: object }).response, uid: '' } }), ['v1beta1']);
    await converter.convert([crontab('a')], V2, 't1', false);
    expect(calls[0]!.review.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
  });

  it('reports a call that failed in Go words, and a service that resolves nowhere', async () => {
    const post = async (): Promise<WebhookAnswer> => ({ error: 'Post "https://127.0.0.1:9/convert?timeout=30s": dial tcp 127.0.0.1:9: connect: connection refused' });
    const byUrl = conversionWebhook('CronTab', { clientConfig: { url: 'https://127.0.0.1:9/convert' }, conversionReviewVersions: ['v1'] }, async () => ({ error: 'unused' }), post);
    await expect(byUrl.convert([crontab('a')], V2, 't1', false)).rejects.toThrow(
      'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://127.0.0.1:9/convert?timeout=30s": dial tcp 127.0.0.1:9: connect: connection refused',
    );
    const asked: string[] = [];
    const byService = conversionWebhook('CronTab', { clientConfig: { service: { namespace: 'hooks', name: 'conv', path: '/convert' } }, conversionReviewVersions: ['v1'] }, async (tenant) => {
      asked.push(tenant);
      return { error: 'dial tcp: lookup conv.hooks.svc: no such host' };
    }, post);
    await expect(byService.convert([crontab('a')], V2, 't1', false)).rejects.toThrow('failed: Post "https://conv.hooks.svc:443/convert?timeout=30s": dial tcp: lookup conv.hooks.svc: no such host');
    expect(asked).toEqual(['t1']);
  });
});
