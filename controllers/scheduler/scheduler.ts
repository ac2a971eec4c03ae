/**
 * The scheduler (kube-scheduler's default profile, `default-scheduler`): one instance over every
 * space, on the shared pods (all spaces) and nodes informers. A pending pod (this scheduler's name,
 * no node, no scheduling gates, not being deleted) is filtered against every node (filters.ts),
 * the nodes it fits are scored (scoring.ts), and it is assumed onto the best one (cluster-state.ts)
 * and bound through `pods/binding` while the next pod is scheduled. Writes go through the client
 * as `system:kube-scheduler`: the binding, a `Scheduled` event ("Successfully assigned ns/pod to
 * node"), or for a pod no node fits a `FailedScheduling` event with kube's message (fit-error.ts)
 * and the pod's `PodScheduled` condition False/Unschedulable with the same message.
 *
 * A pod no node fits waits, as in kube-scheduler's unschedulable queue, until something that could
 * make room happens (a node added or changed in what scheduling reads, a placed pod deleted or
 * finished), then is retried after its backoff (1 s doubling to 10 s per attempt); it is retried
 * anyway after five minutes. Pods are scheduled one at a time, so each decision sees the previous
 * ones.
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod, PodCondition } from '../../api/kinds/core/types.js';
import { nowTimestamp } from '../../api/registry/timestamp.js';
import { ApiError } from '../../api/status.js';
import { pods as podsKind } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyString, parseKeyString, type ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { ClusterState, isTerminal } from './cluster-state.js';
import { filterNode, type FilterStatus, type NodeInfo } from './filters.js';
import { fitErrorMessage, NO_NODES_AVAILABLE, truncateMessage } from './fit-error.js';
import { podRequests } from './pod-requests.js';
import { selectHost } from './scoring.js';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** kube-scheduler's queue timings: podInitialBackoffDuration, podMaxBackoffDuration, podMaxInUnschedulablePodsDuration. */
const INITIAL_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 10_000;
const MAX_UNSCHEDULABLE_MS = 5 * 60_000;
const FLUSH_INTERVAL_MS = 30_000;

export interface SchedulerDeps {
  /** Acts as system:kube-scheduler. */
  client: KubeClient;
  pods: Informer;
  nodes: Informer;
  recorder: EventRecorder;
  log: { error(obj: object, msg: string): void };
  now?: () => number;
}

/** What scheduling one pod decided: a node, or why none. */
export type ScheduleResult = { node: string } | { message: string };

interface Unschedulable {
  attempts: number;
  lastAttempt: number;
}

/** Whether this scheduler should place the pod. */
export function needsScheduling(pod: Pod): boolean {
  const spec = pod.spec ?? {};
  return (spec.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME && !spec.nodeName && (spec.schedulingGates ?? []).length === 0 && !pod.metadata.deletionTimestamp && !isTerminal(pod);
}

/** One scheduling cycle over the nodes as they are now: filter, then score the feasible ones. */
export function schedulePod(pod: Pod, nodes: readonly NodeInfo[]): ScheduleResult {
  if (nodes.length === 0) return { message: NO_NODES_AVAILABLE };
  const toSchedule = { pod, requests: podRequests(pod) };
  const feasible: NodeInfo[] = [];
  const refused: FilterStatus[] = [];
  for (const info of nodes) {
    const status = filterNode(toSchedule, info);
    if (status) refused.push(status);
    else feasible.push(info);
  }
  if (feasible.length === 0) return { message: fitErrorMessage(nodes.length, refused, pod.spec?.preemptionPolicy === 'Never') };
  return { node: selectHost(pod, feasible).node.metadata.name! };
}

/** What of a node the filters and scores read; a heartbeat that changes none of it wakes no pod. */
function schedulingView(node: Node | undefined): string {
  if (!node) return '';
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status;
  return JSON.stringify([node.metadata.labels, node.spec?.unschedulable, node.spec?.taints, node.status?.allocatable, ready]);
}

/** PodScheduled as UpdatePodCondition records it: the transition time moves only when the status does. */
function unschedulableCondition(pod: Pod, message: string, now: number): PodCondition | undefined {
  const old = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (old?.status === 'False' && old.reason === 'Unschedulable' && old.message === message) return undefined;
  return { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastTransitionTime: old?.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : nowTimestamp(now) };
}

export class Scheduler {
  readonly controller: Controller;
  private readonly state = new ClusterState();
  private readonly unschedulable = new Map<string, Unschedulable>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SchedulerDeps) {
    this.now = deps.now ?? Date.now;
    this.controller = new Controller({ name: 'scheduler', reconcile: (key) => this.scheduleOne(key), log: deps.log });
    deps.pods.onChange((key, obj, previous) => this.podChanged(key, obj as Pod | undefined, previous as Pod | undefined));
    deps.nodes.onChange((_key, obj, previous) => {
      if (schedulingView(obj as Node | undefined) !== schedulingView(previous as Node | undefined) && obj) this.retryUnschedulable();
    });
  }

  start(): void {
    this.controller.start();
    this.timer = setInterval(() => this.flushLeftover(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.controller.stop();
  }

  private podChanged(key: ObjectKey, pod: Pod | undefined, previous: Pod | undefined): void {
    this.state.podChanged(key, pod);
    const k = keyString(key);
    // A placed pod that goes (or finishes) leaves room on its node.
    const freed = previous?.spec?.nodeName && !isTerminal(previous) && (!pod || isTerminal(pod));
    if (!pod || !needsScheduling(pod)) this.unschedulable.delete(k);
    else if (!this.unschedulable.has(k) || JSON.stringify([pod.spec, pod.metadata.labels]) !== JSON.stringify([previous?.spec, previous?.metadata.labels])) {
      // New, or changed in what scheduling reads; our own status writes to a waiting pod are neither.
      this.unschedulable.delete(k);
      this.controller.enqueue(key);
    }
    if (freed) this.retryUnschedulable();
  }

  /** kube's MoveAllToActiveOrBackoffQueue: every waiting pod, once its backoff has passed. */
  private retryUnschedulable(): void {
    const now = this.now();
    for (const [k, waiting] of this.unschedulable) {
      const backoff = Math.min(INITIAL_BACKOFF_MS * 2 ** (waiting.attempts - 1), MAX_BACKOFF_MS);
      this.controller.queue.addAfter(parseKeyString(k), Math.max(0, waiting.lastAttempt + backoff - now));
    }
  }

  /** kube's flushUnschedulablePodsLeftover: a pod waiting five minutes is tried again anyway. */
  private flushLeftover(): void {
    const now = this.now();
    for (const [k, waiting] of this.unschedulable) if (now - waiting.lastAttempt >= MAX_UNSCHEDULABLE_MS) this.controller.enqueue(parseKeyString(k));
  }

  private nodeInfos(): NodeInfo[] {
    return this.deps.nodes
      .lister<Node>()
      .list()
      .map((node) => this.state.nodeInfo(node));
  }

  private async scheduleOne(key: ObjectKey): Promise<ReconcileResult> {
    const pod = this.deps.pods.get(key) as Pod | undefined;
    if (!pod || !needsScheduling(pod) || this.state.isAssumed(key)) return done;
    const result = schedulePod(pod, this.nodeInfos());
    if ('node' in result) {
      this.unschedulable.delete(keyString(key));
      this.state.assume(key, pod, result.node);
      // Bound in the background (kube's binding cycle): the next pod is scheduled meanwhile, counting this one.
      void this.bind(key, pod, result.node);
    } else {
      await this.failed(key, pod, result.message);
    }
    return done;
  }

  private async bind(key: ObjectKey, pod: Pod, node: string): Promise<void> {
    const pods = this.deps.client.space(key.tenant).namespace(key.namespace).resource(podsKind);
    try {
      await pods.createSubresource(key.name, 'binding', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: key.name, namespace: key.namespace, uid: pod.metadata.uid },
        target: { kind: 'Node', name: node },
      });
    } catch (err) {
      this.state.forget(key);
      // Placed by someone else, deleted or recreated meanwhile: the informer brings the pod back if it still waits.
      if (err instanceof ApiError && (err.reason === 'Conflict' || err.reason === 'NotFound')) return;
      this.deps.log.error({ err, pod: key, node }, 'binding failed');
      this.controller.queue.addRateLimited(key);
      return;
    }
    this.deps.recorder.record({ regarding: { ...pod, apiVersion: 'v1', kind: 'Pod' }, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `Successfully assigned ${key.namespace}/${key.name} to ${node}` });
  }

  private async failed(key: ObjectKey, pod: Pod, message: string): Promise<void> {
    const now = this.now();
    const k = keyString(key);
    this.unschedulable.set(k, { attempts: (this.unschedulable.get(k)?.attempts ?? 0) + 1, lastAttempt: now });
    const note = truncateMessage(message);
    this.deps.recorder.record({ regarding: { ...pod, apiVersion: 'v1', kind: 'Pod' }, type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note });
    const condition = unschedulableCondition(pod, note, now);
    if (!condition) return;
    try {
      await this.deps.client
        .space(key.tenant)
        .namespace(key.namespace)
        .resource(podsKind)
        .patch(key.name, 'strategic', { status: { conditions: [condition] } }, { subresource: 'status' });
    } catch (err) {
      // Gone meanwhile: nothing to tell. Otherwise the next attempt writes it again.
      if (!(err instanceof ApiError && err.reason === 'NotFound')) this.deps.log.error({ err, pod: key }, 'pod condition not written');
    }
  }
}
