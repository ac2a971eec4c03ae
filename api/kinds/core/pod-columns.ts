/**
 * The columns of `kubectl get pods`: NAME READY STATUS RESTARTS AGE, and with `-o wide` IP NODE
 * NOMINATED NODE READINESS GATES. STATUS is the summary kubectl users know (`Running`,
 * `CrashLoopBackOff`, `Init:0/1`, `Terminating`, ...), derived from the container statuses the
 * same way Kubernetes' printer derives it.
 */
import { ageColumn, humanAge, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { column } from './table-cells.js';
import type { Container, ContainerStatus, Pod } from './types.js';

interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

const isSidecar = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';

/** The later of two timestamps (either may be missing). */
function later(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

function hasCondition(pod: Pod, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** What the terminated state of a container says, as a status word. */
function terminatedReason(t: NonNullable<NonNullable<ContainerStatus['state']>['terminated']>, prefix: string): string {
  if (t.reason) return prefix + t.reason;
  return t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode ?? 0}`;
}

function summarizePod(pod: Pod, now: number): PodSummary {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const initContainers = new Map((spec.initContainers ?? []).map((c) => [c.name ?? '', c]));
  const total = (spec.containers ?? []).length + (spec.initContainers ?? []).filter(isSidecar).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;

  let reason = status.reason || status.phase || '';
  if ((status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i += 1) {
    const cs = initStatuses[i]!;
    const sidecar = isSidecar(initContainers.get(cs.name ?? ''));
    restarts += cs.restartCount ?? 0;
    lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
    if (sidecar) {
      sidecarRestarts += cs.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, cs.lastState?.terminated?.finishedAt);
    }
    const terminated = cs.state?.terminated;
    const waiting = cs.state?.waiting;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (sidecar && cs.started) {
      if (cs.ready) ready += 1;
      continue;
    }
    if (terminated) reason = terminatedReason(terminated, 'Init:');
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') reason = `Init:${waiting.reason}`;
    else reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    initializing = true;
    break;
  }

  if (!initializing || hasCondition(pod, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i -= 1) {
      const cs = statuses[i]!;
      restarts += cs.restartCount ?? 0;
      lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
      const { waiting, terminated, running } = cs.state ?? {};
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated) reason = terminatedReason(terminated, '');
      else if (cs.ready && running) {
        hasRunning = true;
        ready += 1;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';

  const restartText = restarts !== 0 && lastRestart ? `${restarts} (${humanAge(lastRestart, now)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText };
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const passing = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${passing}/${gates.length}`;
}

export const podColumns: PrinterColumn<Pod>[] = [
  nameColumn as PrinterColumn<Pod>,
  column<Pod>('Ready', 'string', 'How many of the pod’s containers are ready.', (pod, now) => summarizePod(pod, now).ready),
  column<Pod>('Status', 'string', 'A one-word summary of the pod’s containers.', (pod, now) => summarizePod(pod, now).status),
  column<Pod>('Restarts', 'string', 'Container restarts, and how long ago the last one was.', (pod, now) => summarizePod(pod, now).restarts),
  ageColumn as PrinterColumn<Pod>,
  column<Pod>('IP', 'string', 'IP address of the pod.', (pod) => pod.status?.podIPs?.[0]?.ip || '<none>', 1),
  column<Pod>('Node', 'string', 'The node the pod runs on.', (pod) => pod.spec?.nodeName || '<none>', 1),
  column<Pod>('Nominated Node', 'string', 'The node the pod may be scheduled to after preemption.', (pod) => pod.status?.nominatedNodeName || '<none>', 1),
  column<Pod>('Readiness Gates', 'string', 'Readiness gates passing, of those declared.', readinessGates, 1),
];
