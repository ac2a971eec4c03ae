/**
 * The StatefulSet controller (kube's `statefulset-controller`), one instance over every space, on
 * the shared StatefulSet, Pod and ControllerRevision informers. Each reconcile plans with
 * `planStatefulSet` (statefulset-sync.ts) from the set, the pods and revisions it controls (found
 * by `<tenant>/<uid>`), then writes as `system:controller:statefulset-controller`: the revision,
 * claims, pods (names are fixed, so a create the cache has not seen yet answers AlreadyExists
 * instead of doubling a pod), deletions with the pod's uid as precondition, the status when it
 * changed, and the history past its limit.
 */
import { controllerRevisions, type ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import { statefulSets, type StatefulSet } from '../../api/kinds/apps/statefulset.js';
import { persistentVolumeClaims } from '../../api/kinds/core/persistent-volume-claim.js';
import { pods as podKind } from '../../api/kinds/core/pod.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { pruneRevisions, saveRevisions } from '../runtime/controller-history.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { CONTROLLER_INDEX, controllerIndexFunc, controllerIndexValue, controllerKeyOf } from '../runtime/owner-references.js';
import { planStatefulSet } from './statefulset-sync.js';

export interface StatefulSetControllerDeps {
  /** Acts as system:controller:statefulset-controller. */
  client: KubeClient;
  statefulSets: Informer;
  pods: Informer;
  controllerRevisions: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
  workers?: number;
}

export function statefulSetController(deps: StatefulSetControllerDeps): Controller {
  const clock = deps.clock ?? realClock;
  deps.pods.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  deps.controllerRevisions.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  const podLister = deps.pods.lister<Pod>();
  const revisionLister = deps.controllerRevisions.lister<ControllerRevision>();

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const set = deps.statefulSets.get(key) as StatefulSet | undefined;
    if (!set || set.metadata.deletionTimestamp) return done;
    const owner = controllerIndexValue(set);
    const plan = planStatefulSet({
      set,
      pods: podLister.byIndex(CONTROLLER_INDEX, owner),
      revisions: revisionLister.byIndex(CONTROLLER_INDEX, owner),
      claims: new Set(),
      now: clock.now(),
    });
    const scope = deps.client.space(key.tenant).namespace(key.namespace);
    const revisionClient = scope.resource(controllerRevisions);
    const podClient = scope.resource(podKind);
    const claimClient = scope.resource(persistentVolumeClaims);
    const regarding = set;
    const podEvent = (verb: 'Create' | 'Delete', pod: Pod) =>
      deps.events.record({ regarding, related: pod, type: 'Normal', reason: `Successful${verb}`, action: verb, note: `${verb.toLowerCase()} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful` });

    try {
      await saveRevisions(revisionClient, plan);
      for (const claim of plan.createClaims) {
        try {
          await claimClient.create(claim);
          const podName = plan.createPods.find((p) => (p.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === claim.metadata.name))?.metadata.name ?? '';
          deps.events.record({ regarding, related: claim, type: 'Normal', reason: 'SuccessfulCreate', action: 'Create', note: `create Claim ${claim.metadata.name} Pod ${podName} in StatefulSet ${set.metadata.name} success` });
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
      }
      for (const pod of plan.createPods) {
        try {
          podEvent('Create', await podClient.create(pod));
        } catch (err) {
          if (isAlreadyExists(err)) continue;
          deps.events.record({ regarding, type: 'Warning', reason: 'FailedCreate', action: 'Create', note: `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${(err as Error).message}` });
          throw err;
        }
      }
      for (const { claim, pod } of plan.claimsOwnedByPods) {
        const ref = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid!, blockOwnerDeletion: true };
        await claimClient.patch(claim, 'merge', { metadata: { ownerReferences: [ref] } }).catch((err) => {
          if (!isNotFound(err)) throw err;
        });
      }
      for (const pod of plan.deletePods) {
        try {
          await podClient.delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
          podEvent('Delete', pod);
        } catch (err) {
          if (!isNotFound(err) && !isConflict(err)) throw err;
        }
      }
      if (plan.status) await scope.resource(statefulSets).updateStatus({ ...set, status: plan.status });
      await pruneRevisions(revisionClient, plan);
    } catch (err) {
      if (isConflict(err)) return requeue;
      if (isNotFound(err)) return done;
      throw err;
    }
    return plan.requeueAfterMs !== undefined ? requeueAfter(plan.requeueAfterMs) : done;
  };

  const controller = new Controller({ name: 'statefulset', reconcile, log: deps.log, workers: deps.workers ?? 2 });
  deps.statefulSets.onChange((key, obj) => {
    if (obj) controller.enqueue(key);
  });
  const enqueueOwner = (obj: unknown) => {
    const owner = controllerKeyOf(obj as Pod, 'StatefulSet', 'apps');
    if (owner) controller.enqueue(owner);
  };
  deps.pods.onChange((_key, pod, previous) => enqueueOwner(pod ?? previous));
  deps.controllerRevisions.onChange((_key, rev, previous) => enqueueOwner(rev ?? previous));
  return controller;
}
