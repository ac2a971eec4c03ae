/**
 * A CRD's `Webhook` conversion, as kube-apiserver's webhook converter does it
 * (`apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go`): the objects not yet
 * in the desired version go to the webhook in one `ConversionReview` (`apiextensions.k8s.io/v1`,
 * or v1beta1 when the CRD offers only that), and the answer is checked before anything of it is
 * used: its uid (v1), `result.status` Success, as many objects as were sent, each in the desired
 * version with the same kind, name, namespace and uid. Of the metadata only labels and
 * annotations may change; the rest is put back as it was.
 *
 * One call converts the objects of one space only (the generic store groups them), so a space's
 * webhook never sees another space's objects. Failures are kube's text, a 500 without a reason
 * (`Error from server: conversion webhook for stable.example.com/v1, Kind=CronTab failed: …`).
 *
 * @example
 *   const converter = conversionWebhook('CronTab', crd.spec.conversion.webhook, (t, ref) => resolve(t, ref));
 *   await converter.convert([stored], 'stable.example.com/v2', 't1', false); // → [the object in v2]
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../registry/object.js';
import type { ObjectConverter } from '../../registry/resource-definition.js';
import { aggregateText } from '../../registry/field-error.js';
import { ApiError } from '../../status.js';
import { validateAnnotations, validateLabels } from '../../validation/labels.js';
import type { ServiceReference } from '../admissionregistration/webhook-types.js';
import { clientTarget, MAX_RESPONSE_BYTES, postReview, type WebhookAnswer, type WebhookTarget } from '../../admission/webhooks/webhook-client.js';
import type { CustomResourceConversion } from './types.js';

/** kube-apiserver's webhook client timeout for conversion webhooks, which have no setting of their own. */
export const CONVERSION_TIMEOUT_SECONDS = 30;

/** The ConversionReview versions this server speaks, in kube's order of preference within a CRD's list. */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** Where a service reference of a space answers (`service-resolver.ts`), or why it cannot. */
export type ResolveSpaceService = (tenant: string, ref: ServiceReference) => Promise<{ host: string; port: number } | { error: string }>;
type Post = (target: WebhookTarget, body: string) => Promise<WebhookAnswer>;

/** A conversion failure, answered as kube answers an error it has no API status for. */
function failure(message: string): ApiError {
  return new ApiError(500, '', message);
}

/** Go's `%T` of a value decoded from JSON into an unstructured object. */
function goType(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value;
}

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What the webhook answered: the converted objects, or why the answer is unusable (kube's words). */
function convertedObjects(body: unknown, version: string, uid: string): unknown[] | string {
  const review = isMap(body) ? body : {};
  if (version === 'v1') {
    const got = `${typeof review['apiVersion'] === 'string' ? review['apiVersion'] : ''}, Kind=${typeof review['kind'] === 'string' ? review['kind'] : ''}`;
    if (got !== 'apiextensions.k8s.io/v1, Kind=ConversionReview') return `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${got}`;
  }
  const response = review['response'];
  if (!isMap(response)) return 'no response provided';
  // v1beta1 reviews were never checked for their uid; kube keeps it that way.
  if (version === 'v1' && response['uid'] !== uid) return `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response['uid'] === 'string' ? response['uid'] : '')}`;
  const result = isMap(response['result']) ? response['result'] : {};
  if (result['status'] !== 'Success') {
    const message = typeof result['message'] === 'string' ? result['message'] : '';
    return message.length > 0 ? message : `response.result.status was '${typeof result['status'] === 'string' ? result['status'] : ''}', not 'Success'`;
  }
  return Array.isArray(response['convertedObjects']) ? response['convertedObjects'] : [];
}

/** `validateConvertedObject`: what the webhook may not change. */
function sameIdentity(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  const meta = isMap(converted['metadata']) ? converted['metadata'] : {};
  const pairs: Array<[string, unknown, unknown]> = [
    ['kind', original.kind, converted['kind']],
    ['name', original.metadata.name, meta['name']],
    ['namespace', original.metadata.namespace, meta['namespace']],
    ['UID', original.metadata.uid, meta['uid']],
  ];
  for (const [what, e, a] of pairs) if ((e ?? '') !== (a ?? '')) return `must have the same ${what}: ${String(e ?? '')} != ${String(a ?? '')}`;
  return undefined;
}

/**
 * `restoreObjectMeta`: the converted object gets the original's metadata back, with the labels and
 * annotations the webhook answered (checked as labels and annotations are when they changed).
 * Returns the error text, or undefined once `converted` is restored.
 */
function restoreMetadata(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  const answered = converted['metadata'];
  if (answered === undefined) return 'missing metadata in converted object';
  if (!isMap(answered)) return `invalid metadata of type ${goType(answered)} in converted object`;
  const metadata = structuredClone(original.metadata) as Record<string, unknown>;
  for (const field of ['labels', 'annotations'] as const) {
    const given = answered[field];
    if (given === undefined || given === null) {
      delete metadata[field];
      continue;
    }
    if (!isMap(given)) return `invalid metadata.${field} of type ${goType(given)} in converted object`;
    const before = (metadata[field] ?? {}) as Record<string, string>;
    let changed = Object.keys(before).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const strings = given as Record<string, string>;
      // kube names the annotations' path `metadata.annotation` here.
      const errors = field === 'labels' ? validateLabels(strings, 'metadata.labels') : validateAnnotations(strings, 'metadata.annotation');
      if (errors.length > 0) return aggregateText(errors);
    }
    metadata[field] = given;
  }
  converted['metadata'] = metadata;
  return undefined;
}

/** `group/version` of an apiVersion as Go prints a GroupVersion. */
const groupVersionText = (apiVersion: unknown): string => (typeof apiVersion === 'string' ? apiVersion : '');

/**
 * The converter of a CRD whose `spec.conversion.strategy` is Webhook. `resolve` finds where a
 * service reference answers for objects of a space (in the space of the CRD that serves them).
 */
export function conversionWebhook(kind: string, webhook: NonNullable<CustomResourceConversion['webhook']>, resolve: ResolveSpaceService, post: Post = postReview): ObjectConverter {
  const reviewVersion = (webhook.conversionReviewVersions ?? []).find((v) => CONVERSION_REVIEW_VERSIONS.includes(v));
  return {
    async convert(objects, apiVersion, tenant, list) {
      const sent = objects.filter((o) => o.apiVersion !== apiVersion);
      if (sent.length === 0) return [...objects];
      if (!reviewVersion) throw failure('no supported conversion review versions');
      // The kind of what is converted: a list's, or the one object's in its own version.
      const subject = `${groupVersionText(sent[0]!.apiVersion)}, Kind=${list ? `${kind}List` : kind}`;
      const uid = randomUUID();
      const body = JSON.stringify({
        kind: 'ConversionReview',
        apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
        request: { uid, desiredAPIVersion: apiVersion, objects: sent },
        response: { uid: '', convertedObjects: null, result: { metadata: {} } },
      });
      const target = await clientTarget(webhook.clientConfig ?? {}, CONVERSION_TIMEOUT_SECONDS, (ref) => resolve(tenant, ref));
      if ('error' in target) throw failure(`conversion webhook for ${subject} failed: ${target.error}`);
      // The answer holds the objects sent, converted: allow it their size twice over, at least the admission limit.
      const answer = await post({ ...target, maxResponseBytes: Math.max(MAX_RESPONSE_BYTES, 2 * Buffer.byteLength(body)) }, body);
      if ('error' in answer) throw failure(`conversion webhook for ${subject} failed: ${answer.error}`);
      if (answer.status < 200 || answer.status >= 300) {
        throw failure(`conversion webhook for ${subject} failed: the server responded with the status code ${answer.status} but did not return more information`);
      }
      const converted = convertedObjects(answer.body, reviewVersion, uid);
      if (typeof converted === 'string') throw failure(`conversion webhook for ${subject} failed: ${converted}`);
      if (converted.length !== sent.length) throw failure(`conversion webhook for ${subject} returned ${converted.length} objects, expected ${sent.length}`);

      const out: KubeObject[] = [];
      let next = 0;
      for (const original of objects) {
        if (original.apiVersion === apiVersion) {
          out.push(original);
          continue;
        }
        const raw = converted[next];
        next += 1;
        // kube counts the object before checking it in a list (so its first is "index 1"), not for one object.
        const where = list ? `returned invalid converted object at index ${next}` : 'returned invalid object at index 0';
        if (!isMap(raw) || typeof raw['kind'] !== 'string' || raw['kind'] === '') throw failure(`conversion webhook for ${subject} returned invalid converted object at index ${next - 1}: Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
        const object = raw as KubeObject;
        if (object.apiVersion !== apiVersion) throw failure(`conversion webhook for ${subject} ${where}: invalid groupVersion (expected ${apiVersion}, received ${groupVersionText(object.apiVersion)})`);
        if (object.kind !== original.kind) throw failure(`conversion webhook for ${subject} ${where}: invalid kind (expected ${original.kind ?? ''}, received ${object.kind})`);
        const identity = sameIdentity(original, raw);
        if (identity) throw failure(`conversion webhook for ${subject} ${list ? where : 'returned invalid object'}: ${identity}`);
        const restored = restoreMetadata(original, raw);
        if (restored) throw failure(`conversion webhook for ${subject} returned invalid metadata${list ? ` in object at index ${next}` : ''}: ${restored}`);
        out.push(object);
      }
      return out;
    },
  };
}
