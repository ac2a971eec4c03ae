/**
 * The deployment controller, one instance over every space, as kube's `pkg/controller/deployment`:
 * a deployment's ReplicaSets are those of its space and namespace it controls (adopting orphans
 * its selector matches, releasing what no longer matches); each sync (deployment-sync.ts) rolls
 * out, scales and records status from the informers' state. A client of the API as
 * `system:controller:deployment-controller`.
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import { replicaSets as replicaSetDefinition } from '../../api/kinds/apps/replicaset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import type { KubeObject } from '../../api/registry/object.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import { deployments as deploymentDefinition } from '../../api/kinds/apps/deployment.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { claimObjects, controllerOf, controllerReference } from '../replicaset/controller-ref.js';
import { selects } from '../replicaset/replica-set-controller.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { DeploymentSync } from './deployment-sync.js';

const RESYNC_MS = 30_000;

export interface DeploymentControllerDeps {
  /** Acts as the deployment controller. */
  client: KubeClient;
  deployments: Informer;
  replicaSets: Informer;
  pods: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  now?: () => number;
}

export function deploymentController(deps: DeploymentControllerDeps): Controller {
  const now = deps.now ?? Date.now;
  const controller = new Controller({ name: 'deployment-controller', reconcile: (key) => reconcile(key), workers: 2, log: deps.log });

  const space = (obj: KubeObject) => ({ tenant: obj.metadata.tenant ?? '', namespace: obj.metadata.namespace ?? '' });
  const deploymentOf = (rs: KubeObject): Deployment | undefined => {
    const ref = controllerOf(rs);
    if (!ref || ref.kind !== 'Deployment' || !ref.apiVersion.startsWith('apps/')) return undefined;
    const d = deps.deployments.get({ ...space(rs), name: ref.name });
    return d?.metadata.uid === ref.uid ? (d as Deployment) : undefined;
  };
  const deploymentsSelecting = (rs: KubeObject): Deployment[] =>
    (deps.deployments.lister().list(space(rs)) as Deployment[]).filter((d) => selects(d.spec?.selector, rs.metadata.labels));

  async function reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const d = deps.deployments.get(key) as Deployment | undefined;
    if (!d) return done;
    const scope = deps.client.space(key.tenant).namespace(key.namespace);
    const candidates = deps.replicaSets.lister().list({ tenant: key.tenant, namespace: key.namespace }) as ReplicaSet[];
    const sets = await claimObjects(d, candidates, (rs) => selects(d.spec?.selector, rs.metadata.labels), controllerReference(d, 'apps/v1', 'Deployment'), {
      async setOwnerReferences(rs, refs) {
        await scope.resource(replicaSetDefinition).update({ ...rs, metadata: { ...rs.metadata, ownerReferences: refs } });
      },
      async canAdopt() {
        try {
          const fresh = await scope.resource(deploymentDefinition).get(d.metadata.name!);
          return fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
        } catch (err) {
          if (isNotFound(err)) return false;
          throw err;
        }
      },
    });
    const pods = deps.pods.lister().list({ tenant: key.tenant, namespace: key.namespace }) as Pod[];
    const sync = new DeploymentSync(d, { scope, events: deps.events, now });
    try {
      await sync.run(sets, pods);
    } catch (err) {
      if (isNotFound(err)) return done; // the deployment went away meanwhile
      if (isConflict(err)) return requeue; // a write raced another: the next sync reads the newer state
      throw err;
    }
    return sync.recheckMs === undefined ? done : requeueAfter(sync.recheckMs);
  }

  deps.deployments.onChange((key, obj) => obj && controller.enqueue(key), { resyncMs: RESYNC_MS });
  deps.replicaSets.onChange((_key, obj, previous) => {
    const rs = obj ?? previous;
    if (!rs) return;
    const owner = deploymentOf(rs);
    const oldOwner = previous && previous !== obj ? deploymentOf(previous) : undefined;
    if (oldOwner && oldOwner.metadata.uid !== owner?.metadata.uid) controller.enqueue(keyOf(oldOwner));
    if (owner) controller.enqueue(keyOf(owner));
    else if (obj && !controllerOf(obj)) for (const d of deploymentsSelecting(obj)) controller.enqueue(keyOf(d));
  });
  // A Recreate rollout waits for the old pods to be gone.
  deps.pods.onChange((_key, obj, previous) => {
    if (obj) return;
    const pod = previous!;
    const ref = controllerOf(pod);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = deps.replicaSets.get({ ...space(pod), name: ref.name });
    const d = rs && rs.metadata.uid === ref.uid ? deploymentOf(rs) : undefined;
    if (d && d.spec?.strategy?.type === 'Recreate') controller.enqueue(keyOf(d));
  });
  return controller;
}
