/**
 * ResourceQuota admission, as kube-apiserver's plugin: a write that adds to what a namespace's
 * quotas limit is charged to each quota's `status.used` before the object is written, and refused
 * (403, kube's `exceeded quota: …` wording) when it would pass a hard limit.
 *
 * Exact under concurrency: a charge is a compare-and-swap of the quota on its storage revision
 * (the quota's resourceVersion is the arbiter, so several servers over one etcd never overcharge:
 * the loser of a race re-reads the quota and checks again). Within one server the charges of a
 * namespace are serialized, so concurrent creates queue instead of conflicting. If the write then
 * fails, the charge is given back (kube leaves that to the quota controller's next resync).
 * Dry runs check without charging. Quotas are enforced once the quota controller has filled in
 * `status.hard` and `status.used`, as in Kubernetes.
 */
import { keyPrefix } from '../../storage/keys.js';
import type { KeyValue, Store } from '../../storage/store.js';
import type { ResourceQuota } from '../kinds/core/types.js';
import { evaluatorFor, isQuotaIgnored } from '../quota/evaluators.js';
import { QuotaRefusal, quotaCharge, type QuotaRequest } from '../quota/check-request.js';
import { KeyedMutex } from '../quota/keyed-mutex.js';
import { toResourceList, type Usage } from '../quota/resource-usage.js';
import { readUsageRecord, releaseUsage, writeUsageRecord } from '../quota/usage-record.js';
import { admissionForbidden, conflict } from '../registry/api-errors.js';
import type { AdmissionPlugin, Undo } from '../registry/generic-store.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

/** Conflicts on one quota before giving up (another server charging the same quota at the same moment). */
const CHARGE_ATTEMPTS = 10;

export interface ResourceQuotaAdmissionDeps {
  store: Store;
  /** The ResourceQuota kind, for its storage keys. */
  quotaDef: ResourceDefinition;
  /** Whether the namespace has a quota at all, from the server's informer (a cheap skip for the rest). */
  hasQuotas(tenant: string, namespace: string): boolean;
}

interface Charge {
  key: string;
  added: Usage;
}

export function resourceQuotaAdmission(deps: ResourceQuotaAdmissionDeps): AdmissionPlugin {
  const { store, quotaDef } = deps;
  const mutex = new KeyedMutex();

  async function release(charges: Charge[]): Promise<void> {
    for (const { key, added } of charges) await releaseUsage(store, key, added);
  }

  /** Checks every quota of the namespace and charges those concerned, one compare-and-swap each. */
  async function charge(def: ResourceDefinition, req: QuotaRequest, prefix: string, dryRun: boolean): Promise<Charge[]> {
    const charges: Charge[] = [];
    try {
      const { items } = await store.list(prefix);
      for (const first of items) {
        let kv: KeyValue | null = first;
        for (let attempt = 1; kv; attempt += 1) {
          const quota = readUsageRecord<ResourceQuota>(kv);
          const result = quotaCharge(quota, req);
          if (!result || dryRun) break;
          quota.status = { ...quota.status, used: toResourceList(result.used) };
          if (await writeUsageRecord(store, kv, quota)) {
            charges.push({ key: kv.key, added: result.added });
            break;
          }
          if (attempt >= CHARGE_ATTEMPTS) throw conflict(quotaDef, quota.metadata.name ?? '');
          ({ kv } = await store.get(kv.key));
        }
      }
    } catch (err) {
      await release(charges);
      if (err instanceof QuotaRefusal) throw admissionForbidden(def, req.object, err.message);
      throw err;
    }
    return charges;
  }

  return {
    async admit({ operation, def, tenant, namespace, object, old, dryRun, subresource }): Promise<Undo | void> {
      if (operation === 'delete' || subresource !== undefined || def.scope !== 'namespace' || namespace === undefined) return;
      if (isQuotaIgnored(def.group, def.resource)) return;
      const evaluator = evaluatorFor(def.group, def.resource);
      if (!evaluator.handles(operation) || !deps.hasQuotas(tenant, namespace)) return;
      const req: QuotaRequest = { operation, evaluator, object, old, now: Date.now() };
      const prefix = keyPrefix(quotaDef, { tenant, namespace });
      const charges = await mutex.run(prefix, () => charge(def, req, prefix, dryRun ?? false));
      if (charges.length > 0) return () => mutex.run(prefix, () => release(charges));
    },
  };
}
