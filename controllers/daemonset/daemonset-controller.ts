/**
 * The DaemonSet controller (kube's `daemon-set-controller`), one instance, on the shared
 * DaemonSet, Pod, Node and ControllerRevision informers. Nodes are shared by every space, so
 * DaemonSets are the system space's only (admission refuses them elsewhere, see
 * api/admission/system-daemonsets.ts); the controller acts on nothing else, as a second line.
 * Each reconcile plans with `planDaemonSet` (daemonset-sync.ts) and writes as
 * `system:controller:daemon-set-controller`, with expectations so a lagging cache never makes
 * a node a second pod. Any node change re-checks every daemon set.
 */
import { controllerRevisions, type ControllerRevision } from '../../api/kinds/apps/controllerrevision.js';
import { daemonSets, type DaemonSet } from '../../api/kinds/apps/daemonset.js';
import type { Node } from '../../api/kinds/core/node.js';
import { pods as podKind } from '../../api/kinds/core/pod.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { pruneRevisions, saveRevisions } from '../runtime/controller-history.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import { Expectations } from '../runtime/expectations.js';
import type { Informer } from '../runtime/informer.js';
import { CONTROLLER_INDEX, controllerIndexFunc, controllerIndexValue, controllerKeyOf } from '../runtime/owner-references.js';
import { daemonPod, planDaemonSet } from './daemonset-sync.js';

export interface DaemonSetControllerDeps {
  /** Acts as system:controller:daemon-set-controller. */
  client: KubeClient;
  daemonSets: Informer;
  pods: Informer;
  nodes: Informer;
  controllerRevisions: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
}

export function daemonSetController(deps: DaemonSetControllerDeps): Controller {
  const clock = deps.clock ?? realClock;
  const expectations = new Expectations(clock);
  deps.pods.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  deps.controllerRevisions.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  const podLister = deps.pods.lister<Pod>();
  const revisionLister = deps.controllerRevisions.lister<ControllerRevision>();

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const set = deps.daemonSets.get(key) as DaemonSet | undefined;
    if (!set || set.metadata.deletionTimestamp || key.tenant !== SYSTEM_TENANT) {
      expectations.forget(key);
      return done;
    }
    const owner = controllerIndexValue(set);
    const plan = planDaemonSet({
      set,
      nodes: deps.nodes.lister<Node>().list(),
      pods: podLister.byIndex(CONTROLLER_INDEX, owner),
      revisions: revisionLister.byIndex(CONTROLLER_INDEX, owner),
      now: clock.now(),
      expectationsSatisfied: expectations.satisfied(key),
    });
    const scope = deps.client.space(key.tenant).namespace(key.namespace);
    const revisionClient = scope.resource(controllerRevisions);
    const podClient = scope.resource(podKind);
    try {
      await saveRevisions(revisionClient, plan);
      if (plan.deletePods.length > 0) {
        expectations.expect(key, { deletes: plan.deletePods.length });
        for (const pod of plan.deletePods) {
          try {
            await podClient.delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
            deps.events.record({ regarding: set, related: pod, type: 'Normal', reason: 'SuccessfulDelete', action: 'Delete', note: `Deleted pod: ${pod.metadata.name}` });
          } catch (err) {
            expectations.observeDelete(key);
            if (!isNotFound(err) && !isConflict(err)) throw err;
          }
        }
      }
      if (plan.createOn.length > 0) {
        expectations.expect(key, { adds: plan.createOn.length });
        for (const node of plan.createOn) {
          try {
            const pod = await podClient.create(daemonPod(set, node, plan.hash));
            deps.events.record({ regarding: set, related: pod, type: 'Normal', reason: 'SuccessfulCreate', action: 'Create', note: `Created pod: ${pod.metadata.name}` });
          } catch (err) {
            expectations.observeAdd(key);
            deps.events.record({ regarding: set, type: 'Warning', reason: 'FailedCreate', action: 'Create', note: `Error creating: ${(err as Error).message}` });
            throw err;
          }
        }
      }
      if (plan.status) await scope.resource(daemonSets).updateStatus({ ...set, status: plan.status });
      await pruneRevisions(revisionClient, plan);
    } catch (err) {
      if (isConflict(err)) return requeue;
      if (isNotFound(err)) return done;
      throw err;
    }
    return plan.requeueAfterMs !== undefined ? requeueAfter(plan.requeueAfterMs) : done;
  };

  const controller = new Controller({ name: 'daemonset', reconcile, log: deps.log });
  deps.daemonSets.onChange((key, obj) => {
    if (obj && key.tenant === SYSTEM_TENANT) controller.enqueue(key);
  });
  deps.pods.onChange((_key, pod, previous) => {
    const owner = controllerKeyOf((pod ?? previous)!, 'DaemonSet', 'apps');
    if (!owner) return;
    if (pod && !previous) expectations.observeAdd(owner);
    if ((!pod && !previous?.metadata.deletionTimestamp) || (pod?.metadata.deletionTimestamp && !previous?.metadata.deletionTimestamp)) expectations.observeDelete(owner);
    controller.enqueue(owner);
  });
  deps.controllerRevisions.onChange((_key, rev, previous) => {
    const owner = controllerKeyOf((rev ?? previous)!, 'DaemonSet', 'apps');
    if (owner) controller.enqueue(owner);
  });
  // Nodes come and go, change labels and taints: every daemon set looks again. Status changes
  // (heartbeats) change nothing a daemon set decides on.
  deps.nodes.onChange((_key, node, previous) => {
    if (node && previous && JSON.stringify([node.metadata.labels, node.spec]) === JSON.stringify([previous.metadata.labels, previous.spec])) return;
    for (const set of deps.daemonSets.lister().list({ tenant: SYSTEM_TENANT })) controller.enqueue(keyOf(set));
  });
  return controller;
}
