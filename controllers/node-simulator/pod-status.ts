/**
 * What the node simulator says of a pod on one of its nodes, computed from the pod and the clock
 * alone (so a restarted simulator carries on where it was): the status to write, and when to look
 * again. No container runs; every step is what a kubelet would report of a container that starts
 * at once and, for pods that finish, runs for a while and exits.
 *
 * - A pod is admitted with its init containers completed and its containers running and ready,
 *   in one write: `phase: Running`, the kubelet's five conditions, start times, IPs.
 * - Ready honours `spec.readinessGates`: only when every gate's condition is True.
 * - Containers of pods that finish (owned by a Job, or `restartPolicy` Never or OnFailure) exit
 *   after the simulated runtime with the code of the `EXIT_CODE_ANNOTATION` (default 0): 0 gives
 *   `Succeeded`; another code `Failed` (Never) or a restart (OnFailure, counted in `restartCount`).
 * - Pods with `restartPolicy: Always` (the default) run until deleted.
 *
 * @example
 *   const step = simulatePod(pod, { now: Date.now(), podRuntimeMs: 5_000, hostIP: '10.240.0.1', podIP: '10.244.0.2' });
 *   if (step.status) await writeStatus(pod, step.status);
 *   if (step.recheckInMs !== undefined) lookAgainIn(step.recheckInMs);
 */
import { createHash } from 'node:crypto';
import type { Container, ContainerStatus, Pod, PodCondition, PodStatus } from '../../api/kinds/core/types.js';
import { nowTimestamp } from '../../api/registry/timestamp.js';
import { semanticEqual } from '../../api/validation/equality.js';

/** A pod annotation: the exit code its containers finish with (pods that finish only). */
export const EXIT_CODE_ANNOTATION = 'node-simulator.kube-spaces.io/exit-code';
/** The scheme of the container IDs the simulator makes up, so nobody takes them for a runtime's. */
export const SIMULATED_CONTAINER_SCHEME = 'simulated://';

export interface PodSimulationContext {
  now: number;
  /** How long the containers of a pod that finishes run. */
  podRuntimeMs: number;
  hostIP: string;
  /** The pod's IP (the host's for hostNetwork pods). */
  podIP: string;
}

export interface PodStep {
  /** The status to write; absent when the current one is already right. */
  status?: PodStatus;
  /** When something changes next without anyone else acting (a container exits). */
  recheckInMs?: number;
}

const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Whether the pod's containers are meant to end: a Job's, or not restarted when they exit. */
export function podFinishes(pod: Pod): boolean {
  const policy = pod.spec?.restartPolicy ?? 'Always';
  return policy !== 'Always' || (pod.metadata.ownerReferences ?? []).some((o) => o.kind === 'Job' && o.apiVersion.startsWith('batch/'));
}

function exitCodeOf(pod: Pod): number {
  const text = pod.metadata.annotations?.[EXIT_CODE_ANNOTATION];
  const code = text === undefined ? 0 : Number(text);
  return Number.isInteger(code) && code >= 0 && code <= 255 ? code : 1;
}

function containerID(pod: Pod, name: string, restartCount: number): string {
  return `${SIMULATED_CONTAINER_SCHEME}${sha(`${pod.metadata.uid ?? ''}/${name}/${restartCount}`)}`;
}

/** The running status of a container, started at `startedAt`. */
function running(pod: Pod, c: Container, startedAt: string, restartCount: number, lastState: ContainerStatus['lastState'] = {}): ContainerStatus {
  return {
    name: c.name,
    state: { running: { startedAt } },
    lastState,
    ready: true,
    restartCount,
    image: c.image,
    imageID: `${SIMULATED_CONTAINER_SCHEME}${c.image ?? ''}`,
    containerID: containerID(pod, c.name ?? '', restartCount),
    started: true,
  };
}

function terminated(status: ContainerStatus, exitCode: number, finishedAt: string): ContainerStatus {
  const startedAt = status.state?.running?.startedAt;
  return {
    ...status,
    state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt, finishedAt, containerID: status.containerID } },
    ready: false,
    started: false,
  };
}

/** An init container that ran to completion when the pod started (a sidecar, `restartPolicy: Always`, keeps running). */
function initialized(pod: Pod, c: Container, at: string): ContainerStatus {
  const status = running(pod, c, at, 0);
  return c.restartPolicy === 'Always' ? status : { ...terminated(status, 0, at), ready: true };
}

/** Kubernetes' generatePodReadyCondition: ready containers, then every readiness gate True. */
function readyCondition(pod: Pod, containersReady: boolean, unready: string[], phase: string): PodCondition {
  if (phase === 'Succeeded' || phase === 'Failed') return { type: 'Ready', status: 'False', reason: 'PodCompleted' };
  if (!containersReady) return { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` };
  const messages: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const condition = (pod.status?.conditions ?? []).find((c) => c.type === gate.conditionType);
    if (!condition) messages.push(`corresponding condition of pod readiness gate ${JSON.stringify(gate.conditionType)} does not exist.`);
    else if (condition.status !== 'True') messages.push(`the status of pod readiness gate ${JSON.stringify(gate.conditionType)} is not "True", but ${condition.status ?? ''}`);
  }
  if (messages.length > 0) return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: messages.join(', ') };
  return { type: 'Ready', status: 'True' };
}

/** The kubelet's conditions, transition times kept where the status did not change; others' conditions (gates) kept after them. */
function conditions(pod: Pod, ours: PodCondition[], now: string): PodCondition[] {
  const existing = pod.status?.conditions ?? [];
  const stamped = ours.map((c) => {
    const old = existing.find((e) => e.type === c.type);
    return { ...c, lastTransitionTime: old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now };
  });
  return [...stamped, ...existing.filter((c) => !KUBELET_CONDITIONS.includes(c.type ?? ''))];
}

/** The containers' statuses at `now`: started with the pod, then exited (and maybe restarted) for pods that finish. */
function containerStatuses(pod: Pod, ctx: PodSimulationContext, startTime: string): { statuses: ContainerStatus[]; recheckInMs?: number } {
  const previous = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  const now = nowTimestamp(ctx.now);
  let recheckInMs: number | undefined;
  const statuses = (pod.spec?.containers ?? []).map((c) => {
    const old = previous.get(c.name);
    if (old?.state?.terminated) return old;
    const status = old?.state?.running ? old : running(pod, c, startTime, 0);
    if (!podFinishes(pod)) return status;
    const endsAt = Date.parse(status.state!.running!.startedAt!) + ctx.podRuntimeMs;
    if (ctx.now < endsAt) {
      recheckInMs = Math.min(recheckInMs ?? Infinity, endsAt - ctx.now);
      return status;
    }
    const code = exitCodeOf(pod);
    if (code !== 0 && pod.spec?.restartPolicy === 'OnFailure') {
      // Restarted in place, as a kubelet restarts a failed container (no back-off here).
      recheckInMs = Math.min(recheckInMs ?? Infinity, ctx.podRuntimeMs);
      return running(pod, c, now, (status.restartCount ?? 0) + 1, terminated(status, code, now).state);
    }
    return terminated(status, code, now);
  });
  return recheckInMs === undefined ? { statuses } : { statuses, recheckInMs };
}

/** Kubernetes' getPhase for what the simulator reports: Running while any container runs, then Succeeded or Failed. */
function phaseOf(statuses: readonly ContainerStatus[]): string {
  if (statuses.some((s) => !s.state?.terminated)) return 'Running';
  return statuses.every((s) => s.state?.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
}

/** The next status of a pod on a simulated node (one that is not being deleted). */
export function simulatePod(pod: Pod, ctx: PodSimulationContext): PodStep {
  const current = pod.status ?? {};
  if (current.phase === 'Succeeded' || current.phase === 'Failed') return {};
  const now = nowTimestamp(ctx.now);
  const startTime = current.startTime ?? now;
  const { statuses, recheckInMs } = containerStatuses(pod, ctx, startTime);
  const phase = phaseOf(statuses);
  const finished = phase !== 'Running';
  const unready = statuses.filter((s) => !s.ready).map((s) => s.name ?? '');
  const containersReady = unready.length === 0;
  const ours: PodCondition[] = [
    { type: 'PodReadyToStartContainers', status: finished ? 'False' : 'True' },
    { type: 'Initialized', status: 'True' },
    readyCondition(pod, containersReady, unready, phase),
    containersReady ? { type: 'ContainersReady', status: 'True' } : { type: 'ContainersReady', status: 'False', reason: finished ? 'PodCompleted' : 'ContainersNotReady', ...(finished ? {} : { message: `containers with unready status: [${unready.join(' ')}]` }) },
    { type: 'PodScheduled', status: 'True' },
  ];
  const next: PodStatus = {
    ...current,
    phase,
    conditions: conditions(pod, ours, now),
    hostIP: ctx.hostIP,
    hostIPs: [{ ip: ctx.hostIP }],
    podIP: ctx.podIP,
    podIPs: [{ ip: ctx.podIP }],
    startTime,
    containerStatuses: statuses,
  };
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length > 0) next.initContainerStatuses = current.initContainerStatuses ?? inits.map((c) => initialized(pod, c, startTime));
  const step: PodStep = semanticEqual(next, current) ? {} : { status: next };
  if (recheckInMs !== undefined && !finished) step.recheckInMs = recheckInMs;
  return step;
}
