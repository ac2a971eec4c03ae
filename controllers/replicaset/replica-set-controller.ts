/**
 * The replica-set controller, one instance over every space, for ReplicaSets and (with the same
 * code, another `ReplicaSetKind`) ReplicationControllers, as kube's `pkg/controller/replicaset`.
 * A reconcile reads the owner and the active pods of its space and namespace from the shared
 * informers, claims them (adoption and release by selector, never across spaces), creates or
 * deletes pods to reach `spec.replicas` (creations in slow-start batches, deletions ranked as
 * kube ranks them, both under expectations so a slow informer never causes a second round), and
 * writes `status` when it changed. A client of the API as `system:controller:replicaset-controller`
 * (or `replication-controller`).
 */
import type { Pod } from '../../api/kinds/core/types.js';
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { labelSelectorMatches, type LabelSelector } from '../../api/validation/label-selector.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import { pods as podDefinition } from '../../api/kinds/core/pod.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { claimObjects, controllerOf, controllerReference, type ClaimWriter } from './controller-ref.js';
import { Expectations } from './expectations.js';
import { podsToDelete } from './pod-ranking.js';
import { isPodActive, isPodReady } from './pod-state.js';
import type { ReplicaSetKind } from './replica-set-kinds.js';
import { calculateStatus, statusChanged } from './replica-set-status.js';
import { slowStartBatch } from './slow-start.js';

/** At most this many pods created or deleted in one sync (kube's BurstReplicas). */
export const BURST_REPLICAS = 500;
/** Every owner is looked at again this often, so a missed change is corrected (kube's resync). */
const RESYNC_MS = 30_000;

export interface ReplicaSetControllerDeps {
  kind: ReplicaSetKind;
  /** Acts as the controller's own user. */
  client: KubeClient;
  /** The kind's informer over every space. */
  owners: Informer;
  pods: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  now?: () => number;
}

/** Whether the selector selects the labels; an invalid or absent selector selects nothing. */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector) return false;
  try {
    return labelSelectorMatches(selector, labels);
  } catch {
    return false;
  }
}

/** A pod from the owner's template, as kube's GetPodFromTemplate: `<owner>-<5 random characters>`, owned by it. */
export function podFromTemplate(kind: ReplicaSetKind, owner: KubeObject, ref: OwnerReference): Pod {
  const template = kind.template(owner) ?? {};
  const meta = template.metadata ?? {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [ref],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}

export function replicaSetController(deps: ReplicaSetControllerDeps): Controller {
  const { kind } = deps;
  const now = deps.now ?? Date.now;
  const expectations = new Expectations(now);
  const controller = new Controller({ name: `${kind.name}-controller`, reconcile: (key) => reconcile(key), workers: 2, log: deps.log });
  const podsOf = (space: { tenant: string; namespace: string }) => deps.client.space(space.tenant).namespace(space.namespace).resource(podDefinition);

  /** The owner a pod's controller reference names, in the pod's own space and namespace. */
  const ownerOf = (pod: KubeObject): KubeObject | undefined => {
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== kind.kind || ref.apiVersion.split('/')[0] !== kind.apiVersion.split('/')[0]) return undefined;
    const owner = deps.owners.get({ tenant: pod.metadata.tenant ?? '', namespace: pod.metadata.namespace ?? '', name: ref.name });
    return owner?.metadata.uid === ref.uid ? owner : undefined;
  };
  const ownersSelecting = (pod: KubeObject): KubeObject[] =>
    deps.owners
      .lister()
      .list({ tenant: pod.metadata.tenant ?? '', namespace: pod.metadata.namespace ?? '' })
      .filter((owner) => selects(kind.selector(owner), pod.metadata.labels));

  const writer = (owner: KubeObject): ClaimWriter<Pod> => ({
    async setOwnerReferences(pod, refs) {
      await podsOf(keyOf(pod)).update({ ...pod, metadata: { ...pod.metadata, ownerReferences: refs } });
    },
    async canAdopt() {
      try {
        const fresh = await deps.client.space(owner.metadata.tenant!).namespace(owner.metadata.namespace!).resource(kind.definition).get(owner.metadata.name!);
        return fresh.metadata.uid === owner.metadata.uid && !fresh.metadata.deletionTimestamp;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
  });

  /** Active pods of every replica set controlled by the same owner (a deployment's), for ranking by node. */
  const relatedPods = (owner: KubeObject, fallback: Pod[]): Pod[] => {
    const parent = controllerOf(owner);
    if (!parent) return fallback;
    const space = { tenant: owner.metadata.tenant ?? '', namespace: owner.metadata.namespace ?? '' };
    const siblings = new Set(
      deps.owners
        .lister()
        .list(space)
        .filter((o) => controllerOf(o)?.uid === parent.uid)
        .map((o) => o.metadata.uid),
    );
    return (deps.pods.lister().list(space) as Pod[]).filter((p) => isPodActive(p) && siblings.has(controllerOf(p)?.uid));
  };

  const record = (owner: KubeObject, type: 'Normal' | 'Warning', reason: string, action: string, note: string, related?: KubeObject) =>
    deps.events.record({ regarding: owner, ...(related ? { related } : {}), type, reason, action, note });

  async function createPods(key: ObjectKey, owner: KubeObject, count: number): Promise<Error | undefined> {
    const ref = controllerReference(owner, kind.apiVersion, kind.kind);
    expectations.expect(key, { creations: count, deletions: [] });
    const { successes, error } = await slowStartBatch(count, 1, async () => {
      try {
        const pod = await podsOf(key).create(podFromTemplate(kind, owner, ref));
        record(owner, 'Normal', 'SuccessfulCreate', 'Create', `Created pod: ${pod.metadata.name}`, pod);
      } catch (err) {
        record(owner, 'Warning', 'FailedCreate', 'Create', `Error creating: ${(err as Error).message}`);
        throw err;
      }
    });
    // Pods never created will never be observed.
    expectations.lowerCreations(key, count - successes);
    return error as Error | undefined;
  }

  async function deletePods(key: ObjectKey, owner: KubeObject, victims: Pod[]): Promise<Error | undefined> {
    expectations.expect(key, { creations: 0, deletions: victims.map(keyOf) });
    const results = await Promise.all(
      victims.map(async (pod) => {
        try {
          await podsOf(key).delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
          record(owner, 'Normal', 'SuccessfulDelete', 'Delete', `Deleted pod: ${pod.metadata.name}`, pod);
          return undefined;
        } catch (err) {
          // The deletion will never be observed (or was, as NotFound says): stop waiting for it.
          expectations.deletionObserved(key, keyOf(pod));
          if (isNotFound(err)) return undefined;
          record(owner, 'Warning', 'FailedDelete', 'Delete', `Error deleting: ${(err as Error).message}`, pod);
          return err as Error;
        }
      }),
    );
    return results.find((e) => e !== undefined);
  }

  async function manageReplicas(key: ObjectKey, owner: KubeObject, active: Pod[]): Promise<Error | undefined> {
    const diff = active.length - kind.replicas(owner);
    if (diff < 0) return createPods(key, owner, Math.min(-diff, BURST_REPLICAS));
    if (diff > 0) return deletePods(key, owner, podsToDelete(active, relatedPods(owner, active), Math.min(diff, BURST_REPLICAS), now()));
    return undefined;
  }

  async function reconcile(key: ObjectKey): Promise<ReconcileResult> {
    try {
      return await sync(key);
    } catch (err) {
      if (isConflict(err)) return requeue; // a write raced another: the next sync reads the newer state
      throw err;
    }
  }

  async function sync(key: ObjectKey): Promise<ReconcileResult> {
    const owner = deps.owners.get(key);
    if (!owner) {
      expectations.forget(key);
      return done;
    }
    const needsSync = expectations.satisfied(key);
    const selector = kind.selector(owner);
    const candidates = (deps.pods.lister().list({ tenant: key.tenant, namespace: key.namespace }) as Pod[]).filter(isPodActive);
    const ref = controllerReference(owner, kind.apiVersion, kind.kind);
    const active = await claimObjects(owner, candidates, (pod) => selects(selector, pod.metadata.labels), ref, writer(owner));
    const manageError = needsSync && !owner.metadata.deletionTimestamp ? await manageReplicas(key, owner, active) : undefined;
    const status = calculateStatus(kind, owner, active, manageError, now());
    if (statusChanged(kind.status(owner), status)) {
      try {
        await deps.client
          .space(key.tenant)
          .namespace(key.namespace)
          .resource(kind.definition)
          .updateStatus({ ...owner, status });
      } catch (err) {
        if (isNotFound(err)) return done;
        throw err;
      }
    }
    if (manageError) throw manageError;
    // Pods ready but not yet available become available by time alone: look again then.
    const minReadySeconds = kind.minReadySeconds(owner);
    if (minReadySeconds > 0 && status.readyReplicas === kind.replicas(owner) && status.availableReplicas !== kind.replicas(owner)) {
      return requeueAfter(minReadySeconds * 1000);
    }
    return done;
  }

  deps.owners.onChange(
    (key, obj) => {
      if (!obj) expectations.forget(key);
      controller.enqueue(key);
    },
    { resyncMs: RESYNC_MS },
  );
  deps.pods.onChange((key, obj, previous) => {
    const pod = obj as Pod | undefined;
    const old = previous as Pod | undefined;
    const ownerKey = (o: KubeObject) => keyOf(o);
    if (!pod || (pod.metadata.deletionTimestamp && !old?.metadata.deletionTimestamp)) {
      // Deleted, or marked for deletion (a graceful delete): the deletion we asked for is seen.
      const owner = ownerOf((pod ?? old)!);
      if (owner) {
        expectations.deletionObserved(ownerKey(owner), key);
        controller.enqueue(ownerKey(owner));
      }
      return;
    }
    if (!old) {
      const owner = ownerOf(pod);
      if (owner) {
        expectations.creationObserved(ownerKey(owner));
        controller.enqueue(ownerKey(owner));
      } else if (!controllerOf(pod)) {
        for (const o of ownersSelecting(pod)) controller.enqueue(ownerKey(o));
      }
      return;
    }
    if (old === pod) return; // a resync: the owners resync themselves
    const owner = ownerOf(pod);
    const oldOwner = ownerOf(old);
    if (oldOwner && oldOwner.metadata.uid !== owner?.metadata.uid) controller.enqueue(ownerKey(oldOwner));
    if (owner) {
      controller.enqueue(ownerKey(owner));
      const minReadySeconds = kind.minReadySeconds(owner);
      if (minReadySeconds > 0 && !isPodReady(old) && isPodReady(pod)) controller.queue.addAfter(ownerKey(owner), minReadySeconds * 1000 + 1000);
    } else if (!controllerOf(pod) && JSON.stringify(pod.metadata.labels) !== JSON.stringify(old.metadata.labels)) {
      for (const o of ownersSelecting(pod)) controller.enqueue(ownerKey(o));
    }
  });
  return controller;
}
