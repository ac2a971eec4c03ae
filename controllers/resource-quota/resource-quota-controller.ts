/**
 * The resource quota controller, as kube-controller-manager's: one instance over every space keeps
 * each ResourceQuota's `status.hard` (its spec's) and `status.used` (what its namespace's objects
 * in its scopes use) right. Admission charges writes as they happen; this controller recalculates
 * from scratch when a quota is created or its limits change, when an object it counts is deleted
 * (or a pod ends, or an update lowers a usage), and on a periodic resync — the only way usage goes
 * down. Usage is counted from live lists (never a cache that may lag behind the charges), every
 * list within the quota's own space and namespace, and written with the quota's resourceVersion as
 * a precondition, so a charge made meanwhile by admission is never overwritten: the write
 * conflicts and the recalculation runs again. A lower usage is written only once a recount a
 * moment later confirms it with the quota unchanged (see `reconcileQuota`). A client of the API, as
 * `system:controller:resourcequota-controller`.
 */
import { resourceQuotas } from '../../api/kinds/core/resource-quota.js';
import type { ResourceQuota } from '../../api/kinds/core/types.js';
import { evaluatorFor, objectCountName, type QuotaEvaluator } from '../../api/quota/evaluators.js';
import { quotaUsage } from '../../api/quota/check-request.js';
import { toResourceList, toUsage, usageEquals } from '../../api/quota/resource-usage.js';
import type { KubeObject } from '../../api/registry/object.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient, Scope } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

/** kube-controller-manager's `--resource-quota-sync-period` default. */
export const QUOTA_RESYNC_MS = 5 * 60_000;
/**
 * How long a lowered usage must stay unconfirmed-by-charges before it is written: longer than a
 * write takes from its charge to its commit, so a create charged before the count is in the recount.
 */
export const LOWERING_SETTLE_MS = 1_000;

/** An informer of objects a quota counts, with the resource it lists. */
export interface CountedInformer {
  group: string;
  resource: string;
  informer: Informer;
}

export interface ResourceQuotaControllerDeps {
  /** Acts as the resource quota controller. */
  client: KubeClient;
  quotas: Informer;
  /** Kinds whose deletions (and usage-lowering updates) release quota at once; others wait for the resync. */
  counted: CountedInformer[];
  log: { error(obj: object, msg: string): void };
  resyncMs?: number;
}

/** Core resources whose object count has a bare name too, counted without an evaluator of their own. */
const LEGACY_COUNTED = ['configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas'];

/** The group and resource of each object count a quota limits (`count/deployments.apps` → apps, deployments). */
function countedResources(hard: string[]): Array<{ group: string; resource: string }> {
  const found = new Map<string, { group: string; resource: string }>();
  for (const name of hard) {
    let group = '';
    let resource = '';
    if (name.startsWith('count/')) {
      const rest = name.slice('count/'.length);
      const dot = rest.indexOf('.');
      resource = dot < 0 ? rest : rest.slice(0, dot);
      group = dot < 0 ? '' : rest.slice(dot + 1);
    } else if (LEGACY_COUNTED.includes(name)) {
      resource = name;
    } else {
      continue;
    }
    found.set(objectCountName(group, resource), { group, resource });
  }
  return [...found.values()];
}

/** Lists what the quota's namespace holds of each resource the quota limits, each with its evaluator. */
async function measure(namespace: Scope, space: Scope, hard: string[]): Promise<Array<{ evaluator: QuotaEvaluator; objects: KubeObject[] }>> {
  const wanted = new Map<string, { group: string; resource: string }>();
  for (const resource of ['pods', 'services', 'persistentvolumeclaims']) {
    if (evaluatorFor('', resource).matchingResources(hard).length > 0) wanted.set(`/${resource}`, { group: '', resource });
  }
  for (const r of countedResources(hard)) wanted.set(`${r.group}/${r.resource}`, r);
  const needsDiscovery = [...wanted.values()].some((r) => r.group !== '');
  const served = needsDiscovery ? await space.preferredResources() : [];
  const measured: Array<{ evaluator: QuotaEvaluator; objects: KubeObject[] }> = [];
  for (const { group, resource } of wanted.values()) {
    const evaluator = evaluatorFor(group, resource);
    const version = group === '' ? 'v1' : served.find((s) => s.group === group && s.resource === resource && s.namespaced)?.version;
    // A resource the space does not serve (a CRD not installed yet) has no objects.
    const objects = version ? (await namespace.resource({ group, version, resource }).list()).items : [];
    measured.push({ evaluator, objects });
  }
  return measured;
}

/**
 * Recalculates one quota's status from its namespace's objects and writes it if it changed.
 * A count that lowers usage may have missed a create charged just before it whose object was not
 * yet written: such a result is written only by a recount `LOWERING_SETTLE_MS` later that finds
 * the quota unchanged, i.e. charged by nobody in between (`lowering` remembers the
 * resourceVersion each pending lowering was counted at).
 */
export async function reconcileQuota(deps: ResourceQuotaControllerDeps, key: ObjectKey, lowering = new Map<string, string>()): Promise<ReconcileResult> {
  const cached = deps.quotas.get(key);
  if (!cached || cached.metadata.deletionTimestamp) return done;
  const space = deps.client.space(key.tenant);
  const namespace = space.namespace(key.namespace);
  const quotas = namespace.resource(resourceQuotas);
  try {
    const quota = (await quotas.get(key.name)) as ResourceQuota;
    const hardList = quota.spec?.hard ?? {};
    const hard = Object.keys(hardList);
    const used = quotaUsage(quota, hard, await measure(namespace, space, hard), Date.now());
    const sameHard = usageEquals(toUsage(quota.status?.hard), toUsage(hardList));
    const stored = toUsage(quota.status?.used);
    if (sameHard && usageEquals(stored, used)) return done;
    const id = `${key.tenant}/${key.namespace}/${key.name}`;
    const lowers = [...stored].some(([name, q]) => used.has(name) && used.get(name)!.nanos < q.nanos);
    if (lowers && lowering.get(id) !== quota.metadata.resourceVersion) {
      lowering.set(id, quota.metadata.resourceVersion ?? '');
      return requeueAfter(LOWERING_SETTLE_MS);
    }
    lowering.delete(id);
    quota.status = { hard: toResourceList(toUsage(hardList)), used: toResourceList(used) };
    await quotas.updateStatus(quota);
    return done;
  } catch (err) {
    if (isNotFound(err)) return done;
    // Admission charged the quota meanwhile: count again.
    if (isConflict(err)) return requeue;
    throw err;
  }
}

function hardChanged(obj: KubeObject, previous: KubeObject | undefined): boolean {
  const quota = obj as ResourceQuota;
  if (!previous || obj === previous) return true;
  const specHard = toUsage(quota.spec?.hard);
  return !usageEquals(specHard, toUsage((previous as ResourceQuota).spec?.hard)) || !usageEquals(specHard, toUsage(quota.status?.hard));
}

export function resourceQuotaController(deps: ResourceQuotaControllerDeps): Controller {
  const lowering = new Map<string, string>();
  const controller = new Controller({ name: 'resourcequota', reconcile: (key) => reconcileQuota(deps, key, lowering), workers: 2, log: deps.log });
  // Status writes (ours and admission's) change no limit: only a new quota, a new limit or the resync recalculates.
  deps.quotas.onChange(
    (key, obj, previous) => {
      if (obj && hardChanged(obj, previous)) controller.enqueue(key);
    },
    { resyncMs: deps.resyncMs ?? QUOTA_RESYNC_MS },
  );
  const enqueueNamespace = (tenant: string, namespace: string): void => {
    for (const quota of deps.quotas.lister().list({ tenant, namespace })) controller.enqueue({ tenant, namespace, name: quota.metadata.name ?? '' });
  };
  for (const { group, resource, informer } of deps.counted) {
    const evaluator = evaluatorFor(group, resource);
    informer.onChange((key, obj, previous) => {
      if (!previous || obj === previous) return;
      // Gone, or using less than before (a pod that ended, a LoadBalancer turned ClusterIP): release.
      const now = Date.now();
      const after = obj ? evaluator.usage(obj, now) : new Map();
      const lowered = [...evaluator.usage(previous, now)].some(([name, q]) => (after.get(name)?.nanos ?? 0n) < q.nanos);
      if (lowered) enqueueNamespace(key.tenant, key.namespace);
    });
  }
  return controller;
}
