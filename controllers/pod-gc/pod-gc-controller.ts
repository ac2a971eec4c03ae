/**
 * Pod garbage collection (kube-controller-manager's `podgc`), one instance over every space:
 *
 * - orphaned pods: a pod placed on a node that no longer exists is deleted (grace period 0, its
 *   uid as precondition), nobody being left to end it; a node counts as gone after 40 s missing
 *   from the cache and a read that confirms it, so a node registered a moment ago is not taken
 *   for a gone one;
 * - terminated pods (`Succeeded` or `Failed`) above `--terminated-pod-gc-threshold` are deleted,
 *   oldest first. The threshold holds per space, as each space is its own cluster: one space's
 *   finished pods never push out another's.
 *
 * Queue keys are spaces (`{ tenant, namespace: '', name: '' }`); the pods of the space are read from
 * the shared informer. As `system:controller:pod-garbage-collector`.
 */
import type { Pod } from '../../api/kinds/core/types.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import { nodes, pods } from '../../src/client/builtin-kinds.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

/** kube-controller-manager's `--terminated-pod-gc-threshold` default. */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12500;
/** Upstream's quarantineTime. */
export const ORPHAN_QUARANTINE_MS = 40_000;
const BY_NODE = 'pod-gc-node';

export interface PodGcDeps {
  /** Acts as the pod garbage collector. */
  client: KubeClient;
  pods: Informer;
  nodes: Informer;
  terminatedPodThreshold: number;
  /** How long a node must be missing before its pods count as orphans (upstream: 40 s). */
  orphanQuarantineMs: number;
  log: { error(obj: object, msg: string): void };
}

const isTerminated = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const spaceKey = (tenant: string): ObjectKey => ({ tenant, namespace: '', name: '' });

/** The terminated pods of a space beyond the threshold, oldest first (then by name, as upstream sorts). */
export function terminatedPodsToDelete(spacePods: readonly Pod[], threshold: number): Pod[] {
  const terminated = spacePods.filter(isTerminated);
  const excess = terminated.length - threshold;
  if (threshold <= 0 || excess <= 0) return [];
  const created = (p: Pod): string => p.metadata.creationTimestamp ?? '';
  return terminated.sort((a, b) => created(a).localeCompare(created(b)) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '')).slice(0, excess);
}

/**
 * Nodes seen missing, and since when: a node is gone for the collector only after
 * ORPHAN_QUARANTINE_MS of absence and a read that finds nothing (upstream's quarantine).
 */
export class MissingNodes {
  private readonly since = new Map<string, number>();

  constructor(private readonly deps: Pick<PodGcDeps, 'client' | 'nodes' | 'orphanQuarantineMs'>) {
    // A node seen again ends its quarantine, whether or not a pod of it was looked at meanwhile:
    // else, gone a second time, it would count from its first absence and its pods go at once.
    deps.nodes.onChange((key, node) => {
      if (node) this.since.delete(key.name);
    });
  }

  /** 'present', 'gone', or how many ms of quarantine are left. */
  async check(name: string, now: number, confirmed: Map<string, boolean>): Promise<'present' | 'gone' | number> {
    if (this.deps.nodes.get({ tenant: '', namespace: '', name })) {
      this.since.delete(name);
      return 'present';
    }
    const since = this.since.get(name) ?? now;
    this.since.set(name, since);
    const left = since + this.deps.orphanQuarantineMs - now;
    if (left > 0) return left;
    let exists = confirmed.get(name);
    if (exists === undefined) {
      const found = await this.deps.client.ownSpace().resource(nodes).get(name).then(
        () => true,
        (err: unknown) => (isNotFound(err) ? false : Promise.reject(err)),
      );
      confirmed.set(name, found);
      exists = found;
    }
    if (exists) this.since.delete(name);
    return exists ? 'present' : 'gone';
  }
}

export async function reconcilePodGc(deps: PodGcDeps, missing: MissingNodes, key: ObjectKey): Promise<ReconcileResult> {
  const spacePods = deps.pods.lister<Pod>().list({ tenant: key.tenant });
  const doomed = new Map<string, Pod>();
  const confirmed = new Map<string, boolean>();
  const now = Date.now();
  let wakeInMs: number | undefined;
  for (const pod of spacePods) {
    const node = pod.spec?.nodeName;
    if (!node) continue;
    const state = await missing.check(node, now, confirmed);
    if (state === 'gone') doomed.set(pod.metadata.uid ?? '', pod);
    else if (typeof state === 'number') wakeInMs = Math.min(wakeInMs ?? Infinity, state);
  }
  for (const pod of terminatedPodsToDelete(spacePods, deps.terminatedPodThreshold)) doomed.set(pod.metadata.uid ?? '', pod);
  for (const pod of doomed.values()) {
    try {
      await deps.client.space(key.tenant).namespace(pod.metadata.namespace!).resource(pods).delete(pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      // Gone or replaced meanwhile: nothing of this pod left to collect.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
  return wakeInMs === undefined ? done : requeueAfter(wakeInMs);
}

export function podGcController(deps: PodGcDeps): Controller {
  deps.pods.addIndexers({ [BY_NODE]: (pod) => [(pod as Pod).spec?.nodeName ?? ''].filter((n) => n !== '') });
  const missing = new MissingNodes(deps);
  const controller = new Controller({ name: 'pod-garbage-collector', reconcile: (key) => reconcilePodGc(deps, missing, key), log: deps.log });
  deps.pods.onChange((key, obj) => {
    const pod = obj as Pod | undefined;
    if (!pod) return;
    const node = pod.spec?.nodeName;
    if (isTerminated(pod) || (node && !deps.nodes.get({ tenant: '', namespace: '', name: node }))) controller.enqueue(spaceKey(key.tenant));
  });
  deps.nodes.onChange((key, node) => {
    if (node) return;
    const spaces = new Set(deps.pods.lister<Pod>().byIndex(BY_NODE, key.name).map((p) => p.metadata.tenant ?? ''));
    for (const tenant of spaces) controller.enqueue(spaceKey(tenant));
  });
  return controller;
}
