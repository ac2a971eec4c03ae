/**
 * A replica set's status from the pods it owns, as kube's calculateStatus: replicas, pods with all
 * the template's labels, ready and available pods, and the ReplicaFailure condition while
 * creating or deleting pods fails (a quota, an admission refusal).
 */
import type { Pod } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { nowTimestamp } from '../../api/registry/timestamp.js';
import { isPodAvailable, isPodReady } from './pod-state.js';
import type { ReplicaSetKind, ReplicaSetStatus } from './replica-set-kinds.js';

export const REPLICA_FAILURE = 'ReplicaFailure';

export function calculateStatus(kind: ReplicaSetKind, rs: KubeObject, pods: Pod[], manageError: Error | undefined, now: number): ReplicaSetStatus {
  const previous = kind.status(rs);
  const templateLabels = kind.template(rs)?.metadata?.labels ?? {};
  const minReadySeconds = kind.minReadySeconds(rs);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    const labels = pod.metadata.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled += 1;
    if (isPodReady(pod)) {
      ready += 1;
      if (isPodAvailable(pod, minReadySeconds, now)) available += 1;
    }
  }
  let conditions = previous.conditions ?? [];
  const failure = conditions.find((c) => c.type === REPLICA_FAILURE);
  if (manageError && !failure) {
    const diff = pods.length - kind.replicas(rs);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions = [...conditions, { type: REPLICA_FAILURE, status: 'True', lastTransitionTime: nowTimestamp(now), reason, message: manageError.message }];
  } else if (!manageError && failure) {
    conditions = conditions.filter((c) => c !== failure);
  }
  return {
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation,
    ...(conditions.length > 0 ? { conditions } : {}),
  };
}

/** Whether writing `next` would change what is stored: the controller writes only on change. */
export function statusChanged(previous: ReplicaSetStatus, next: ReplicaSetStatus): boolean {
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const;
  if (counts.some((field) => (previous[field] ?? 0) !== (next[field] ?? 0))) return true;
  return JSON.stringify(previous.conditions ?? []) !== JSON.stringify(next.conditions ?? []);
}
