/**
 * A small admission webhook server for tests: HTTPS on 127.0.0.1 with a certificate of its own
 * CA, answering AdmissionReviews by path, and remembering every review it received (so a test can
 * say which spaces' requests reached it).
 *
 * Paths: `/deny-labelled` refuses objects labelled `deny`; `/add-label` adds the label
 * `mutated-by: webhook` by JSONPatch; `/deny-delete` refuses everything (with reason Forbidden); `/warn` allows with a warning; `/slow` answers after 3 s.
 * CRD conversion (ConversionReviews): `/convert` converts CronTabs between v1 (`spec.cronSpec`) and
 * v2 (`spec.schedule`); `/convert-wrong-uid` answers about another review; `/convert-rename`
 * renames the objects.
 *
 * @example
 *   const hooks = await startWebhookServer();
 *   hooks.url('/deny-labelled'); // 'https://127.0.0.1:40123/deny-labelled'
 *   hooks.reviews.filter((r) => r.tenant === 't2'); // what t2's requests sent here
 *   await hooks.close();
 */
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCa, issueServingCertificate } from '../../src/bootstrap/certificates.js';

export interface ReceivedReview {
  path: string;
  /** The space of the object (its `metadata.tenant`). */
  tenant: string | undefined;
  /** The requester's space, as `userInfo.extra["kube-spaces.io/tenant"]` carries it. */
  userTenant: string | undefined;
  request: Record<string, unknown>;
}

export interface WebhookServer {
  /** The CA bundle to put in a webhook's `clientConfig.caBundle` (base64 PEM). */
  caBundle: string;
  url(path: string): string;
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  reviews: ReceivedReview[];
  close(): Promise<void>;
}

interface Review {
  request?: {
    uid?: string;
    object?: { metadata?: { labels?: Record<string, string>; tenant?: string } } | null;
    oldObject?: { metadata?: { tenant?: string } } | null;
    userInfo?: { extra?: Record<string, string[]> };
    /** A ConversionReview's objects and the version wanted. */
    objects?: Array<{ apiVersion?: string; metadata?: { name?: string; tenant?: string }; spec?: Record<string, unknown> }>;
    desiredAPIVersion?: string;
  };
}

/** A ConversionReview's answer: CronTabs with `spec.cronSpec` in v1 and `spec.schedule` in v2. */
function conversionAnswer(path: string, review: Review): Record<string, unknown> {
  const r = review.request ?? {};
  const desired = r.desiredAPIVersion ?? '';
  const convertedObjects = (r.objects ?? []).map((o) => {
    const { cronSpec, schedule, ...rest } = o.spec ?? {};
    const spec = desired.endsWith('/v2') ? { ...rest, schedule: schedule ?? cronSpec } : { ...rest, cronSpec: cronSpec ?? schedule };
    const metadata = path === '/convert-rename' ? { ...o.metadata, name: `${o.metadata?.name ?? ''}-renamed` } : o.metadata;
    return { ...o, apiVersion: desired, metadata, spec };
  });
  const uid = path === '/convert-wrong-uid' ? '00000000-0000-0000-0000-000000000000' : r.uid;
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects, result: { status: 'Success' } } };
}

function answer(path: string, review: Review): Record<string, unknown> {
  const uid = review.request?.uid;
  const labels = review.request?.object?.metadata?.labels;
  switch (path) {
    case '/deny-labelled':
      if (labels?.['deny'] !== undefined) return { uid, allowed: false, status: { code: 403, message: 'objects labelled deny are not welcome here' } };
      return { uid, allowed: true };
    case '/add-label': {
      const patch = labels ? [{ op: 'add', path: '/metadata/labels/mutated-by', value: 'webhook' }] : [{ op: 'add', path: '/metadata/labels', value: { 'mutated-by': 'webhook' } }];
      return { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
    }
    case '/deny-delete':
      return { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'deletes are not allowed here' } };
    case '/warn':
      return { uid, allowed: true, warnings: ['the system webhook saw this'] };
    case '/cap-replicas':
      if (((review.request?.object as { spec?: { replicas?: number } } | null | undefined)?.spec?.replicas ?? 0) > 5) return { uid, allowed: false, status: { code: 403, message: 'at most 5 replicas here' } };
      return { uid, allowed: true };
    case '/two-replicas':
      return { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: 2 }])).toString('base64') };
    case '/deny-eviction':
      return { uid, allowed: false, status: { code: 403, message: 'evictions are paused' } };
    default:
      return { uid, allowed: true };
  }
}

/**
 * `hosts`: the names its certificate is for (a service's `<name>.<namespace>.svc`, to be reached
 * by a service reference); `listen`: the address it listens on (every address, `0.0.0.0`, for a
 * service's Endpoints, which may not be loopback).
 */
export async function startWebhookServer(hosts: readonly string[] = ['127.0.0.1'], listen = '127.0.0.1'): Promise<WebhookServer> {
  const ca = await createCa('webhook-test-ca');
  const serving = await issueServingCertificate(ca, hosts);
  const reviews: ReceivedReview[] = [];
  const server = https.createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://127.0.0.1').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Review;
      const r = review.request ?? {};
      reviews.push({ path, tenant: r.object?.metadata?.tenant ?? r.oldObject?.metadata?.tenant ?? r.objects?.[0]?.metadata?.tenant, userTenant: r.userInfo?.extra?.['kube-spaces.io/tenant']?.[0], request: r as Record<string, unknown> });
      const reply = (): void => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(path.startsWith('/convert') ? conversionAnswer(path, review) : { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: answer(path, review) }));
      };
      if (path === '/slow') setTimeout(reply, 3000);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, listen, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    caBundle: Buffer.from(ca.cert).toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    port,
    reviews,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
