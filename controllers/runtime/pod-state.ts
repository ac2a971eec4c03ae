/**
 * What workload controllers read from a pod's status, as kube's podutil does: ready, available
 * (ready for minReadySeconds), active (neither finished nor being deleted).
 */
import type { Pod } from '../../api/kinds/core/types.js';

export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Ready since at least `minReadySeconds` before `now`. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True');
  if (!ready) return false;
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 <= now;
}

export function isPodFinished(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

export function isPodTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp != null;
}

/** Pending or running, and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !isPodFinished(pod) && !isPodTerminating(pod);
}

export function isPodRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}
