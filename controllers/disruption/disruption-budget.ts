/**
 * A PodDisruptionBudget's numbers, as kube's disruption controller computes them
 * (`pkg/controller/disruption/disruption.go`): how many pods are expected (the scale of their
 * controllers, or the pods themselves for an integer minAvailable), how many must stay healthy,
 * which evictions are still in flight (`status.disruptedPods`, trusted for two minutes), and the
 * disruptions allowed now.
 */
import type { Pod } from '../../api/kinds/core/types.js';
import type { PodDisruptionBudget } from '../../api/kinds/policy/poddisruptionbudget.js';
import { isPodReady } from '../replicaset/pod-state.js';
import { scaledValue } from '../deployment/rollout-arithmetic.js';

/** How long an approved eviction is counted as a pod on its way out (kube's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** A pod's controller as the budget counts it: its uid and its desired scale, or undefined when none is known. */
export type ScaleOf = (pod: Pod) => { uid: string; replicas: number } | undefined;

export interface ExpectedPods {
  expectedCount: number;
  desiredHealthy: number;
  /** Pods with no controller, which a percentage or maxUnavailable cannot account for. */
  unmanaged: string[];
}

/** kube's getExpectedPodCount; throws when a managed pod's controller cannot be found. */
export function expectedPods(pdb: PodDisruptionBudget, pods: Pod[], scaleOf: ScaleOf, hasController: (pod: Pod) => boolean): ExpectedPods {
  const spec = pdb.spec ?? {};
  const expectedScale = (): { count: number; unmanaged: string[] } => {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      if (!hasController(pod)) {
        unmanaged.push(pod.metadata.name ?? '');
        continue;
      }
      const scale = scaleOf(pod);
      if (!scale) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
      scales.set(scale.uid, scale.replicas);
    }
    return { count: [...scales.values()].reduce((a, b) => a + b, 0), unmanaged };
  };
  if (spec.maxUnavailable !== undefined) {
    const { count, unmanaged } = expectedScale();
    const maxUnavailable = scaledValue(spec.maxUnavailable, count, true);
    return { expectedCount: count, desiredHealthy: Math.max(0, count - maxUnavailable), unmanaged };
  }
  if (spec.minAvailable !== undefined) {
    if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanaged: [] };
    const { count, unmanaged } = expectedScale();
    return { expectedCount: count, desiredHealthy: scaledValue(spec.minAvailable, count, true), unmanaged };
  }
  return { expectedCount: pods.length, desiredHealthy: 0, unmanaged: [] };
}

/**
 * kube's buildDisruptedPodMap: evictions approved less than DELETION_TIMEOUT_MS ago whose pod is
 * still there and not being deleted; `recheckAt` is when the first of them stops counting.
 */
export function disruptedPods(pdb: PodDisruptionBudget, pods: Pod[], now: number): { disrupted: Record<string, string>; expired: Pod[]; recheckAt?: number } {
  const recorded = ((pdb.status ?? {}) as { disruptedPods?: Record<string, string> }).disruptedPods ?? {};
  const disrupted: Record<string, string> = {};
  const expired: Pod[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const at = recorded[name];
    if (pod.metadata.deletionTimestamp || at === undefined) continue;
    const deadline = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (deadline < now) expired.push(pod);
    else {
      disrupted[name] = at;
      recheckAt = recheckAt === undefined ? deadline : Math.min(recheckAt, deadline);
    }
  }
  return { disrupted, expired, ...(recheckAt !== undefined ? { recheckAt } : {}) };
}

/** Ready pods neither being deleted nor recently evicted (kube's countHealthyPods). */
export function currentHealthy(pods: Pod[], disrupted: Record<string, string>): number {
  return pods.filter((pod) => !pod.metadata.deletionTimestamp && disrupted[pod.metadata.name ?? ''] === undefined && isPodReady(pod)).length;
}

export function disruptionsAllowed(expectedCount: number, healthy: number, desiredHealthy: number): number {
  const allowed = healthy - desiredHealthy;
  return expectedCount <= 0 || allowed <= 0 ? 0 : allowed;
}
