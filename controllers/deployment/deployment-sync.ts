/**
 * One sync of one deployment, as kube's `pkg/controller/deployment` (sync.go, rolling.go,
 * recreate.go, progress.go) does it: find the new ReplicaSet (the one whose template is the
 * deployment's, ignoring the hash label) and the old ones, then scale them, never letting the
 * total go past replicas + maxSurge nor the available pods below replicas - maxUnavailable, and
 * write the status. Every write goes to the deployment's own space and namespace; `d` follows
 * each write of the deployment so the next one carries its resourceVersion.
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { replicaSets as replicaSetDefinition } from '../../api/kinds/apps/replicaset.js';
import { isAlreadyExists } from '../../src/client/api-status.js';
import { deployments as deploymentDefinition } from '../../api/kinds/apps/deployment.js';
import type { Scope } from '../../src/client/kube-client.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import { controllerOf, controllerReference } from '../replicaset/controller-ref.js';
import { computeHash, equalIgnoreHash, POD_TEMPLATE_HASH_LABEL } from './pod-template-hash.js';
import {
  getCondition,
  hasProgressDeadline,
  newCondition,
  PROGRESSING,
  REASONS,
  rolloutStatus,
  calculateStatus,
  deploymentComplete,
  setCondition,
  statusDiffers,
  statusOf,
  stuckRecheckMs,
  type DeploymentStatus,
} from './deployment-status.js';
import {
  availableReplicaCount,
  byCreation,
  isRollingUpdate,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  proportionalSizes,
  replicaCount,
  rsReplicas,
  specReplicas,
} from './rollout-arithmetic.js';
import { DESIRED_REPLICAS_ANNOTATION, maxRevision, REVISION_ANNOTATION, revisionOf, setNewReplicaSetAnnotations, setReplicasAnnotations } from './revision-annotations.js';

const active = (sets: ReplicaSet[]): ReplicaSet[] => sets.filter((rs) => rsReplicas(rs) > 0);

export interface SyncDeps {
  /** The deployment's namespace, in its space, as the deployment controller. */
  scope: Scope;
  events: EventRecorder;
  now: () => number;
}

export class DeploymentSync {
  /** Answered to the controller: look again after this long (a rollout that may time out). */
  recheckMs: number | undefined;

  constructor(
    private d: Deployment,
    private readonly deps: SyncDeps,
  ) {}

  private get replicaSets() {
    return this.deps.scope.resource(replicaSetDefinition);
  }

  private get deployments() {
    return this.deps.scope.resource(deploymentDefinition);
  }

  private scalingEvent(rs: ReplicaSet, operation: string, from: number, to: number): void {
    this.deps.events.record({ regarding: this.d, related: rs, type: 'Normal', reason: 'ScalingReplicaSet', action: 'Scaling', note: `Scaled ${operation} replica set ${rs.metadata.name} from ${from} to ${to}` });
  }

  private async writeStatus(status: DeploymentStatus): Promise<void> {
    if (!statusDiffers(this.d, status)) return;
    this.d = await this.deployments.updateStatus({ ...this.d, status });
  }

  /** kube's SetDeploymentRevision, written at once: a status write does not carry annotations. */
  private async setDeploymentRevision(revision: string): Promise<void> {
    if (this.d.metadata.annotations?.[REVISION_ANNOTATION] === revision) return;
    const status = this.d.status;
    this.d = { ...(await this.deployments.update({ ...this.d, metadata: { ...this.d.metadata, annotations: { ...this.d.metadata.annotations, [REVISION_ANNOTATION]: revision } } })), status };
  }

  /** The new ReplicaSet (oldest of those with the deployment's template) and every other one. */
  private split(sets: ReplicaSet[]): { newRS: ReplicaSet | undefined; old: ReplicaSet[] } {
    const sorted = [...sets].sort(byCreation);
    const newRS = sorted.find((rs) => equalIgnoreHash(rs.spec?.template, this.d.spec?.template));
    return { newRS, old: sorted.filter((rs) => rs !== newRS) };
  }

  /** kube's getAllReplicaSetsAndSyncRevision / getNewReplicaSet. */
  private async newAndOld(sets: ReplicaSet[], create: boolean): Promise<{ newRS: ReplicaSet | undefined; old: ReplicaSet[] }> {
    const { newRS: existing, old } = this.split(sets);
    const newRevision = maxRevision(old) + 1;
    const now = this.deps.now();
    if (existing) {
      const copy = structuredClone(existing);
      const annotated = setNewReplicaSetAnnotations(this.d, copy, newRevision, true);
      const minReadySeconds = this.d.spec?.minReadySeconds ?? 0;
      if (annotated || (copy.spec?.minReadySeconds ?? 0) !== minReadySeconds) {
        copy.spec = { ...copy.spec, minReadySeconds };
        return { newRS: await this.replicaSets.update(copy), old };
      }
      await this.setDeploymentRevision(copy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(this.d) && !getCondition(statusOf(this.d), PROGRESSING)) {
        const status = structuredClone(statusOf(this.d));
        setCondition(status, newCondition(PROGRESSING, 'True', REASONS.foundNewRS, `Found new replica set "${copy.metadata.name}"`, now));
        await this.writeStatus(status);
      }
      return { newRS: copy, old };
    }
    if (!create) return { newRS: undefined, old };

    const template = structuredClone(this.d.spec?.template ?? {});
    const collisionCount = statusOf(this.d).collisionCount;
    const hash = computeHash(template, collisionCount);
    const labels = { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash };
    template.metadata = { ...template.metadata, labels };
    const selector = structuredClone(this.d.spec?.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    const name = `${this.d.metadata.name}-${hash}`;
    const candidate: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: this.d.metadata.namespace, labels: { ...labels }, ownerReferences: [controllerReference(this.d, 'apps/v1', 'Deployment')] },
      spec: { replicas: 0, minReadySeconds: this.d.spec?.minReadySeconds ?? 0, selector, template },
    };
    const replicas = newRSNewReplicas(this.d, [...old, candidate], candidate);
    candidate.spec!.replicas = replicas;
    setNewReplicaSetAnnotations(this.d, candidate, newRevision, false);
    let created: ReplicaSet;
    try {
      created = await this.replicaSets.create(candidate);
    } catch (err) {
      if (isAlreadyExists(err)) {
        const found = await this.replicaSets.get(name);
        if (controllerOf(found)?.uid === this.d.metadata.uid && equalIgnoreHash(this.d.spec?.template, found.spec?.template)) return { newRS: found, old };
        // Another ReplicaSet holds the name: the next hash takes the collision count into account.
        await this.writeStatus({ ...structuredClone(statusOf(this.d)), collisionCount: (collisionCount ?? 0) + 1 });
        throw err;
      }
      const message = `Failed to create new replica set "${name}": ${(err as Error).message}`;
      if (hasProgressDeadline(this.d)) {
        const status = structuredClone(statusOf(this.d));
        setCondition(status, newCondition(PROGRESSING, 'False', REASONS.failedRSCreate, message, now));
        await this.writeStatus(status);
      }
      this.deps.events.record({ regarding: this.d, type: 'Warning', reason: REASONS.failedRSCreate, action: 'Create', note: message });
      throw err;
    }
    if (replicas > 0) this.scalingEvent(created, 'up', 0, replicas);
    await this.setDeploymentRevision(String(newRevision));
    if (hasProgressDeadline(this.d)) {
      const status = structuredClone(statusOf(this.d));
      setCondition(status, newCondition(PROGRESSING, 'True', REASONS.newRSCreated, `Created new replica set "${created.metadata.name}"`, now));
      await this.writeStatus(status);
    }
    return { newRS: created, old };
  }

  /** kube's scaleReplicaSet: the size and the replicas annotations, with the event when the size changed. */
  private async scaleReplicaSet(rs: ReplicaSet, size: number, operation: string): Promise<ReplicaSet> {
    const copy = structuredClone(rs);
    const sizeChanges = rsReplicas(rs) !== size;
    const annotated = setReplicasAnnotations(copy, specReplicas(this.d), specReplicas(this.d) + maxSurge(this.d));
    if (!sizeChanges && !annotated) return rs;
    copy.spec = { ...copy.spec, replicas: size };
    const updated = await this.replicaSets.update(copy);
    if (sizeChanges) this.scalingEvent(updated, operation, rsReplicas(rs), size);
    return updated;
  }

  private async scaleAndRecord(rs: ReplicaSet, size: number): Promise<ReplicaSet> {
    if (rsReplicas(rs) === size) return rs;
    return this.scaleReplicaSet(rs, size, size > rsReplicas(rs) ? 'up' : 'down');
  }

  /** The whole sync; answers when to look again. */
  async run(sets: ReplicaSet[], pods: Pod[]): Promise<void> {
    if (this.d.metadata.deletionTimestamp) return this.syncStatusOnly(sets);
    await this.checkPausedConditions();
    if (this.d.spec?.paused) return this.syncScaling(sets);
    if (await this.isScalingEvent(sets)) return this.syncScaling(sets);
    if (isRollingUpdate(this.d)) return this.rolloutRolling(sets);
    return this.rolloutRecreate(sets, pods);
  }

  private async syncStatusOnly(sets: ReplicaSet[]): Promise<void> {
    const { newRS, old } = await this.newAndOld(sets, false);
    await this.writeStatus(calculateStatus(withNew(old, newRS), newRS, this.d, this.deps.now()));
  }

  /** kube's checkPausedConditions: Progressing Unknown while paused, and once resumed. */
  private async checkPausedConditions(): Promise<void> {
    if (!hasProgressDeadline(this.d)) return;
    const current = getCondition(statusOf(this.d), PROGRESSING);
    if (current?.reason === REASONS.timedOut) return;
    const pausedShown = current?.reason === REASONS.paused;
    const paused = this.d.spec?.paused === true;
    if (paused === pausedShown) return;
    const status = structuredClone(statusOf(this.d));
    setCondition(status, newCondition(PROGRESSING, 'Unknown', paused ? REASONS.paused : REASONS.resumed, paused ? 'Deployment is paused' : 'Deployment is resumed', this.deps.now()));
    await this.writeStatus(status);
  }

  private async isScalingEvent(sets: ReplicaSet[]): Promise<boolean> {
    const { newRS, old } = await this.newAndOld(sets, false);
    return active(withNew(old, newRS)).some((rs) => {
      const desired = Number.parseInt(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] ?? '', 10);
      return !Number.isNaN(desired) && desired !== specReplicas(this.d);
    });
  }

  /** kube's sync(): scaling only (a paused deployment, or a size change). */
  private async syncScaling(sets: ReplicaSet[]): Promise<void> {
    const { newRS, old } = await this.newAndOld(sets, false);
    const scaled = await this.scale(newRS, old);
    if (this.d.spec?.paused) await this.cleanup(scaled.old);
    await this.writeStatus(calculateStatus(withNew(scaled.old, scaled.newRS), scaled.newRS, this.d, this.deps.now()));
  }

  /** kube's scale(): the only active set takes the whole size; otherwise proportional scaling. */
  private async scale(newRS: ReplicaSet | undefined, old: ReplicaSet[]): Promise<{ newRS: ReplicaSet | undefined; old: ReplicaSet[] }> {
    const replaced = new Map<ReplicaSet, ReplicaSet>();
    const result = () => ({ newRS: newRS && (replaced.get(newRS) ?? newRS), old: old.map((rs) => replaced.get(rs) ?? rs) });
    const newestFirst = [...old].sort((a, b) => byCreation(b, a));
    const activeSets = active(withNew(newestFirst, newRS));
    const only = activeSets.length === 1 ? activeSets[0] : activeSets.length === 0 ? (newRS ?? newestFirst[0]) : undefined;
    if (only) {
      if (rsReplicas(only) !== specReplicas(this.d)) replaced.set(only, await this.scaleAndRecord(only, specReplicas(this.d)));
      return result();
    }
    const saturated =
      newRS !== undefined &&
      rsReplicas(newRS) === specReplicas(this.d) &&
      newRS.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] === String(specReplicas(this.d)) &&
      (newRS.status?.availableReplicas ?? 0) === specReplicas(this.d);
    if (saturated) {
      for (const rs of active(old)) replaced.set(rs, await this.scaleAndRecord(rs, 0));
      return result();
    }
    if (isRollingUpdate(this.d)) {
      const { sizes, operation } = proportionalSizes(this.d, activeSets);
      for (const [rs, size] of sizes) replaced.set(rs, await this.scaleReplicaSet(rs, size, operation));
    }
    return result();
  }

  /** kube's rolloutRolling. */
  private async rolloutRolling(sets: ReplicaSet[]): Promise<void> {
    const found = await this.newAndOld(sets, true);
    let newRS = found.newRS!;
    let old = found.old;
    // Scale the new set up as far as maxSurge allows.
    if (rsReplicas(newRS) !== specReplicas(this.d)) {
      const size = rsReplicas(newRS) > specReplicas(this.d) ? specReplicas(this.d) : newRSNewReplicas(this.d, [...old, newRS], newRS);
      const scaled = await this.scaleAndRecord(newRS, size);
      if (scaled !== newRS) {
        newRS = scaled;
        return this.syncRolloutStatus([...old, newRS], newRS);
      }
    }
    const before = old;
    old = await this.reconcileOldReplicaSets(old, newRS);
    if (old.some((rs, i) => rs !== before[i])) return this.syncRolloutStatus([...old, newRS], newRS);
    if (deploymentComplete(this.d, statusOf(this.d))) await this.cleanup(old);
    return this.syncRolloutStatus([...old, newRS], newRS);
  }

  /** kube's reconcileOldReplicaSets: first unhealthy old pods, then healthy ones, keeping replicas - maxUnavailable available. */
  private async reconcileOldReplicaSets(old: ReplicaSet[], newRS: ReplicaSet): Promise<ReplicaSet[]> {
    if (replicaCount(old) === 0) return old;
    const minAvailable = specReplicas(this.d) - maxUnavailable(this.d);
    const newUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = replicaCount([...old, newRS]) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return old;
    const result = [...old];
    const order = [...old.keys()].sort((a, b) => byCreation(old[a]!, old[b]!));
    // Unhealthy replicas go first: they count for nothing available.
    let cleaned = 0;
    for (const i of order) {
      if (cleaned >= maxScaledDown) break;
      const rs = result[i]!;
      const unhealthy = rsReplicas(rs) - (rs.status?.availableReplicas ?? 0);
      if (rsReplicas(rs) === 0 || unhealthy <= 0) continue;
      const down = Math.min(maxScaledDown - cleaned, unhealthy);
      result[i] = await this.scaleAndRecord(rs, rsReplicas(rs) - down);
      cleaned += down;
    }
    // Then available ones, down to minAvailable over every set.
    const availableNow = availableReplicaCount([...result, newRS]);
    if (availableNow <= minAvailable) return result;
    const toScaleDown = availableNow - minAvailable;
    let scaledDown = 0;
    for (const i of order) {
      if (scaledDown >= toScaleDown) break;
      const rs = result[i]!;
      if (rsReplicas(rs) === 0) continue;
      const down = Math.min(rsReplicas(rs), toScaleDown - scaledDown);
      result[i] = await this.scaleAndRecord(rs, rsReplicas(rs) - down);
      scaledDown += down;
    }
    return result;
  }

  /** kube's rolloutRecreate: old pods all gone before the new set is created or scaled up. */
  private async rolloutRecreate(sets: ReplicaSet[], pods: Pod[]): Promise<void> {
    let { newRS, old } = await this.newAndOld(sets, false);
    let scaledDown = false;
    for (const [i, rs] of old.entries()) {
      if (rsReplicas(rs) === 0) continue;
      old[i] = await this.scaleAndRecord(rs, 0);
      scaledDown = true;
    }
    if (scaledDown) return this.syncRolloutStatus(withNew(old, newRS), newRS);
    const oldUids = new Set(old.map((rs) => rs.metadata.uid));
    const oldPodsRunning =
      old.some((rs) => (rs.status?.replicas ?? 0) > 0) ||
      pods.some((p) => oldUids.has(controllerOf(p)?.uid) && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
    if (oldPodsRunning) return this.syncRolloutStatus(withNew(old, newRS), newRS);
    if (!newRS) ({ newRS, old } = await this.newAndOld(sets, true));
    newRS = await this.scaleAndRecord(newRS!, specReplicas(this.d));
    if (deploymentComplete(this.d, statusOf(this.d))) await this.cleanup(old);
    return this.syncRolloutStatus([...old, newRS], newRS);
  }

  /** kube's cleanupDeployment: old, empty, settled sets beyond revisionHistoryLimit are deleted, lowest revision first. */
  private async cleanup(old: ReplicaSet[]): Promise<void> {
    const limit = this.d.spec?.revisionHistoryLimit;
    if (limit === undefined) return;
    const cleanable = old.filter((rs) => !rs.metadata.deletionTimestamp).sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    const excess = cleanable.length - limit;
    for (const rs of cleanable.slice(0, Math.max(0, excess))) {
      if ((rs.status?.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      await this.replicaSets.delete(rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
    }
  }

  private async syncRolloutStatus(all: ReplicaSet[], newRS: ReplicaSet | undefined): Promise<void> {
    const now = this.deps.now();
    const status = rolloutStatus(all, newRS, this.d, now);
    if (!statusDiffers(this.d, status)) {
      this.recheckMs = stuckRecheckMs(this.d, status, now);
      return;
    }
    await this.writeStatus(status);
  }
}

function withNew(old: ReplicaSet[], newRS: ReplicaSet | undefined): ReplicaSet[] {
  return newRS ? [...old, newRS] : old;
}
