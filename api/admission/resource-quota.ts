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
import { isStorageError } from '../../storage/errors.js';
import { keyPrefix } from '../../storage/keys.js';
import type { KeyValue, Store } from '../../storage/store.js';
import type { ResourceQuota } from '../kinds/core/types.js';
import { evaluatorFor } from '../quota/evaluators.js';
import { QuotaRefusal, quotaCharge, type QuotaRequest } from '../quota/check-request.js';
import { subtractUsage, toResourceList, toUsage, type Usage } from '../quota/resource-usage.js';
import { admissionForbidden, conflict } from '../registry/api-errors.js';
import type { AdmissionPlugin, Undo } from '../registry/generic-store.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

/** Conflicts on one quota before giving up (another server charging the same quota at the same moment). */
const CHARGE_ATTEMPTS = 10;
/** Never charged, as kube-apiserver's default configuration ignores them. */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

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

/** Runs `work` after every earlier call for the same key has finished: one charge at a time per namespace. */
class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

function readQuota(kv: KeyValue): ResourceQuota {
  return JSON.parse(kv.value) as ResourceQuota;
}

export function resourceQuotaAdmission(deps: ResourceQuotaAdmissionDeps): AdmissionPlugin {
  const { store, quotaDef } = deps;
  const mutex = new KeyedMutex();

  /** Writes `used` into the stored quota if it is still at `kv`'s revision; false on a lost race. */
  async function writeUsed(kv: KeyValue, quota: ResourceQuota, used: Usage): Promise<boolean> {
    quota.status = { ...quota.status, used: toResourceList(used) };
    try {
      await store.update(kv.key, JSON.stringify(quota), kv.modRevision);
      return true;
    } catch (err) {
      if (isStorageError(err, 'Conflict') || isStorageError(err, 'NotFound')) return false;
      throw err;
    }
  }

  /** Gives back what a charge added (never below zero: the controller may have recalculated meanwhile). */
  async function release(charges: Charge[]): Promise<void> {
    for (const { key, added } of charges) {
      for (;;) {
        const { kv } = await store.get(key);
        if (!kv) break;
        const quota = readQuota(kv);
        const used = subtractUsage(toUsage(quota.status?.used), added);
        for (const [name, q] of used) if (q.nanos < 0n) used.set(name, { ...q, nanos: 0n });
        if (await writeUsed(kv, quota, used)) break;
      }
    }
  }

  /** Checks every quota of the namespace and charges those concerned, one compare-and-swap each. */
  async function charge(def: ResourceDefinition, req: QuotaRequest, prefix: string, dryRun: boolean): Promise<Charge[]> {
    const charges: Charge[] = [];
    try {
      const { items } = await store.list(prefix);
      for (const first of items) {
        let kv: KeyValue | null = first;
        for (let attempt = 1; kv; attempt += 1) {
          const quota = readQuota(kv);
          const result = quotaCharge(quota, req);
          if (!result || dryRun) break;
          if (await writeUsed(kv, quota, result.used)) {
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
      if (IGNORED.has(`${def.group}/${def.resource}`)) return;
      const evaluator = evaluatorFor(def.group, def.resource);
      if (!evaluator.handles(operation) || !deps.hasQuotas(tenant, namespace)) return;
      const req: QuotaRequest = { operation, evaluator, object, old, now: Date.now() };
      const prefix = keyPrefix(quotaDef, { tenant, namespace });
      const charges = await mutex.run(prefix, () => charge(def, req, prefix, dryRun ?? false));
      if (charges.length > 0) return () => mutex.run(prefix, () => release(charges));
    },
  };
}
