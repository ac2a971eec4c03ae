/**
 * A deployment's status and conditions, as kube's `pkg/controller/deployment` (sync.go,
 * progress.go, util) computes them: counts summed over its ReplicaSets, Available from
 * maxUnavailable, Progressing with kube's reasons and messages, the progress deadline.
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import { nowTimestamp } from '../../api/registry/timestamp.js';
import { canonicalJson } from './pod-template-hash.js';
import { actualReplicaCount, availableReplicaCount, maxUnavailable, readyReplicaCount, replicaCount, specReplicas } from './rollout-arithmetic.js';

export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export type DeploymentStatus = NonNullable<Deployment['status']> & { conditions?: DeploymentCondition[] };

export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';

/** kube's reasons (deployment util). */
export const REASONS = {
  newRSCreated: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  rsUpdated: 'ReplicaSetUpdated',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  failedRSCreate: 'ReplicaSetCreateError',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumAvailable: 'MinimumReplicasAvailable',
  minimumUnavailable: 'MinimumReplicasUnavailable',
} as const;

export function statusOf(d: Deployment): DeploymentStatus {
  return (d.status ?? {}) as DeploymentStatus;
}

export function getCondition(status: DeploymentStatus, type: string): DeploymentCondition | undefined {
  return (status.conditions ?? []).find((c) => c.type === type);
}

export function newCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, now: number): DeploymentCondition {
  const t = nowTimestamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

/** kube's SetDeploymentCondition: no change for the same status and reason; the transition time kept while the status holds. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = current && current.status === condition.status ? { ...condition, lastTransitionTime: current.lastTransitionTime } : condition;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

export const hasProgressDeadline = (d: Deployment): boolean => d.spec?.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== 2147483647;

/** kube's calculateStatus. */
export function calculateStatus(all: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now: number): DeploymentStatus {
  const available = availableReplicaCount(all);
  const previous = statusOf(d);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: actualReplicaCount(all),
    updatedReplicas: actualReplicaCount(newRS ? [newRS] : []),
    readyReplicas: readyReplicaCount(all),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicaCount(all) - available),
    ...(previous.collisionCount !== undefined ? { collisionCount: previous.collisionCount } : {}),
    ...(previous.conditions ? { conditions: previous.conditions.map((c) => ({ ...c })) } : {}),
  };
  if (available >= specReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition(AVAILABLE, 'True', REASONS.minimumAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition(AVAILABLE, 'False', REASONS.minimumUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** Every pod updated, available and counted, for the generation observed (kube's DeploymentComplete). */
export function deploymentComplete(d: Deployment, status: DeploymentStatus): boolean {
  const replicas = specReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** Something moved since the stored status (kube's DeploymentProgressing). */
export function deploymentProgressing(d: Deployment, next: DeploymentStatus): boolean {
  const old = statusOf(d);
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** No progress within progressDeadlineSeconds of the last one (kube's DeploymentTimedOut). */
export function deploymentTimedOut(d: Deployment, status: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getCondition(status, PROGRESSING);
  if (!condition || condition.reason === REASONS.newRSAvailable) return false;
  if (condition.reason === REASONS.timedOut) return true;
  const from = Date.parse(condition.lastUpdateTime ?? '');
  return !Number.isNaN(from) && from + d.spec!.progressDeadlineSeconds! * 1000 < now;
}

/**
 * The status after a rollout step (kube's syncRolloutStatus): Progressing as NewReplicaSetAvailable,
 * ReplicaSetUpdated or ProgressDeadlineExceeded, and ReplicaFailure copied from a failing ReplicaSet.
 */
export function rolloutStatus(all: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now: number): DeploymentStatus {
  const status = calculateStatus(all, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(status, PROGRESSING);
  const current = getCondition(statusOf(d), PROGRESSING);
  const complete = status.replicas === status.updatedReplicas && current?.reason === REASONS.newRSAvailable;
  if (hasProgressDeadline(d) && !complete) {
    const subject = (rsWords: string, dWords: string) => (newRS ? `ReplicaSet "${newRS.metadata.name}" ${rsWords}` : `Deployment "${d.metadata.name}" ${dWords}`);
    if (deploymentComplete(d, status)) {
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.newRSAvailable, subject('has successfully progressed.', 'has successfully progressed.'), now));
    } else if (deploymentProgressing(d, status)) {
      const condition = newCondition(PROGRESSING, 'True', REASONS.rsUpdated, subject('is progressing.', 'is progressing.'), now);
      // Progress moves lastUpdateTime even with the same reason; the transition time stays while True.
      if (current?.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, PROGRESSING);
      status.conditions = [...(status.conditions ?? []), condition];
    } else if (deploymentTimedOut(d, status, now)) {
      setCondition(status, newCondition(PROGRESSING, 'False', REASONS.timedOut, subject('has timed out progressing.', 'has timed out progressing.'), now));
    }
  }
  const failure = [newRS, ...all].map((rs) => (rs?.status as { conditions?: DeploymentCondition[] } | undefined)?.conditions?.find((c) => c.type === REPLICA_FAILURE && c.status === 'True')).find((c) => c);
  if (failure) setCondition(status, { type: REPLICA_FAILURE, status: 'True', lastUpdateTime: failure.lastTransitionTime, lastTransitionTime: failure.lastTransitionTime, reason: failure.reason, message: failure.message });
  else removeCondition(status, REPLICA_FAILURE);
  return status;
}

/** How long until a stalled rollout may time out, so the deployment is looked at then (kube's requeueStuckDeployment); undefined: no need. */
export function stuckRecheckMs(d: Deployment, status: DeploymentStatus, now: number): number | undefined {
  const current = getCondition(status, PROGRESSING);
  if (!hasProgressDeadline(d) || !current) return undefined;
  if (deploymentComplete(d, status) || current.reason === REASONS.timedOut) return undefined;
  const after = Date.parse(current.lastUpdateTime ?? '') + d.spec!.progressDeadlineSeconds! * 1000 - now;
  return Math.max(after, 1000);
}

/** Whether writing `next` changes the stored status (the controller writes only on change). */
export function statusDiffers(d: Deployment, next: DeploymentStatus): boolean {
  return canonicalJson(normalize(statusOf(d))) !== canonicalJson(normalize(next));
}

function normalize(s: DeploymentStatus): Record<string, unknown> {
  const fields = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const;
  return { ...Object.fromEntries(fields.map((f) => [f, s[f] ?? 0])), conditions: s.conditions ?? [] };
}
