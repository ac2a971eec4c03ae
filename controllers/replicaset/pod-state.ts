/**
 * What the workload controllers read off a pod, as kube's `pkg/api/v1/pod` and `controller_utils`
 * decide it: active (counted as a replica), ready, available after minReadySeconds.
 */
import type { Pod, PodCondition } from '../../api/kinds/core/types.js';

export function readyCondition(pod: Pod): PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** Ready for at least `minReadySeconds` at `now` (kube's IsPodAvailable). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 < now;
}

/** Counted as a replica: not finished and not on its way out (kube's IsPodActive). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}
