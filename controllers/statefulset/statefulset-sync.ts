/**
 * What the StatefulSet controller decides for one set, with no I/O (kube's
 * `defaultStatefulSetControl.UpdateStatefulSet`): the revisions (current and update, a new
 * ControllerRevision when the template changed), pods to create (`<set>-<ordinal>`, with their
 * claims from volumeClaimTemplates) and delete (condemned ordinals highest first, failed pods,
 * the rolling update from the highest ordinal down to the partition, one at a time, waiting for
 * Ready), the status, and revisions past the history limit. OrderedReady does one step and waits
 * for the pod to be Running and Ready; Parallel does every step at once.
 *
 * @example
 *   const plan = planStatefulSet({ set, pods, revisions, claims: new Set(), now });
 *   plan.createPods[0].metadata.name // 'web-0'
 */
import type { ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import type { StatefulSet } from '../../api/kinds/apps/statefulset.js';
import type { Pod, PodTemplateSpec } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { CONTROLLER_REVISION_HASH_LABEL, newRevision, nextRevisionNumber, sameRevisionData, sortRevisions, templateOfRevision } from '../runtime/controller-history.js';
import { newControllerRef } from '../runtime/owner-references.js';
import { isPodAvailable, isPodReady, isPodRunningAndReady } from '../runtime/pod-state.js';
import { podFromTemplate } from '../runtime/pod-template.js';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** The label a ControllerRevision of a StatefulSet carries with its hash. */
export const STATEFULSET_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export interface StatefulSetSyncInput {
  set: StatefulSet;
  pods: Pod[];
  revisions: ControllerRevision[];
  /** Names of the claims that exist in the set's namespace. */
  claims: Set<string>;
  now: number;
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  availableReplicas?: number;
  [field: string]: unknown;
}

export interface StatefulSetPlan {
  createRevision?: ControllerRevision;
  /** An older revision equal to the template again (a rollback): renumbered to the newest. */
  renumberRevision?: ControllerRevision;
  deleteRevisions: ControllerRevision[];
  createClaims: KubeObject[];
  createPods: Pod[];
  deletePods: Pod[];
  /** Claims to hand to their pod for deletion with it (whenScaled: Delete), by claim name → pod. */
  claimsOwnedByPods: Array<{ claim: string; pod: Pod }>;
  status?: StatefulSetStatus;
  /** Sync again after this long (minReadySeconds). */
  requeueAfterMs?: number;
}

/** `<set>-<ordinal>` → the ordinal, or undefined when the name is not one of the set's. */
export function ordinalOf(set: StatefulSet, pod: Pod): number | undefined {
  const prefix = `${set.metadata.name}-`;
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

export function claimName(templateName: string, set: StatefulSet, ordinal: number): string {
  return `${templateName}-${set.metadata.name}-${ordinal}`;
}

function claimTemplates(set: StatefulSet): Array<{ metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> }> {
  return (set.spec?.volumeClaimTemplates ?? []) as never;
}

/** The claims a pod of the set needs, as kube's getPersistentVolumeClaims. */
export function claimsFor(set: StatefulSet, ordinal: number): KubeObject[] {
  return claimTemplates(set).map((template) => {
    const name = claimName(template.metadata?.name ?? '', set, ordinal);
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name,
        namespace: set.metadata.namespace,
        labels: { ...template.metadata?.labels, ...set.spec?.selector?.matchLabels },
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      },
      spec: structuredClone(template.spec ?? {}),
    };
    if (set.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete') {
      claim.metadata.ownerReferences = [{ ...newControllerRef(set, 'apps/v1', 'StatefulSet'), controller: false }];
    }
    return claim;
  });
}

/** The pod of `ordinal` at `revision` (kube's newVersionedStatefulSetPod). */
export function statefulSetPod(set: StatefulSet, template: PodTemplateSpec, revisionName: string, ordinal: number): Pod {
  const pod = podFromTemplate(template, set, newControllerRef(set, 'apps/v1', 'StatefulSet'));
  const name = `${set.metadata.name}-${ordinal}`;
  pod.metadata.name = name;
  pod.metadata.labels = { ...pod.metadata.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [CONTROLLER_REVISION_HASH_LABEL]: revisionName };
  const spec = pod.spec!;
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  const templates = claimTemplates(set);
  if (templates.length > 0) {
    const claimed = new Set(templates.map((t) => t.metadata?.name ?? ''));
    const claimVolumes = [...claimed].sort().map((volume) => ({ name: volume, persistentVolumeClaim: { claimName: claimName(volume, set, ordinal) } }));
    spec.volumes = [...claimVolumes, ...(spec.volumes ?? []).filter((v) => !claimed.has(v.name ?? ''))];
  }
  return pod;
}

const revisionOf = (pod: Pod) => pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];

/** The revision the template is now, new or found again among the stored ones. */
function updateRevisionFor(set: StatefulSet, revisions: ControllerRevision[]): { revision: ControllerRevision; create?: ControllerRevision; renumber?: ControllerRevision; collisionCount: number } {
  let collisionCount = (set.status?.collisionCount as number | undefined) ?? 0;
  const next = nextRevisionNumber(revisions);
  const labels = (hash: string) => ({ [STATEFULSET_REVISION_HASH_LABEL]: hash });
  for (;;) {
    const candidate = newRevision(set, 'apps/v1', 'StatefulSet', set.spec?.template, next, collisionCount, labels);
    const equal = revisions.filter((r) => sameRevisionData(r, candidate));
    if (equal.length > 0) {
      const found = sortRevisions(equal).at(-1)!;
      const newest = sortRevisions(revisions).at(-1)!;
      if (found === newest) return { revision: found, collisionCount };
      return { revision: { ...found, revision: next }, renumber: { ...found, revision: next }, collisionCount };
    }
    if (revisions.some((r) => r.metadata.name === candidate.metadata.name)) {
      collisionCount += 1;
      continue;
    }
    return { revision: candidate, create: candidate, collisionCount };
  }
}

export function planStatefulSet(input: StatefulSetSyncInput): StatefulSetPlan {
  const { set, pods, revisions, now } = input;
  const spec = set.spec ?? {};
  const plan: StatefulSetPlan = { deleteRevisions: [], createClaims: [], createPods: [], deletePods: [], claimsOwnedByPods: [] };
  const update = updateRevisionFor(set, revisions);
  plan.createRevision = update.create;
  plan.renumberRevision = update.renumber;
  const updateRevision = update.revision;
  const currentRevision = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? updateRevision;
  const replicas = spec.replicas ?? 1;
  const start = spec.ordinals?.start ?? 0;
  const monotonic = spec.podManagementPolicy !== 'Parallel';
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const rolling = (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const partition = rolling ? (spec.updateStrategy?.rollingUpdate?.partition ?? 0) : 0;

  const inRange = new Map<number, Pod>();
  const condemned: Array<{ ordinal: number; pod: Pod }> = [];
  for (const pod of pods) {
    const ordinal = ordinalOf(set, pod);
    if (ordinal === undefined) continue;
    if (ordinal >= start && ordinal < start + replicas) inRange.set(ordinal, pod);
    else condemned.push({ ordinal, pod });
  }
  condemned.sort((a, b) => b.ordinal - a.ordinal);

  const createPod = (ordinal: number) => {
    const useCurrent = rolling && ordinal < start + partition && currentRevision !== updateRevision;
    const revision = useCurrent ? currentRevision : updateRevision;
    const template = revision === updateRevision ? (spec.template ?? {}) : templateOfRevision(revision);
    for (const claim of claimsFor(set, ordinal)) {
      if (!input.claims.has(claim.metadata.name!) && !plan.createClaims.some((c) => c.metadata.name === claim.metadata.name)) plan.createClaims.push(claim);
    }
    plan.createPods.push(statefulSetPod(set, template, revision.metadata.name!, ordinal));
  };

  // Pods of the set in ordinal order: create missing ones, replace finished ones; OrderedReady waits on each.
  let blocked = false;
  for (let ordinal = start; ordinal < start + replicas && !blocked; ordinal += 1) {
    const pod = inRange.get(ordinal);
    if (!pod) {
      createPod(ordinal);
      if (monotonic) blocked = true;
      continue;
    }
    if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
      if (!pod.metadata.deletionTimestamp) plan.deletePods.push(pod);
      if (monotonic) blocked = true;
      continue;
    }
    if (!monotonic) continue;
    if (pod.metadata.deletionTimestamp || !isPodRunningAndReady(pod)) blocked = true;
    else if (!isPodAvailable(pod, minReadySeconds, now)) {
      blocked = true;
      plan.requeueAfterMs = minReadySeconds * 1000;
    }
  }
  // Condemned pods, highest ordinal first; OrderedReady one at a time, once the rest is ready.
  if (!blocked) {
    for (const { pod } of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (monotonic) {
          blocked = true;
          break;
        }
        continue;
      }
      plan.deletePods.push(pod);
      if (spec.persistentVolumeClaimRetentionPolicy?.whenScaled === 'Delete') {
        for (const t of claimTemplates(set)) plan.claimsOwnedByPods.push({ claim: claimName(t.metadata?.name ?? '', set, ordinalOf(set, pod)!), pod });
      }
      if (monotonic) {
        blocked = true;
        break;
      }
    }
  }
  // The rolling update: from the highest ordinal down to the partition, one pod at a time.
  if (!blocked && rolling) {
    for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal -= 1) {
      const pod = inRange.get(ordinal);
      if (!pod) break;
      if (revisionOf(pod) !== updateRevision.metadata.name && !pod.metadata.deletionTimestamp) {
        plan.deletePods.push(pod);
        break;
      }
      if (pod.metadata.deletionTimestamp || !isPodRunningAndReady(pod)) break;
    }
  }

  // Status, counting the pods this sync creates and not those it deletes.
  const deleted = new Set(plan.deletePods);
  const counted = [...pods.filter((p) => ordinalOf(set, p) !== undefined), ...plan.createPods];
  const status: StatefulSetStatus = {
    observedGeneration: set.metadata.generation,
    replicas: counted.length,
    readyReplicas: counted.filter((p) => isPodReady(p) && !deleted.has(p)).length,
    currentReplicas: counted.filter((p) => revisionOf(p) === currentRevision.metadata.name).length,
    updatedReplicas: counted.filter((p) => revisionOf(p) === updateRevision.metadata.name).length,
    currentRevision: currentRevision.metadata.name,
    updateRevision: updateRevision.metadata.name,
    collisionCount: update.collisionCount,
    availableReplicas: counted.filter((p) => isPodAvailable(p, minReadySeconds, now) && !deleted.has(p)).length,
  };
  if (rolling && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  } else if (!rolling && status.updatedReplicas === status.replicas && status.replicas === replicas) {
    // OnDelete: once every pod was replaced, the update revision is the current one.
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
  const old = set.status ?? { replicas: 0 };
  const comparable = (s: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k, v]) => k !== 'conditions' && v !== undefined && v !== 0).sort()));
  if (comparable(status) !== comparable(old)) plan.status = { ...old, ...status };

  // History: revisions no pod uses, past revisionHistoryLimit, oldest first.
  const live = new Set([status.currentRevision, status.updateRevision, ...pods.map(revisionOf)]);
  const history = sortRevisions(revisions).filter((r) => !live.has(r.metadata.name));
  const limit = (spec.revisionHistoryLimit as number | undefined) ?? 10;
  plan.deleteRevisions = history.slice(0, Math.max(history.length - limit, 0));
  return plan;
}
