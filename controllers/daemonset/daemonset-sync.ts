/**
 * What the DaemonSet controller decides for one daemon set, with no I/O (kube's `syncDaemonSet`:
 * `constructHistory`, `manage`/`podsShouldBeOnNode`, `rollingUpdate`, `updateDaemonSetStatus`):
 * the current revision (a new ControllerRevision when the template changed), a pod for each node
 * that should run one (pinned by required node affinity on `metadata.name`; the scheduler binds
 * it), pods to delete (nodes that may not keep one, failed pods, duplicates, and old pods during
 * a rolling update within maxUnavailable, or replaced beside new ones within maxSurge), and the
 * status.
 */
import type { ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import { TEMPLATE_GENERATION_ANNOTATION, type DaemonSet } from '../../api/kinds/apps/daemonset.js';
import type { Node } from '../../api/kinds/core/node.js';
import type { IntOrString, Pod } from '../../api/kinds/core/types.js';
import { CONTROLLER_REVISION_HASH_LABEL, newRevision, nextRevisionNumber, sameRevisionData, sortRevisions } from '../runtime/controller-history.js';
import { newControllerRef } from '../runtime/owner-references.js';
import { isPodAvailable, isPodReady } from '../runtime/pod-state.js';
import { generateNamePrefix, podFromTemplate } from '../runtime/pod-template.js';
import { daemonTolerations, nodeShouldRunDaemonPod, pinToNode, targetNodeName } from './node-eligibility.js';

export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

export interface DaemonSetSyncInput {
  set: DaemonSet;
  nodes: Node[];
  pods: Pod[];
  revisions: ControllerRevision[];
  now: number;
  /** False while pods this controller made or deleted are not yet in the cache. */
  expectationsSatisfied: boolean;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  [field: string]: unknown;
}

export interface DaemonSetPlan {
  createRevision?: ControllerRevision;
  renumberRevision?: ControllerRevision;
  deleteRevisions: ControllerRevision[];
  /** Node names to make a pod for. */
  createOn: string[];
  deletePods: Pod[];
  hash: string;
  status?: DaemonSetStatus;
  requeueAfterMs?: number;
}

export function templateGeneration(set: DaemonSet): string | undefined {
  return set.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
}

/** The daemon pod for a node (kube's NewPod plus the controller's labels). */
export function daemonPod(set: DaemonSet, nodeName: string, hash: string): Pod {
  const pod = podFromTemplate(set.spec?.template, set, newControllerRef(set, 'apps/v1', 'DaemonSet'));
  pod.metadata.generateName = generateNamePrefix(set.metadata.name ?? '');
  pod.metadata.labels = { ...pod.metadata.labels, [CONTROLLER_REVISION_HASH_LABEL]: hash };
  const generation = templateGeneration(set);
  if (generation !== undefined) pod.metadata.labels[TEMPLATE_GENERATION_LABEL] = generation;
  const spec = pod.spec!;
  spec.tolerations = daemonTolerations(spec);
  spec.affinity = pinToNode(spec.affinity, nodeName);
  return pod;
}

function isUpdated(pod: Pod, hash: string, generation: string | undefined): boolean {
  return pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash || (generation !== undefined && pod.metadata.labels?.[TEMPLATE_GENERATION_LABEL] === generation);
}

/** An int-or-percent of `total`, rounded up (kube's GetScaledValueFromIntOrPercent with roundUp). */
function scaled(value: IntOrString | undefined, total: number): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const percent = Number(value.replace('%', ''));
  return Number.isNaN(percent) ? 0 : Math.ceil((percent * total) / 100);
}

const byAge = (a: Pod, b: Pod) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

function currentRevisionFor(set: DaemonSet, revisions: ControllerRevision[]): { hash: string; create?: ControllerRevision; renumber?: ControllerRevision; collisionCount: number } {
  let collisionCount = (set.status?.collisionCount as number | undefined) ?? 0;
  const next = nextRevisionNumber(revisions);
  const labels = (hash: string) => ({ [CONTROLLER_REVISION_HASH_LABEL]: hash });
  for (;;) {
    const candidate = newRevision(set, 'apps/v1', 'DaemonSet', set.spec?.template, next, collisionCount, labels);
    const equal = sortRevisions(revisions.filter((r) => sameRevisionData(r, candidate)));
    if (equal.length > 0) {
      const found = equal.at(-1)!;
      const hash = found.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] ?? candidate.metadata.labels![CONTROLLER_REVISION_HASH_LABEL]!;
      const newest = sortRevisions(revisions).at(-1)!;
      return found === newest ? { hash, collisionCount } : { hash, renumber: { ...found, revision: next }, collisionCount };
    }
    if (revisions.some((r) => r.metadata.name === candidate.metadata.name)) {
      collisionCount += 1;
      continue;
    }
    return { hash: candidate.metadata.labels![CONTROLLER_REVISION_HASH_LABEL]!, create: candidate, collisionCount };
  }
}

export function planDaemonSet(input: DaemonSetSyncInput): DaemonSetPlan {
  const { set, nodes, pods, now } = input;
  const spec = set.spec ?? {};
  const revision = currentRevisionFor(set, input.revisions);
  const hash = revision.hash;
  const generation = templateGeneration(set);
  const plan: DaemonSetPlan = { createRevision: revision.create, renumberRevision: revision.renumber, deleteRevisions: [], createOn: [], deletePods: [], hash };
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const nodeNames = new Set(nodes.map((n) => n.metadata.name ?? ''));
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = targetNodeName(pod.spec);
    if (node === undefined) continue;
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  // Pods for nodes that no longer exist go (kube's pod GC would; the daemon set does not wait for it).
  for (const [node, onNode] of byNode) if (!nodeNames.has(node)) plan.deletePods.push(...onNode.filter((p) => !p.metadata.deletionTimestamp));

  const rolling = (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const eligibility = new Map(nodes.map((n) => [n.metadata.name ?? '', nodeShouldRunDaemonPod(spec.template?.spec, n)]));
  const desired = [...eligibility.values()].filter((e) => e.shouldRun).length;
  let maxSurge = rolling ? scaled(spec.updateStrategy?.rollingUpdate?.maxSurge, desired) : 0;
  let maxUnavailable = rolling ? scaled(spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1, desired) : 0;
  if (rolling && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  if (!rolling) maxSurge = 0;

  // manage: a pod where one should run, none where none may stay, failed and duplicate pods replaced.
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    const { shouldRun, shouldContinueRunning } = eligibility.get(name)!;
    const onNode = (byNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp);
    const failed = onNode.filter((p) => p.status?.phase === 'Failed');
    const running = onNode.filter((p) => p.status?.phase !== 'Failed').sort(byAge);
    if (shouldRun && onNode.length === 0) {
      plan.createOn.push(name);
      continue;
    }
    if (!shouldContinueRunning) {
      plan.deletePods.push(...onNode);
      continue;
    }
    plan.deletePods.push(...failed);
    if (shouldRun && running.length === 0 && failed.length > 0) plan.requeueAfterMs = 1_000; // recreated once the failed one is gone
    if (running.length > 1) {
      if (maxSurge === 0) plan.deletePods.push(...running.slice(1));
      else {
        // With surge, one updated and one old pod may share a node during the update.
        const keepNew = running.find((p) => isUpdated(p, hash, generation));
        const keepOld = running.find((p) => !isUpdated(p, hash, generation));
        plan.deletePods.push(...running.filter((p) => p !== keepNew && p !== keepOld));
      }
    }
  }

  // rollingUpdate: old pods replaced within the budget.
  if (rolling && input.expectationsSatisfied) {
    const deleting = new Set(plan.deletePods);
    let unavailable = 0;
    const allowed: Pod[] = [];
    const candidates: Pod[] = [];
    const allowedNodes: string[] = [];
    const candidateNodes: string[] = [];
    let surging = 0;
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (!eligibility.get(name)!.shouldRun) continue;
      const onNode = (byNode.get(name) ?? []).filter((p) => !p.metadata.deletionTimestamp && !deleting.has(p) && p.status?.phase !== 'Failed').sort(byAge);
      const newPods = onNode.filter((p) => isUpdated(p, hash, generation));
      const oldPods = onNode.filter((p) => !isUpdated(p, hash, generation));
      if (newPods.length > 1 || oldPods.length > 1) continue;
      const [newPod] = newPods;
      const [oldPod] = oldPods;
      if (maxSurge === 0) {
        if ((!oldPod && !newPod) || (oldPod && newPod)) unavailable += 1;
        else if (newPod) {
          if (!isPodAvailable(newPod, minReadySeconds, now)) unavailable += 1;
        } else if (oldPod) {
          if (!isPodAvailable(oldPod, minReadySeconds, now)) allowed.push(oldPod);
          else if (unavailable < maxUnavailable) candidates.push(oldPod);
        }
      } else {
        if (!oldPod) continue;
        if (!newPod) {
          if (!isPodAvailable(oldPod, minReadySeconds, now)) allowedNodes.push(name);
          else candidateNodes.push(name);
        } else if (isPodAvailable(newPod, minReadySeconds, now)) plan.deletePods.push(oldPod);
        else surging += 1;
      }
    }
    if (maxSurge === 0) {
      const remaining = Math.max(maxUnavailable - unavailable, 0);
      plan.deletePods.push(...allowed, ...candidates.slice(0, remaining));
    } else {
      plan.createOn.push(...allowedNodes, ...candidateNodes.slice(0, Math.max(maxSurge - surging, 0)));
    }
    if (minReadySeconds > 0) plan.requeueAfterMs = Math.min(plan.requeueAfterMs ?? Infinity, minReadySeconds * 1000);
  }
  if (!input.expectationsSatisfied) {
    plan.createOn = [];
    plan.deletePods = [];
  }
  plan.deletePods = [...new Set(plan.deletePods)];

  // Status, from the pods as they are (kube's updateDaemonSetStatus).
  const status: DaemonSetStatus = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    observedGeneration: set.metadata.generation,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
    collisionCount: revision.collisionCount || undefined,
  };
  for (const node of nodes) {
    const name = node.metadata.name ?? '';
    const scheduled = [...(byNode.get(name) ?? [])].sort(byAge);
    if (eligibility.get(name)!.shouldRun) {
      status.desiredNumberScheduled += 1;
      const pod = scheduled[0];
      if (!pod) continue;
      status.currentNumberScheduled += 1;
      if (isPodReady(pod)) {
        status.numberReady += 1;
        if (isPodAvailable(pod, minReadySeconds, now)) status.numberAvailable! += 1;
      }
      if (isUpdated(pod, hash, generation)) status.updatedNumberScheduled! += 1;
    } else if (scheduled.length > 0) status.numberMisscheduled += 1;
  }
  status.numberUnavailable = status.desiredNumberScheduled - status.numberAvailable!;
  const old = (set.status ?? {}) as DaemonSetStatus;
  const comparable = (s: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k, v]) => k !== 'conditions' && v !== undefined && v !== 0).sort()));
  if (comparable(status) !== comparable(old)) plan.status = { ...old, ...status };

  // History: revisions no pod uses, past revisionHistoryLimit.
  const live = new Set([hash, ...pods.map((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL])]);
  const history = sortRevisions(input.revisions).filter((r) => !live.has(r.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL]));
  plan.deleteRevisions = history.slice(0, Math.max(history.length - ((spec.revisionHistoryLimit as number | undefined) ?? 10), 0));
  return plan;
}
