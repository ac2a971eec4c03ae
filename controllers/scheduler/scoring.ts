/**
 * kube-scheduler's scoring of the nodes a pod fits, with its default weights: NodeResourcesFit's
 * LeastAllocated (weight 1: the share of cpu and memory left free once the pod is placed,
 * counting containers without requests at kube's defaults), NodeAffinity (weight 2: the weights
 * of the preferred terms a node matches, normalized to 0–100) and TaintToleration (weight 3: fewer
 * untolerated PreferNoSchedule taints score higher). The best total wins; ties go to the first
 * node by name, so a placement is reproducible (kube-scheduler picks among ties at random).
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { controllerKey } from './cluster-state.js';
import { effectiveTaints, nodeAffinityOf, termMatches, toleratesTaint, type NodeInfo } from './filters.js';
import { CPU, MEMORY, podRequests, type Resources } from './pod-requests.js';

const MAX_NODE_SCORE = 100;
const WEIGHTS = { leastAllocated: 1, nodeAffinity: 2, taintToleration: 3, podSpread: 2 };

/**
 * LeastAllocated: for cpu and memory, (allocatable − requested) × 100 / allocatable, averaged;
 * `own` is the pod's requests with kube's defaults for containers without any.
 */
export function leastAllocatedScore(own: Resources, info: NodeInfo): number {
  let total = 0;
  for (const name of [CPU, MEMORY]) {
    const have = info.allocatable.get(name) ?? 0;
    const used = (info.requestedNonZero.get(name) ?? 0) + (own.get(name) ?? 0);
    total += have === 0 || used > have ? 0 : Math.floor(((have - used) * MAX_NODE_SCORE) / have);
  }
  return Math.floor(total / 2);
}

function preferredAffinityScore(pod: Pod, node: Node): number {
  let score = 0;
  for (const term of nodeAffinityOf(pod)?.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
    if ((term.weight ?? 0) !== 0 && term.preference && termMatches(term.preference, node)) score += term.weight!;
  }
  return score;
}

function intolerablePreferNoSchedule(pod: Pod, node: Node): number {
  const tolerations = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  return effectiveTaints(node).filter((t) => t.effect === 'PreferNoSchedule' && !toleratesTaint(tolerations, t)).length;
}

/**
 * Spreading replicas over nodes, as kube-scheduler's default topology spread (maxSkew 3 by
 * hostname, ScheduleAnyway) does for pods a controller owns: per node, the pods already there with
 * the same controller (same space, namespace and owner uid). Fewer is better.
 */
function siblingsPerNode(pod: Pod, infos: readonly NodeInfo[]): number[] {
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller)?.uid;
  if (owner === undefined) return infos.map(() => 0);
  const controller = controllerKey(pod.metadata.tenant, pod.metadata.namespace, owner);
  return infos.map((info) => info.podsControlledBy(controller));
}

/** kube's DefaultNormalizeScore: scaled so the largest is 100 (or reversed: the largest is 0). */
function normalize(scores: number[], reverse: boolean): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return scores.map((s) => {
    const scaled = Math.floor((s * MAX_NODE_SCORE) / max);
    return reverse ? MAX_NODE_SCORE - scaled : scaled;
  });
}

/** The nodes' total scores, in the order given. */
export function scoreNodes(pod: Pod, infos: readonly NodeInfo[]): number[] {
  const own = podRequests(pod, true);
  const affinity = normalize(infos.map((i) => preferredAffinityScore(pod, i.node)), false);
  const taints = normalize(infos.map((i) => intolerablePreferNoSchedule(pod, i.node)), true);
  const spread = normalize(siblingsPerNode(pod, infos), true);
  return infos.map(
    (info, i) => WEIGHTS.leastAllocated * leastAllocatedScore(own, info) + WEIGHTS.nodeAffinity * affinity[i]! + WEIGHTS.taintToleration * taints[i]! + WEIGHTS.podSpread * spread[i]!,
  );
}

/** The feasible node to place the pod on: the best score, the first by name among equals. */
export function selectHost(pod: Pod, feasible: readonly NodeInfo[]): NodeInfo {
  const scores = scoreNodes(pod, feasible);
  let best = 0;
  for (let i = 1; i < feasible.length; i += 1) {
    const better = scores[i]! > scores[best]! || (scores[i] === scores[best] && feasible[i]!.node.metadata.name! < feasible[best]!.node.metadata.name!);
    if (better) best = i;
  }
  return feasible[best]!;
}
