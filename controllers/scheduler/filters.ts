/**
 * kube-scheduler's filter plugins, in its default order (NodeUnschedulable, TaintToleration,
 * NodeAffinity, NodePorts, NodeResourcesFit; the volume and inter-pod plugins are not ours): each
 * answers nothing when the node fits, or its reasons, worded as upstream, and whether preemption
 * could help (`Unschedulable`) or not (`UnschedulableAndUnresolvable`). The first plugin that
 * refuses a node decides its reasons, as the framework stops there.
 */
import type { Node, Taint } from '../../api/kinds/core/node.js';
import type { Pod, Toleration } from '../../api/kinds/core/types.js';
import { CPU, EPHEMERAL_STORAGE, MEMORY, PODS, type Resources } from './pod-requests.js';

/** A node with the pods placed on it (of every space, assumed ones included) and what they request. */
export interface NodeInfo {
  node: Node;
  /** The node's `status.allocatable` as amounts. */
  allocatable: Resources;
  pods(): Iterable<Pod>;
  podCount: number;
  requested: Resources;
  /** With kube's defaults for containers without cpu or memory requests (for scoring). */
  requestedNonZero: Resources;
  /** How many of the node's pods the controller (cluster-state.ts' `controllerKey`) controls. */
  podsControlledBy(controller: string): number;
}

export interface FilterStatus {
  reasons: string[];
  /** UnschedulableAndUnresolvable: removing pods from the node would not help. */
  unresolvable: boolean;
}

/** A pod's share of the scheduling cycle (kube's PreFilter state): computed once, used for every node. */
export interface PodToSchedule {
  pod: Pod;
  requests: Resources;
}

export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

export const ERR_UNSCHEDULABLE = 'node(s) were unschedulable';
export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
export const ERR_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

/** client-go's ToleratesTaint. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function toleratesTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => tolerates(t, taint));
}

/**
 * The node's taints, with those the node lifecycle controller would add for a node that is not
 * Ready (we have no such controller): `not-ready` when Ready is False, `unreachable` when it is
 * Unknown or missing, both NoSchedule (kube's TaintNodesByCondition).
 */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status;
  if (ready !== 'True') {
    const key = ready === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE;
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  }
  return taints;
}

function nodeUnschedulable(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  if (!info.node.spec?.unschedulable) return undefined;
  if (toleratesTaint(p.pod.spec?.tolerations, { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' })) return undefined;
  return { reasons: [ERR_UNSCHEDULABLE], unresolvable: true };
}

function taintToleration(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  const untolerated = effectiveTaints(info.node).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !toleratesTaint(p.pod.spec?.tolerations, t));
  if (!untolerated) return undefined;
  return { reasons: [`node(s) had untolerated taint {${untolerated.key ?? ''}: ${untolerated.value ?? ''}}`], unresolvable: true };
}

export interface NodeSelectorRequirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
  preferredDuringSchedulingIgnoredDuringExecution?: Array<{ weight?: number; preference?: NodeSelectorTerm }>;
}

export function nodeAffinityOf(pod: Pod): NodeAffinity | undefined {
  return (pod.spec?.affinity as { nodeAffinity?: NodeAffinity } | undefined)?.nodeAffinity;
}

/** Go's strconv.ParseInt on a label value, for Gt and Lt. */
function parseInteger(value: string | undefined): number | undefined {
  return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
}

function requirementMatches(req: NodeSelectorRequirement, present: boolean, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return present && values.includes(value!);
    case 'NotIn':
      return !present || !values.includes(value!);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt': {
      const have = parseInteger(value);
      const want = values.length === 1 ? parseInteger(values[0]) : undefined;
      if (!present || have === undefined || want === undefined) return false;
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** One node selector term: its label expressions and its field expressions (only `metadata.name`), all of them. An empty term matches nothing. */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const name = node.metadata.name;
  return (
    expressions.every((req) => requirementMatches(req, Object.hasOwn(labels, req.key ?? ''), labels[req.key ?? ''])) &&
    fields.every((req) => req.key === 'metadata.name' && (req.operator === 'In' || req.operator === 'NotIn') && requirementMatches(req, true, name))
  );
}

/** nodeSelector (every pair) and the required node affinity (any of its terms). */
export function matchesNodeSelectorAndAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [key, value] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[key] !== value) return false;
  const required = nodeAffinityOf(pod)?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((term) => termMatches(term, node));
}

function nodeAffinity(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  return matchesNodeSelectorAndAffinity(p.pod, info.node) ? undefined : { reasons: [ERR_NODE_AFFINITY], unresolvable: true };
}

interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

function hostPorts(pod: Pod): HostPort[] {
  return (pod.spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? []).filter((p) => (p.hostPort ?? 0) > 0).map((p) => ({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort! })),
  );
}

/** Two host ports conflict on one port and protocol when either listens on every address, or both on the same one. */
function portsConflict(a: HostPort, b: HostPort): boolean {
  return a.port === b.port && a.protocol === b.protocol && (a.ip === '0.0.0.0' || b.ip === '0.0.0.0' || a.ip === b.ip);
}

function nodePorts(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  const wanted = hostPorts(p.pod);
  if (wanted.length === 0) return undefined;
  const used = [...info.pods()].flatMap(hostPorts);
  return wanted.some((w) => used.some((u) => portsConflict(w, u))) ? { reasons: [ERR_NODE_PORTS], unresolvable: false } : undefined;
}

/**
 * NodeResourcesFit: the pod count, then each requested resource against what is left of the
 * node's allocatable. A request larger than the whole allocatable is unresolvable: no eviction
 * could make room.
 */
function nodeResourcesFit(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  const { allocatable } = info;
  const reasons: string[] = [];
  let unresolvable = false;
  if (info.podCount + 1 > (allocatable.get(PODS) ?? 0)) reasons.push('Too many pods');
  const names = [CPU, MEMORY, EPHEMERAL_STORAGE, ...[...p.requests.keys()].filter((r) => r !== CPU && r !== MEMORY && r !== EPHEMERAL_STORAGE && r !== PODS).sort()];
  for (const name of names) {
    const want = p.requests.get(name) ?? 0;
    const have = allocatable.get(name) ?? 0;
    if (want > 0 && want > have - (info.requested.get(name) ?? 0)) {
      reasons.push(`Insufficient ${name}`);
      if (want > have) unresolvable = true;
    }
  }
  return reasons.length > 0 ? { reasons, unresolvable } : undefined;
}

type Filter = (p: PodToSchedule, info: NodeInfo) => FilterStatus | undefined;

const FILTERS: readonly Filter[] = [nodeUnschedulable, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit];

/** The first refusal of the node, or undefined when the pod fits it. */
export function filterNode(p: PodToSchedule, info: NodeInfo): FilterStatus | undefined {
  for (const filter of FILTERS) {
    const status = filter(p, info);
    if (status) return status;
  }
  return undefined;
}
