/**
 * API Priority and Fairness with the space as the flow distinguisher: every request past
 * authentication and authorization is classified to a FlowSchema and its priority level, then
 * admitted through the level's fair queues, where its flow is (priority level, tenant). One
 * tenant's flood waits behind itself; other tenants' requests take their turns beside it.
 *
 * Seats: the server's `--max-requests-inflight` plus `--max-mutating-requests-inflight`, split
 * among the Limited levels by nominalConcurrencyShares (rounded up), as kube-apiserver does (it
 * also lends seats between levels; we do not). Exempt requests take no seat. Long-running
 * requests (exec, attach, port-forward, proxy, logs) are not flow-controlled; a watch holds its
 * seats only while it sends its initial state.
 *
 * A request the level cannot take (its queue full, or waiting past the wait limit) is answered
 * 429 with `Retry-After` (1 s, growing while the level keeps dropping: retry-after.ts), in
 * kube-apiserver's words (a plain-text body, as its `tooManyRequests` writes it). Every classified answer carries `X-Kubernetes-PF-FlowSchema-UID` and
 * `X-Kubernetes-PF-PriorityLevel-UID`.
 *
 * @example
 *   const flowControl = new FlowControl({ maxRequestsInflight: 400, maxMutatingRequestsInflight: 200 });
 *   flowControl.configure(schemas, levels);
 *   app.addHook('onRequest', flowControl.onRequest);
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FlowSchemaObject, PriorityLevelObject } from './flow-objects.js';
import { FlowClassifier } from './flow-classifier.js';
import { FlowRequest, QueueSet, type FlowRequestCallbacks } from './queue-set.js';
import { RetryAfter } from './retry-after.js';
import { flowHash } from './shuffle-shard.js';
import { estimateSeats, type ObjectCount } from './work-estimate.js';

export const DEFAULT_MAX_REQUESTS_INFLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT = 200;
/** kube-apiserver's queue wait limit: a quarter of its 60 s request timeout. */
export const DEFAULT_QUEUE_WAIT_LIMIT_MS = 15_000;

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';

/** Subresources whose requests stay open; kube-apiserver's long-running check passes them by. */
const LONG_RUNNING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy', 'log']);

export interface FlowControlOptions {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  queueWaitLimitMs?: number;
  /** Stored objects of a kind (the watch cache's size), for the seats of a LIST. */
  countObjects?: ObjectCount;
}

/** A priority level as the dispatcher runs it: exempt levels have no queue set. */
export interface PriorityLevelState {
  name: string;
  uid: string;
  queueSet: QueueSet | null;
  /** The Retry-After its rejections carry (kept across reconfiguration, as kube keeps it by name). */
  retryAfter: RetryAfter;
}

/** What a request holds: release it when its response ends, or a watch once its initial state is sent. */
export interface HeldSeats {
  release(): void;
}

/** The seats each Limited level gets of `total`: ceil(total × shares / sum of shares). */
export function nominalSeats(levels: PriorityLevelObject[], total: number): Map<string, number> {
  const limited = levels.filter((l) => l.spec.type === 'Limited');
  const sum = limited.reduce((s, l) => s + (l.spec.limited?.nominalConcurrencyShares ?? 30), 0);
  return new Map(limited.map((l) => [l.metadata.name, Math.max(1, Math.ceil((total * (l.spec.limited?.nominalConcurrencyShares ?? 30)) / Math.max(1, sum)))]));
}

/** One admitted or waiting request: the small record the dispatcher keeps per request. */
class Admission implements FlowRequestCallbacks, HeldSeats {
  readonly flow: FlowRequest;
  constructor(
    seats: number,
    private readonly queueSet: QueueSet,
    private readonly retryAfter: RetryAfter,
    private readonly reply: FastifyReply,
    private readonly done: HookHandlerDoneFunction,
  ) {
    this.flow = new FlowRequest(seats, this);
  }

  start(): void {
    this.done();
  }

  reject(): void {
    this.retryAfter.recordDrop(Math.floor(Date.now() / 1000));
    if (this.reply.raw.destroyed) return;
    answerTooManyRequests(this.reply, this.retryAfter.seconds);
  }

  release = (): void => {
    this.queueSet.finish(this.flow);
  };
}

function answerTooManyRequests(reply: FastifyReply, retryAfterSeconds: number): void {
  // kube-apiserver's tooManyRequests: http.Error's plain text and headers, and Retry-After.
  reply.code(429).header('Retry-After', String(retryAfterSeconds)).header('X-Content-Type-Options', 'nosniff').type('text/plain; charset=utf-8').send(`${TOO_MANY_REQUESTS_MESSAGE}\n`);
}

export class FlowControl {
  private classifier = new FlowClassifier([]);
  private levels = new Map<string, PriorityLevelState>();
  private schemaUids = new Map<string, string>();
  private readonly countObjects: ObjectCount;

  constructor(private readonly options: FlowControlOptions) {
    if (!(options.maxRequestsInflight > 0) || !(options.maxMutatingRequestsInflight > 0)) throw new Error('flow control needs positive --max-requests-inflight and --max-mutating-requests-inflight');
    this.countObjects = options.countObjects ?? (() => undefined);
  }

  /**
   * Takes the current FlowSchemas and PriorityLevelConfigurations. A level whose seats and queues
   * did not change keeps its queue set (and the requests in it); a changed one gets a new set,
   * while requests admitted by the old one finish there.
   */
  configure(schemas: FlowSchemaObject[], levels: PriorityLevelObject[]): void {
    const total = this.options.maxRequestsInflight + this.options.maxMutatingRequestsInflight;
    const seats = nominalSeats(levels, total);
    const next = new Map<string, PriorityLevelState>();
    for (const level of levels) {
      const uid = level.metadata.uid ?? '';
      const retryAfter = this.levels.get(level.metadata.name)?.retryAfter ?? new RetryAfter();
      if (level.spec.type === 'Exempt') {
        next.set(level.metadata.name, { name: level.metadata.name, uid, queueSet: null, retryAfter });
        continue;
      }
      const response = level.spec.limited?.limitResponse;
      const queuing = response?.type === 'Queue' ? response.queuing : undefined;
      const config = {
        seats: seats.get(level.metadata.name) ?? 1,
        queues: response?.type === 'Queue' ? (queuing?.queues ?? 64) : 0,
        handSize: queuing?.handSize ?? 8,
        queueLengthLimit: queuing?.queueLengthLimit ?? 50,
      };
      const old = this.levels.get(level.metadata.name)?.queueSet;
      const same = old && old.config.seats === config.seats && old.config.queues === config.queues && old.config.handSize === config.handSize && old.config.queueLengthLimit === config.queueLengthLimit;
      next.set(level.metadata.name, { name: level.metadata.name, uid, queueSet: same ? old : new QueueSet(config, { waitLimitMs: this.options.queueWaitLimitMs ?? DEFAULT_QUEUE_WAIT_LIMIT_MS }), retryAfter });
    }
    for (const [name, state] of this.levels) if (next.get(name)?.queueSet !== state.queueSet) state.queueSet?.stop();
    this.levels = next;
    this.classifier = new FlowClassifier(schemas);
    this.schemaUids = new Map(schemas.map((s) => [s.metadata.name, s.metadata.uid ?? '']));
  }

  /** The levels now in force, for tests and status. */
  levelStates(): ReadonlyMap<string, PriorityLevelState> {
    return this.levels;
  }

  stop(): void {
    for (const level of this.levels.values()) level.queueSet?.stop();
  }

  /**
   * The `onRequest` hook, after authentication and authorization (a refused request costs no
   * seat). It answers 429 itself, or lets the request on once its seats are granted.
   */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const kube = request.kube;
    const info = kube?.info;
    if (!kube || !info || (info.kind === 'resource' && info.subresource !== undefined && LONG_RUNNING_SUBRESOURCES.has(info.subresource))) return done();
    const schema = this.classifier.classify(kube.user, info);
    // A request no schema matches, or one whose level is gone (dangling), goes to catch-all, as in kube.
    const level = (schema && this.levels.get(schema.spec.priorityLevelConfiguration.name)) ?? this.levels.get('catch-all');
    if (!level) return done();
    reply.raw.setHeader(FLOW_SCHEMA_UID_HEADER, schema ? (this.schemaUids.get(schema.metadata.name) ?? '') : '');
    reply.raw.setHeader(PRIORITY_LEVEL_UID_HEADER, level.uid);
    if (!level.queueSet) return done();
    const query = request.query as Record<string, unknown> | undefined;
    const admission = new Admission(estimateSeats(info, query, this.countObjects), level.queueSet, level.retryAfter, reply, done);
    kube.seats = admission;
    reply.raw.once('close', admission.release);
    // The flow is (priority level, tenant): every schema's requests of one space at a level share
    // one flow, so a tenant gains nothing by matching several schemas (kube hashes the schema's
    // name with its distinguisher instead).
    level.queueSet.enqueue(flowHash(level.name, kube.tenant), admission.flow);
  };
}
