/**
 * Whether a DaemonSet's pod belongs on a node (kube's `NodeShouldRunDaemonPod`): the template's
 * nodeName, nodeSelector and required node affinity, and the node's taints against the pod's
 * tolerations — including those every daemon pod gets (`AddOrUpdateDaemonPodTolerations`: not
 * ready and unreachable NoExecute; disk, memory and pid pressure and unschedulable NoSchedule;
 * network unavailable with host networking). An untolerated NoSchedule taint keeps new pods off
 * but lets a running one stay; NoExecute evicts.
 */
import type { Node, Taint } from '../../api/kinds/core/node.js';
import type { PodSpec, Toleration } from '../../api/kinds/core/types.js';

interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

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

export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator || 'Equal';
  if (operator === 'Exists') return true;
  return operator === 'Equal' && (toleration.value ?? '') === (taint.value ?? '');
}

function requirementMatches(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !/^-?\d+$/.test(value) || values.length !== 1) return false;
      return req.operator === 'Gt' ? Number(value) > Number(values[0]) : Number(value) < Number(values[0]);
    }
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  return (
    expressions.every((r) => requirementMatches(r, node.metadata.labels?.[r.key ?? ''])) &&
    fields.every((r) => requirementMatches(r, r.key === 'metadata.name' ? node.metadata.name : undefined))
  );
}

/** nodeSelector and the required node affinity (terms are OR-ed). */
export function fitsNodeAffinity(spec: PodSpec | undefined, node: Node): boolean {
  for (const [key, value] of Object.entries(spec?.nodeSelector ?? {})) if (node.metadata.labels?.[key] !== value) return false;
  const required = (spec?.affinity as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } } | undefined)?.nodeAffinity
    ?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((term) => termMatches(term, node));
}

export interface Eligibility {
  /** A new daemon pod should be made here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay. */
  shouldContinueRunning: boolean;
}

export function nodeShouldRunDaemonPod(template: PodSpec | undefined, node: Node): Eligibility {
  const fitsName = !template?.nodeName || template.nodeName === node.metadata.name;
  if (!fitsName || !fitsNodeAffinity(template, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = daemonTolerations(template);
  const untolerated = (node.spec?.taints ?? []).filter((taint) => (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerations.some((t) => tolerates(t, taint)));
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
