/**
 * Whether a DaemonSet's pod belongs on a node (kube's `NodeShouldRunDaemonPod`): the template's
 * nodeName, nodeSelector and required node affinity, and the node's taints against the pod's
 * tolerations — including those every daemon pod gets (`AddOrUpdateDaemonPodTolerations`: not
 * ready and unreachable NoExecute; disk, memory and pid pressure and unschedulable NoSchedule;
 * network unavailable with host networking). An untolerated NoSchedule taint keeps new pods off
 * but lets a running one stay; NoExecute evicts.
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod, PodSpec, Toleration } from '../../api/kinds/core/types.js';
import { matchesNodeSelectorAndAffinity, toleratesTaint, type NodeSelectorTerm } from '../scheduler/filters.js';

export function daemonTolerations(spec: PodSpec | undefined): Toleration[] {
  const added: Toleration[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (spec?.hostNetwork) added.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  const existing = [...(spec?.tolerations ?? [])];
  for (const t of added) {
    if (!existing.some((e) => e.key === t.key && e.effect === t.effect && (e.operator ?? 'Equal') === t.operator)) existing.push(t);
  }
  return existing;
}

export interface Eligibility {
  /** A new daemon pod should be made here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay. */
  shouldContinueRunning: boolean;
}

export function nodeShouldRunDaemonPod(template: PodSpec | undefined, node: Node): Eligibility {
  const fitsName = !template?.nodeName || template.nodeName === node.metadata.name;
  // The scheduler's own node selector and affinity match, on the template.
  if (!fitsName || !matchesNodeSelectorAndAffinity({ spec: template } as Pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonTolerations(template);
  const untolerated = (node.spec?.taints ?? []).filter((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !toleratesTaint(tolerations, taint));
  return {
    shouldRun: untolerated.length === 0,
    shouldContinueRunning: !untolerated.some((t) => t.effect === 'NoExecute'),
  };
}

/** The node a daemon pod is for: where it runs, or where its node affinity pins it before binding. */
export function targetNodeName(spec: PodSpec | undefined): string | undefined {
  if (spec?.nodeName) return spec.nodeName;
  const terms = (spec?.affinity as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } } | undefined)?.nodeAffinity
    ?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const term of terms ?? []) {
    for (const field of term.matchFields ?? []) {
      if (field.key === 'metadata.name' && field.operator === 'In' && field.values?.length === 1) return field.values[0];
    }
  }
  return undefined;
}

/** The affinity pinning a daemon pod to its node (kube's ReplaceDaemonSetPodNodeNameNodeAffinity). */
export function pinToNode(affinity: Record<string, unknown> | undefined, nodeName: string): Record<string, unknown> {
  const nodeAffinity = { ...((affinity?.nodeAffinity as Record<string, unknown> | undefined) ?? {}) };
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  return { ...affinity, nodeAffinity };
}
