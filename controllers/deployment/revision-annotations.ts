/**
 * The annotations a deployment keeps on its ReplicaSets and on itself, as kube's deployment util
 * writes them: `deployment.kubernetes.io/revision` (what `kubectl rollout history` lists and
 * `undo` looks up), `revision-history` (the revisions a reused ReplicaSet had before),
 * `desired-replicas` and `max-replicas` (for proportional scaling), and the deployment's own
 * annotations copied over (so `kubernetes.io/change-cause` shows in the history).
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import { MAX_REPLICAS_ANNOTATION, maxSurge, specReplicas } from './rollout-arithmetic.js';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export { MAX_REPLICAS_ANNOTATION };

/** kube's maxRevHistoryLengthInChars. */
const MAX_REVISION_HISTORY_CHARS = 2000;

/** Never copied from a deployment to its ReplicaSets (kube's skipCopyAnnotation). */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

export function revisionOf(rs: ReplicaSet): number {
  const n = Number.parseInt(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
}

export const maxRevision = (sets: ReplicaSet[]): number => sets.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);

/** Sets desired-replicas and max-replicas; answers whether anything changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [key, value] of [
    [DESIRED_REPLICAS_ANNOTATION, String(desired)],
    [MAX_REPLICAS_ANNOTATION, String(max)],
  ] as const) {
    if (annotations[key] !== value) {
      annotations[key] = value;
      changed = true;
    }
  }
  return changed;
}

/** kube's SetNewReplicaSetAnnotations on `rs` (mutated); answers whether anything changed. */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: number, exists: boolean): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  for (const [key, value] of Object.entries(d.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(key) || annotations[key] === value) continue;
    annotations[key] = value;
    changed = true;
  }
  const oldRevisionText = annotations[REVISION_ANNOTATION];
  const oldRevision = oldRevisionText === undefined ? 0 : Number.parseInt(oldRevisionText, 10);
  if (Number.isNaN(oldRevision)) return false;
  if (oldRevision < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    // A ReplicaSet taking a newer revision is being rolled back to: keep the revisions it had.
    if (oldRevisionText !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
      if (history === '') annotations[REVISION_HISTORY_ANNOTATION] = oldRevisionText;
      else {
        const old = history.split(',');
        let total = history.length + oldRevisionText.length + 1;
        let start = 0;
        while (total > MAX_REVISION_HISTORY_CHARS && start < old.length) total -= old[start++]!.length + 1;
        if (total <= MAX_REVISION_HISTORY_CHARS) annotations[REVISION_HISTORY_ANNOTATION] = [...old.slice(start), oldRevisionText].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}
