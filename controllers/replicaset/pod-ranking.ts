/**
 * Which pods a replica set deletes first when it has too many, as kube's ActivePodsWithRanks
 * orders them (`pkg/controller/controller_utils.go`, LogarithmicScaleDown on, as it is by default):
 * unassigned before assigned, pending before unknown before running, not ready before ready,
 * lower `controller.kubernetes.io/pod-deletion-cost` first, more pods of the same owner on the
 * node first, ready for less time first (in powers of two), more restarts first, younger first
 * (in powers of two), then by uid.
 *
 * @example
 *   const victims = podsToDelete(pods, relatedPods, 2, Date.now());
 */
import type { Pod } from '../../api/kinds/core/types.js';
import { isPodReady, readyCondition } from './pod-state.js';

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

const PHASE_ORDER: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

export interface RankedPod {
  pod: Pod;
  /** Pods of the same owner family on the pod's node (more: deleted first). */
  rank: number;
}

/** The pod's deletion cost; an absent or unparsable annotation costs 0, as kube's getDeletionCostFromPodAnnotations. */
export function deletionCost(pod: Pod): number {
  const value = pod.metadata.annotations?.[POD_DELETION_COST];
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return 0;
  const cost = Number(value);
  return cost >= -2147483648 && cost <= 2147483647 ? cost : 0;
}

function readyTime(pod: Pod): number | undefined {
  if (!isPodReady(pod)) return undefined;
  const t = readyCondition(pod)?.lastTransitionTime;
  return t ? Date.parse(t) : undefined;
}

function restarts(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((max, c) => Math.max(max, c.restartCount ?? 0), 0);
}

function creationTime(pod: Pod): number | undefined {
  return pod.metadata.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : undefined;
}

/** floor(log2(age in ns)), -1 for no age: kube's logarithmic buckets, so pods of about the same age tie. */
function logBucket(t: number, now: number): number {
  const ns = (now - t) * 1e6;
  return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

/**
 * Negative when `a` goes first by time `t` (newer first), comparing log buckets when both are
 * known, an unknown time first otherwise; 0 for a tie.
 */
function newerFirst(a: number | undefined, b: number | undefined, now: number): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return logBucket(a, now) - logBucket(b, now);
}

/** Negative when `a` should be deleted before `b`. */
export function compareForDeletion(a: RankedPod, b: RankedPod, now: number): number {
  const pa = a.pod;
  const pb = b.pod;
  const assignedA = pa.spec?.nodeName ? 1 : 0;
  const assignedB = pb.spec?.nodeName ? 1 : 0;
  if (assignedA !== assignedB) return assignedA - assignedB;
  const phaseA = PHASE_ORDER[pa.status?.phase ?? ''] ?? 0;
  const phaseB = PHASE_ORDER[pb.status?.phase ?? ''] ?? 0;
  if (phaseA !== phaseB) return phaseA - phaseB;
  const readyA = isPodReady(pa) ? 1 : 0;
  const readyB = isPodReady(pb) ? 1 : 0;
  if (readyA !== readyB) return readyA - readyB;
  const costA = deletionCost(pa);
  const costB = deletionCost(pb);
  if (costA !== costB) return costA - costB;
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (readyA === 1) {
    const byReady = newerFirst(readyTime(pa), readyTime(pb), now);
    if (byReady !== 0) return byReady;
  }
  const restartsA = restarts(pa);
  const restartsB = restarts(pb);
  if (restartsA !== restartsB) return restartsB - restartsA;
  const byAge = newerFirst(creationTime(pa), creationTime(pb), now);
  if (byAge !== 0) return byAge;
  const uidA = pa.metadata.uid ?? '';
  const uidB = pb.metadata.uid ?? '';
  return uidA < uidB ? -1 : uidA > uidB ? 1 : 0;
}

/**
 * The `count` pods of `pods` to delete first. `related` are the active pods of every replica set
 * of the same owner (a deployment's old and new ones): a node holding many of them loses one first.
 */
export function podsToDelete(pods: Pod[], related: Pod[], count: number, now: number): Pod[] {
  if (count >= pods.length) return pods;
  const perNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName;
    if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  const ranked = pods.map((pod) => ({ pod, rank: pod.spec?.nodeName ? (perNode.get(pod.spec.nodeName) ?? 0) : 0 }));
  ranked.sort((a, b) => compareForDeletion(a, b, now));
  return ranked.slice(0, count).map((r) => r.pod);
}
