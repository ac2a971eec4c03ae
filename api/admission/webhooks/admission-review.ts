/**
 * admission.k8s.io/v1 AdmissionReview: the request kube-apiserver sends a webhook, and the checks
 * of its answer (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go), with
 * kube's texts for a malformed answer.
 *
 * The request's `userInfo.extra["kube-spaces.io/tenant"]` names the requester's space (a system
 * user acting in a space has `system` there); the space the object belongs to is its
 * `metadata.tenant`.
 */
import type { UserInfo } from '../../access.js';
import type { KubeObject } from '../../registry/object.js';
import type { Operation } from './webhook-matching.js';

export const ADMISSION_REVIEW_VERSION = 'admission.k8s.io/v1';
/** The `extra` key that carries the requester's space to a webhook. */
export const TENANT_EXTRA_KEY = 'kube-spaces.io/tenant';

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: { apiVersion: 'meta.k8s.io/v1'; kind: string };
}

export interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  status?: { code?: number; message?: string; reason?: string; status?: string };
  patch?: string;
  patchType?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

const OPTIONS_KIND: Record<Operation, string> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: 'ConnectOptions' };

/** The user as a webhook sees it: Kubernetes' UserInfo, plus the requester's space in `extra`. */
export function reviewUserInfo(user: UserInfo): AdmissionRequest['userInfo'] {
  const extra: Record<string, string[]> = { ...user.extra };
  if (user.tenant !== null) extra[TENANT_EXTRA_KEY] = [user.tenant];
  return {
    username: user.name,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    extra,
  };
}

export function optionsFor(operation: Operation): AdmissionRequest['options'] {
  return { apiVersion: 'meta.k8s.io/v1', kind: OPTIONS_KIND[operation] };
}

export function reviewBody(request: AdmissionRequest): string {
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: ADMISSION_REVIEW_VERSION, request });
}

/**
 * The response of a webhook's answer, or why it is not a valid answer to `uid` (kube's
 * `received invalid webhook response: …` reasons).
 */
export function readResponse(body: unknown, uid: string): AdmissionResponse | { invalid: string } {
  const review = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const apiVersion = typeof review['apiVersion'] === 'string' ? review['apiVersion'] : '';
  const kind = typeof review['kind'] === 'string' ? review['kind'] : '';
  if (apiVersion !== ADMISSION_REVIEW_VERSION || kind !== 'AdmissionReview') {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    return { invalid: `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${group}/${version}, Kind=${kind}` };
  }
  const response = review['response'];
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return { invalid: 'webhook response was absent' };
  const r = response as AdmissionResponse;
  if (r.uid !== uid) return { invalid: `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid ?? '')}` };
  return r;
}

/**
 * kube's ToStatusErr: a refusal worded `admission webhook "x" denied the request: why`, at least
 * 400. Above 599 (no HTTP status) it is 400 too: the code becomes our response's status line.
 */
export function denial(webhook: string, status: AdmissionResponse['status']): { code: number; reason: string; message: string } {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const code = Number.isInteger(status?.code) && status!.code! >= 400 && status!.code! <= 599 ? status!.code! : 400;
  const message = status?.message ? `${deniedBy}: ${status.message}` : status?.reason ? `${deniedBy}: ${status.reason}` : `${deniedBy} without explanation`;
  return { code, reason: status?.reason ?? '', message };
}
