/**
 * Audit events (`audit.k8s.io/v1` Event) for every request the policy audits, as kube-apiserver
 * writes them: auditID (the request's id, also its `Audit-Id` response header), stage, requestURI,
 * verb, user and impersonatedUser, sourceIPs, userAgent, objectRef, responseStatus, the bodies the
 * level asks for, requestReceivedTimestamp and stageTimestamp, and the authorization decision and
 * reason as annotations. Our additions: `objectRef.tenant`, and the annotation
 * `kube-spaces.io/tenant` naming the space the request acted in (also for non-resource requests).
 *
 * Stages: RequestReceived once the request is authenticated and authorized (or, for a refused
 * request, just before its ResponseComplete); ResponseStarted when a long-running response (a
 * watch) sends its head; ResponseComplete when the response ends, or Panic instead when it ended
 * in an unexpected error (a 500 that was no API error).
 *
 * @example
 *   const audit = new AuditRecorder(parseAuditPolicy(text), await AuditLog.open({ path: '-', … }));
 *   recordAudit(app, audit);   // hooks: before authentication, after it, onSend, onError
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserInfo } from '../../../api/access.js';
import { ApiError } from '../../../api/status.js';
import { accessRecordOf, requestInfoOf } from '../request-context.js';
import type { RequestInfo } from '../request-info.js';
import type { AuditLog } from './audit-log.js';
import type { AuditDecision, AuditPolicy, AuditStage } from './audit-policy.js';

/** What one request's audit needs between its hooks. */
interface AuditedRequest {
  received: Date;
  decision?: AuditDecision;
  receivedLogged: boolean;
  panicked: boolean;
}

interface EventUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export class AuditRecorder {
  constructor(
    private readonly policy: AuditPolicy,
    private readonly log: Pick<AuditLog, 'write'>,
  ) {}

  decide(request: FastifyRequest): AuditDecision {
    const record = accessRecordOf(request.raw);
    const info = requestInfoOf(request.raw);
    const user = record?.user ?? record?.authenticated ?? { name: '', groups: [] };
    return this.policy.decide({
      user,
      verb: verbOf(info, request.method),
      tenant: record?.tenant ?? '',
      ...(info?.kind === 'resource'
        ? { resource: { group: info.group, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name } }
        : { path: info?.path ?? request.url }),
    });
  }

  emit(request: FastifyRequest, audited: AuditedRequest, stage: AuditStage, code?: number): void {
    const decision = audited.decision!;
    if (decision.level === 'None' || decision.omitStages.includes(stage)) return;
    const record = accessRecordOf(request.raw);
    const info = requestInfoOf(request.raw);
    const tenant = record?.tenant ?? '';
    const impersonating = record?.user !== undefined && record.user !== record.authenticated;
    const withBodies = stage === 'ResponseComplete' || stage === 'Panic';
    const event: Record<string, unknown> = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: decision.level,
      auditID: request.id,
      stage,
      requestURI: request.originalUrl,
      verb: verbOf(info, request.method),
      user: record?.authenticated ? eventUser(record.authenticated) : { username: '' },
      ...(impersonating ? { impersonatedUser: eventUser(record.user!) } : {}),
      sourceIPs: [request.ip],
      ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
      ...(info?.kind === 'resource' ? { objectRef: objectRef(info, tenant) } : {}),
      ...(code !== undefined ? { responseStatus: { metadata: {}, code } } : {}),
      ...(withBodies && decision.level !== 'Metadata' ? bodies(request, decision) : {}),
      requestReceivedTimestamp: microTime(audited.received),
      stageTimestamp: microTime(new Date()),
      annotations: annotations(record?.decision, tenant, request.kube?.auditAnnotations),
    };
    this.log.write(event);
  }
}

/** Registers the hooks; call before the authentication hook is added, and `afterAuthentication` after it. */
export function recordAudit(app: FastifyInstance, recorder: AuditRecorder): { afterAuthentication(): void } {
  const requests = new WeakMap<FastifyRequest, AuditedRequest>();
  app.addHook('onRequest', (request, reply, done) => {
    const audited: AuditedRequest = { received: new Date(), receivedLogged: false, panicked: false };
    requests.set(request, audited);
    reply.raw.once('close', () => {
      audited.decision ??= recorder.decide(request);
      if (!audited.receivedLogged) recorder.emit(request, audited, 'RequestReceived');
      recorder.emit(request, audited, audited.panicked ? 'Panic' : 'ResponseComplete', reply.raw.statusCode);
    });
    done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const audited = requests.get(request);
    if (audited && !(error instanceof ApiError) && !isClientError(error)) audited.panicked = true;
    done();
  });
  return {
    afterAuthentication() {
      app.addHook('onRequest', (request, reply, done) => {
        const audited = requests.get(request);
        if (audited) {
          audited.decision = recorder.decide(request);
          recorder.emit(request, audited, 'RequestReceived');
          audited.receivedLogged = true;
          if (isLongRunning(requestInfoOf(request.raw))) onHead(reply.raw, () => recorder.emit(request, audited, 'ResponseStarted', reply.raw.statusCode));
        }
        done();
      });
    },
  };
}

/** Calls `started` once, when the response writes its head (a stream's, which Fastify no longer sees). */
function onHead(res: ServerResponse, started: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    res.writeHead = writeHead;
    const result = writeHead.apply(this, args);
    started();
    return result;
  } as ServerResponse['writeHead'];
}

function isLongRunning(info: RequestInfo | null): boolean {
  return info?.kind === 'resource' && (info.verb === 'watch' || ['log', 'exec', 'attach', 'portforward', 'proxy'].includes(info.subresource ?? ''));
}

function isClientError(error: unknown): boolean {
  const code = (error as { statusCode?: unknown }).statusCode;
  return typeof code === 'number' && code >= 400 && code < 500;
}

/** The audit verb: the request's verb for resources, the lowercase HTTP method otherwise (kube-apiserver's). */
function verbOf(info: RequestInfo | null, method: string): string {
  return info?.kind === 'resource' ? info.verb : method.toLowerCase();
}

function eventUser(user: UserInfo): EventUser {
  const extra = Object.keys(user.extra).length > 0 ? { extra: user.extra as Record<string, string[]> } : {};
  return { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: [...user.groups], ...extra };
}

function objectRef(info: Extract<RequestInfo, { kind: 'resource' }>, tenant: string): Record<string, string> {
  const ref: Record<string, string> = { resource: info.resource };
  if (info.namespace !== undefined) ref.namespace = info.namespace;
  if (info.name !== undefined) ref.name = info.name;
  if (info.group !== '') ref.apiGroup = info.group;
  ref.apiVersion = info.version;
  if (info.subresource !== undefined) ref.subresource = info.subresource;
  if (tenant !== '') ref.tenant = tenant;
  return ref;
}

function annotations(decision: { allowed: boolean; reason: string } | undefined, tenant: string, admission: ReadonlyMap<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of admission ?? []) out[key] = value;
  if (decision) {
    out['authorization.k8s.io/decision'] = decision.allowed ? 'allow' : 'forbid';
    out['authorization.k8s.io/reason'] = decision.reason;
  }
  if (tenant !== '') out['kube-spaces.io/tenant'] = tenant;
  // Sorted by key, as Go writes a map.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function bodies(request: FastifyRequest, decision: AuditDecision): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const requestObject = request.kube?.decodedBody ?? decodeJson(request.body);
  if (requestObject !== undefined) out.requestObject = decision.omitManagedFields ? withoutManagedFields(requestObject) : requestObject;
  if (decision.level === 'RequestResponse') {
    const responseObject = request.kube?.responseBody;
    if (responseObject !== undefined) out.responseObject = decision.omitManagedFields ? withoutManagedFields(responseObject) : responseObject;
  }
  return out;
}

/** A JSON body no handler decoded (a refused request's) as a value; undefined for none, or one in another format. */
function decodeJson(body: unknown): unknown {
  if (!(typeof body === 'string' || Buffer.isBuffer(body)) || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}

/** The object (or each item of a list) without metadata.managedFields. */
function withoutManagedFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = { ...obj };
  const metadata = obj.metadata as Record<string, unknown> | undefined;
  if (metadata && typeof metadata === 'object' && 'managedFields' in metadata) {
    const { managedFields: _dropped, ...rest } = metadata;
    out.metadata = rest;
  }
  if (Array.isArray(obj.items)) out.items = obj.items.map(withoutManagedFields);
  return out;
}

/** RFC 3339 with microseconds, as Go's metav1.MicroTime: `2024-05-01T12:00:00.123000Z`. */
function microTime(date: Date): string {
  return date.toISOString().replace('Z', '000Z');
}
