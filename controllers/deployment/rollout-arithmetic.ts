/**
 * The numbers of a rollout, as kube's `pkg/controller/deployment/util` computes them: maxSurge and
 * maxUnavailable from ints or percentages (surge rounded up, unavailable down, never both 0), how
 * far the new ReplicaSet may grow, and each ReplicaSet's share when a deployment is scaled in
 * the middle of a rollout (proportional scaling).
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import type { IntOrString } from '../../api/kinds/core/types.js';

export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

/** kube's GetScaledValueFromIntOrPercent: an int as is, `N%` of total rounded up or down. */
export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const match = /^(-?\d+)%$/.exec(value);
  if (!match) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

export const specReplicas = (d: Deployment): number => d.spec?.replicas ?? 1;
export const rsReplicas = (rs: ReplicaSet | undefined): number => rs?.spec?.replicas ?? 0;
export const isRollingUpdate = (d: Deployment): boolean => (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** kube's ResolveFenceposts: surge rounded up, unavailable rounded down; both 0 would stall, so unavailable becomes 1. */
export function resolveFenceposts(maxSurge: IntOrString | undefined, maxUnavailable: IntOrString | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, specReplicas(d)).surge;
}

export function maxUnavailable(d: Deployment): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return Math.min(resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas).unavailable, replicas);
}

/** Sum of spec.replicas. */
export const replicaCount = (sets: ReplicaSet[]): number => sets.reduce((n, rs) => n + rsReplicas(rs), 0);
/** Sum of status.replicas. */
export const actualReplicaCount = (sets: ReplicaSet[]): number => sets.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
export const readyReplicaCount = (sets: ReplicaSet[]): number => sets.reduce((n, rs) => n + (rs.status?.readyReplicas ?? 0), 0);
export const availableReplicaCount = (sets: ReplicaSet[]): number => sets.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);

/** kube's NewRSNewReplicas: the new ReplicaSet's size this step, never past replicas + maxSurge in total. */
export function newRSNewReplicas(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet): number {
  const replicas = specReplicas(d);
  if (!isRollingUpdate(d)) return replicas;
  const current = replicaCount(all);
  const maxTotal = replicas + maxSurge(d);
  if (current >= maxTotal) return rsReplicas(newRS);
  const scaleUp = Math.min(maxTotal - current, replicas - rsReplicas(newRS));
  return rsReplicas(newRS) + scaleUp;
}

/** Go's math.Round: halves away from zero. */
const roundHalfAway = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/** kube's getReplicaSetFraction: the change that keeps this set's share of the deployment. */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (specReplicas(d) === 0) return -rsReplicas(rs);
  const deploymentReplicas = specReplicas(d) + maxSurge(d);
  const annotated = Number.parseInt(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION] ?? '', 10);
  const base = Number.isNaN(annotated) ? (d.status?.replicas ?? 0) : annotated;
  const size = (rsReplicas(rs) * deploymentReplicas) / base;
  return roundHalfAway(size) - rsReplicas(rs);
}

/** kube's GetProportion: this set's part of `toAdd` (negative: to remove), given `added` so far. */
export function proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
  if (rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

const created = (rs: ReplicaSet): number => Date.parse(rs.metadata.creationTimestamp ?? '') || 0;

/** kube's ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const diff = created(a) - created(b);
  if (diff !== 0) return diff;
  const [na, nb] = [a.metadata.name ?? '', b.metadata.name ?? ''];
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** Larger first; among equals, newer first (scaling up). */
export const bySizeNewer = (a: ReplicaSet, b: ReplicaSet): number => (rsReplicas(a) === rsReplicas(b) ? byCreation(b, a) : rsReplicas(b) - rsReplicas(a));
/** Larger first; among equals, older first (scaling down). */
export const bySizeOlder = (a: ReplicaSet, b: ReplicaSet): number => (rsReplicas(a) === rsReplicas(b) ? byCreation(a, b) : rsReplicas(b) - rsReplicas(a));

/**
 * The sizes proportional scaling gives each active set when the deployment's size changed in the
 * middle of a rollout (kube's scale() for RollingUpdate), leftovers going to the first (largest).
 */
export function proportionalSizes(d: Deployment, active: ReplicaSet[]): { sizes: Map<ReplicaSet, number>; operation: 'up' | 'down' | '' } {
  const allowed = specReplicas(d) > 0 ? specReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowed - replicaCount(active);
  const sorted = [...active].sort(toAdd > 0 ? bySizeNewer : bySizeOlder);
  const sizes = new Map<ReplicaSet, number>();
  let added = 0;
  for (const rs of sorted) {
    if (toAdd === 0) {
      sizes.set(rs, rsReplicas(rs));
      continue;
    }
    const part = proportion(rs, d, toAdd, added);
    sizes.set(rs, rsReplicas(rs) + part);
    added += part;
  }
  if (toAdd !== 0 && sorted.length > 0) sizes.set(sorted[0]!, Math.max(0, sizes.get(sorted[0]!)! + toAdd - added));
  return { sizes, operation: toAdd > 0 ? 'up' : toAdd < 0 ? 'down' : '' };
}
