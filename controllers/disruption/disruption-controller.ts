/**
 * The disruption controller, one instance over every space: keeps each PodDisruptionBudget's
 * status (expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed, disruptedPods,
 * observedGeneration, the DisruptionAllowed condition) from the pods of its own space and
 * namespace, so `pods/eviction` (src/server/handlers/pod-subresources.ts) can grant or refuse
 * evictions and `kubectl drain` waits as on a cluster. A client of the API as
 * `system:controller:disruption-controller`.
 */
import type { Deployment } from '../../api/kinds/apps/deployment.js';
import type { ReplicaSet } from '../../api/kinds/apps/replicaset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { podDisruptionBudgets, type PodDisruptionBudget } from '../../api/kinds/policy/poddisruptionbudget.js';
import { nowTimestamp } from '../../api/registry/timestamp.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { LabelSelector } from '../../api/validation/label-selector.js';
import { isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyOf, type ObjectKey } from '../../src/client/object-key.js';
import { canonicalJson } from '../deployment/pod-template-hash.js';
import { controllerOf } from '../replicaset/controller-ref.js';
import { selects } from '../replicaset/replica-set-controller.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { currentHealthy, disruptedPods, disruptionsAllowed, expectedPods, type ScaleOf } from './disruption-budget.js';

const RESYNC_MS = 30_000;
const DISRUPTION_ALLOWED = 'DisruptionAllowed';

export interface DisruptionControllerDeps {
  /** Acts as the disruption controller. */
  client: KubeClient;
  budgets: Informer;
  pods: Informer;
  /** The controllers whose scale a budget counts, by kind. */
  scalers: { replicaSets: Informer; deployments: Informer; replicationControllers: Informer; statefulSets: Informer };
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  now?: () => number;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

interface BudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

/** policy/v1: an absent selector selects no pod, an empty one every pod of the namespace. */
function budgetSelects(selector: LabelSelector | undefined, pod: KubeObject): boolean {
  return selector !== undefined && selects(selector, pod.metadata.labels);
}

/** meta.SetStatusCondition: the transition time moves only when the status does. */
function withCondition(conditions: Condition[] | undefined, condition: Condition, now: number): Condition[] {
  const old = (conditions ?? []).find((c) => c.type === condition.type);
  const next = { ...condition, lastTransitionTime: old && old.status === condition.status ? old.lastTransitionTime : nowTimestamp(now) };
  return old ? (conditions ?? []).map((c) => (c === old ? next : c)) : [...(conditions ?? []), next];
}

export function disruptionController(deps: DisruptionControllerDeps): Controller {
  const now = deps.now ?? Date.now;
  const controller = new Controller({ name: 'disruption-controller', reconcile: (key) => reconcile(key), log: deps.log });
  const { scalers } = deps;

  /** The pod's controller and its desired scale, looked up in the pod's own space and namespace (kube's finders). */
  const scaleOf: ScaleOf = (pod) => {
    const ref = controllerOf(pod);
    if (!ref) return undefined;
    const at = (informer: Informer, name: string): KubeObject | undefined => informer.get({ tenant: pod.metadata.tenant ?? '', namespace: pod.metadata.namespace ?? '', name });
    const scale = (obj: KubeObject | undefined, uid: string) =>
      obj && obj.metadata.uid === uid ? { uid, replicas: ((obj as { spec?: { replicas?: number } }).spec?.replicas ?? 1) } : undefined;
    switch (ref.kind) {
      case 'ReplicationController':
        return scale(at(scalers.replicationControllers, ref.name), ref.uid);
      case 'StatefulSet':
        return scale(at(scalers.statefulSets, ref.name), ref.uid);
      case 'ReplicaSet': {
        const rs = at(scalers.replicaSets, ref.name) as ReplicaSet | undefined;
        if (!rs || rs.metadata.uid !== ref.uid) return undefined;
        const parent = controllerOf(rs);
        if (parent?.kind === 'Deployment') return scale(at(scalers.deployments, parent.name) as Deployment | undefined, parent.uid);
        return scale(rs, ref.uid);
      }
      default:
        return undefined;
    }
  };

  async function writeStatus(pdb: PodDisruptionBudget, status: BudgetStatus): Promise<void> {
    if (canonicalJson(pdb.status ?? {}) === canonicalJson(status)) return;
    try {
      await deps.client
        .space(pdb.metadata.tenant!)
        .namespace(pdb.metadata.namespace!)
        .resource(podDisruptionBudgets)
        .updateStatus({ ...pdb, status: status as unknown as PodDisruptionBudget['status'] });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async function reconcile(key: ObjectKey): Promise<ReconcileResult> {
    const pdb = deps.budgets.get(key) as PodDisruptionBudget | undefined;
    if (!pdb || pdb.metadata.deletionTimestamp) return done;
    const t = now();
    const pods = (deps.pods.lister().list({ tenant: key.tenant, namespace: key.namespace }) as Pod[]).filter((pod) => budgetSelects(pdb.spec?.selector, pod));
    const previous = (pdb.status ?? {}) as Partial<BudgetStatus>;
    let expected;
    try {
      expected = expectedPods(pdb, pods, scaleOf, (pod) => controllerOf(pod) !== undefined);
    } catch (err) {
      // kube's failSafe: no disruption allowed while the budget cannot be computed.
      const message = (err as Error).message;
      deps.events.record({ regarding: pdb, type: 'Warning', reason: 'CalculateExpectedPodCountFailed', action: 'Calculate', note: `Failed to calculate the number of expected pods: ${message}` });
      const condition = { type: DISRUPTION_ALLOWED, status: 'False', reason: 'SyncFailed', message, observedGeneration: pdb.metadata.generation };
      await writeStatus(pdb, {
        disruptionsAllowed: 0,
        currentHealthy: previous.currentHealthy ?? 0,
        desiredHealthy: previous.desiredHealthy ?? 0,
        expectedPods: previous.expectedPods ?? 0,
        ...(previous.disruptedPods ? { disruptedPods: previous.disruptedPods } : {}),
        observedGeneration: pdb.metadata.generation,
        conditions: withCondition(previous.conditions, condition, t),
      });
      return requeueAfter(RESYNC_MS);
    }
    if (expected.unmanaged.length > 0) {
      deps.events.record({
        regarding: pdb,
        type: 'Warning',
        reason: 'UnmanagedPods',
        action: 'Calculate',
        note: `Pods selected by this PodDisruptionBudget (selector: ${canonicalJson(pdb.spec?.selector ?? {})}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      });
    }
    const { disrupted, expired, recheckAt } = disruptedPods(pdb, pods, t);
    const note = `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`;
    for (const pod of expired) deps.events.record({ regarding: pod, type: 'Warning', reason: 'NotDeleted', action: 'Evict', note });
    const healthy = currentHealthy(pods, disrupted);
    const allowed = disruptionsAllowed(expected.expectedCount, healthy, expected.desiredHealthy);
    const condition = { type: DISRUPTION_ALLOWED, status: allowed > 0 ? 'True' : 'False', reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods', message: '', observedGeneration: pdb.metadata.generation };
    await writeStatus(pdb, {
      ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed: allowed,
      currentHealthy: healthy,
      desiredHealthy: expected.desiredHealthy,
      expectedPods: expected.expectedCount,
      observedGeneration: pdb.metadata.generation,
      conditions: withCondition(previous.conditions, condition, t),
    });
    return recheckAt === undefined ? done : requeueAfter(Math.max(recheckAt - t, 1000));
  }

  const budgetsSelecting = (pod: KubeObject): ObjectKey[] =>
    (deps.budgets.lister().list({ tenant: pod.metadata.tenant ?? '', namespace: pod.metadata.namespace ?? '' }) as PodDisruptionBudget[])
      .filter((pdb) => budgetSelects(pdb.spec?.selector, pod))
      .map(keyOf);
  deps.budgets.onChange((key, obj) => obj && controller.enqueue(key), { resyncMs: RESYNC_MS });
  deps.pods.onChange((_key, obj, previous) => {
    const keys = new Map<string, ObjectKey>();
    for (const pod of [obj, previous]) if (pod) for (const k of budgetsSelecting(pod)) keys.set(`${k.tenant}/${k.namespace}/${k.name}`, k);
    for (const k of keys.values()) controller.enqueue(k);
  });
  return controller;
}
