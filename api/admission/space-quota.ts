/**
 * Space quotas: a Tenant's `spec.hard` limits what its space holds (`count/configmaps`,
 * `count/deployments.apps`, `count/namespaces`, `count/*` for every object together,
 * `storage/bytes` for the bytes they take in storage), enforced
 * inside the write path as ResourceQuota is, with its evaluators, arithmetic and wording
 * (`exceeded quota: <tenant>, requested: …, used: …, limited: …`, 403).
 *
 * The Tenant object is the usage record: a create is charged to its `status.used` by a
 * compare-and-swap on the Tenant's storage revision before the object is written, so several
 * servers over one etcd never both take the last unit, and within one server the charges of a
 * space are serialized (concurrent creates queue instead of conflicting). A write that then fails
 * gives its charge back; a delete (by a client, the namespace or tenant controller, the garbage
 * collector, a finalizer or grace period ending) gives back what the object held once it is gone.
 *
 * `status.hard` says which limits `status.used` was counted for. When it differs from `spec.hard`
 * (limits added, changed or removed, a tenant created with limits, a status cleared by hand) the
 * space is counted from storage: by `recount`, which the server calls when its tenant informer sees
 * such a tenant (at start too), and synchronously by the first charge that finds it uncounted, so
 * no write waits for a controller. A count is written by the same compare-and-swap, so a charge
 * made meanwhile makes it count again.
 *
 * @example
 *   const spaceQuota = new SpaceQuotaAdmission({ store, tenantDef, spaceKinds, hasLimits });
 *   new GenericStore(store, [...plugins, spaceQuota]);
 *   tenants.onChange((key) => void spaceQuota.recount(key.name));
 */
import { keyPrefix, objectKey } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import type { Tenant } from '../kinds/core/tenant.js';
import type { ResourceQuota } from '../kinds/core/types.js';
import { QuotaRefusal, quotaCharge, quotaUsage, type QuotaRequest } from '../quota/check-request.js';
import { isQuotaIgnored, spaceEvaluatorFor, STORED_BYTES, storedBytesEvaluator, type QuotaEvaluator } from '../quota/evaluators.js';
import { KeyedMutex } from '../quota/keyed-mutex.js';
import { addUsage, count, toResourceList, toUsage, usageEquals, type Usage } from '../quota/resource-usage.js';
import { readUsageRecord, releaseUsage, retakeUsage, writeUsageRecord } from '../quota/usage-record.js';
import { admissionForbidden, conflict } from '../registry/api-errors.js';
import { storedForm, type AdmissionAttributes, type AdmissionPlugin, type Undo } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import type { Quantity } from '../validation/quantity.js';

/** Conflicts on one Tenant before giving up (other servers charging the same space at the same moment). */
const CHARGE_ATTEMPTS = 10;

export interface SpaceQuotaDeps {
  store: Store;
  /** The Tenant kind, for its storage key. */
  tenantDef: ResourceDefinition;
  /** The kinds stored in a space (built-in and custom), for counting it. */
  spaceKinds(tenant: string): readonly ResourceDefinition[];
  /** Whether the tenant has limits, or usage to clear, from the server's informer (a cheap skip for the rest). */
  hasLimits(tenant: string): boolean;
  /** Whether those limits include `storage/bytes` (every write of the space is then charged or credited). */
  limitsBytes(tenant: string): boolean;
}

/** The bytes an object takes in storage: the length of what the store writes for it. */
function storedBytes(def: ResourceDefinition, obj: KubeObject): number {
  return Buffer.byteLength(storedForm(def, obj));
}

/** Whether the tenant has limits, or usage of former limits to clear. */
export function hasSpaceLimits(tenant: Tenant | undefined): boolean {
  return Object.keys(tenant?.spec?.hard ?? {}).length > 0 || Object.keys(tenant?.status?.hard ?? {}).length > 0;
}

/** Whether the tenant limits its stored bytes, or has such usage to clear. */
export function limitsSpaceBytes(tenant: Tenant | undefined): boolean {
  return tenant?.spec?.hard?.[STORED_BYTES] !== undefined || tenant?.status?.hard?.[STORED_BYTES] !== undefined;
}

/** Whether `status.used` was counted for the limits `spec.hard` sets now. */
export function isCounted(tenant: Tenant): boolean {
  const hard = toUsage(tenant.spec?.hard);
  const used = tenant.status?.used ?? {};
  return usageEquals(hard, toUsage(tenant.status?.hard)) && [...hard.keys()].every((name) => Object.hasOwn(used, name));
}

/** The Tenant's limits in the shape ResourceQuota's check reads (the quota is named after the tenant). */
function asQuota(tenant: Tenant): ResourceQuota {
  return { metadata: { name: tenant.metadata.name }, status: { hard: tenant.status?.hard, used: tenant.status?.used } };
}

export class SpaceQuotaAdmission implements AdmissionPlugin {
  private readonly mutex = new KeyedMutex();

  constructor(private readonly deps: SpaceQuotaDeps) {}

  async admit({ operation, def, tenant, namespace, object, old, dryRun, subresource }: AdmissionAttributes): Promise<Undo | void> {
    // Tenants themselves are above the spaces.
    if (operation === 'delete' || def.scope === 'cluster' || isQuotaIgnored(def.group, def.resource) || !this.deps.hasLimits(tenant)) return;
    const now = Date.now();
    const requests: QuotaRequest[] = [];
    // Object counts change on create only.
    if (operation === 'create' && subresource === undefined) {
      // A create of a name already taken will fail: charging it would hold a unit until it does, and
      // controllers create-if-absent all the time, so a space at its limit would refuse real creates.
      const name = object.metadata.name ?? '';
      const location = def.scope === 'space' ? { tenant, name } : { tenant, namespace, name };
      if ((await this.deps.store.get(objectKey(def.storage, location))).kv) return;
      requests.push({ operation, evaluator: spaceEvaluatorFor(def.group, def.resource), object, old: undefined, now });
    }
    // Bytes change with every write, status and metadata included: what it adds, or (negative) frees.
    const grown = this.deps.limitsBytes(tenant) ? storedBytes(def, object) - (old ? storedBytes(def, old) : 0) : 0;
    if (grown > 0) requests.push({ operation: 'create', evaluator: storedBytesEvaluator(grown), object, old: undefined, now });
    const key = this.tenantKey(tenant);
    let added: Usage | undefined;
    try {
      if (requests.length > 0) added = await this.mutex.run(tenant, () => this.charge(tenant, requests, dryRun ?? false));
    } catch (err) {
      if (err instanceof QuotaRefusal) throw admissionForbidden(def, object, err.message);
      throw err;
    }
    const undos: Undo[] = [];
    if (added) undos.push(() => this.mutex.run(tenant, () => releaseUsage(this.deps.store, key, added)));
    if (grown < 0 && !dryRun) {
      const freed: Usage = new Map([[STORED_BYTES, count(-grown)]]);
      await this.mutex.run(tenant, () => releaseUsage(this.deps.store, key, freed));
      undos.push(() => this.mutex.run(tenant, () => retakeUsage(this.deps.store, key, freed)));
    }
    if (undos.length > 0) return async () => void (await Promise.all(undos.map((undo) => undo())));
  }

  async deleted(def: ResourceDefinition, obj: KubeObject): Promise<void> {
    const tenant = obj.metadata.tenant;
    if (def.scope === 'cluster' || tenant === undefined || isQuotaIgnored(def.group, def.resource) || !this.deps.hasLimits(tenant)) return;
    const held = spaceEvaluatorFor(def.group, def.resource).usage(obj, Date.now());
    if (this.deps.limitsBytes(tenant)) held.set(STORED_BYTES, count(storedBytes(def, obj)));
    await this.mutex.run(tenant, () => releaseUsage(this.deps.store, this.tenantKey(tenant), held));
  }

  /** Counts the space again if its usage was not counted for its current limits; nothing otherwise. */
  async recount(tenant: string): Promise<void> {
    await this.mutex.run(tenant, async () => {
      for (let attempt = 1; attempt <= CHARGE_ATTEMPTS; attempt += 1) {
        const { kv } = await this.deps.store.get(this.tenantKey(tenant));
        if (!kv) return;
        const record = readUsageRecord<Tenant>(kv);
        if (isCounted(record)) return;
        if (await writeUsageRecord(this.deps.store, kv, await this.withCountedStatus(record))) return;
      }
    });
  }

  private tenantKey(tenant: string): string {
    return objectKey(this.deps.tenantDef.storage, { name: tenant });
  }

  /** Checks the requests against the space's limits and charges them at once; what was added, if anything. Throws QuotaRefusal. */
  private async charge(tenant: string, requests: QuotaRequest[], dryRun: boolean): Promise<Usage | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const { kv } = await this.deps.store.get(this.tenantKey(tenant));
      // No Tenant: the tenant lifecycle plugin has already refused any write into the space.
      if (!kv) return undefined;
      const stored = readUsageRecord<Tenant>(kv);
      const record = isCounted(stored) ? stored : await this.withCountedStatus(stored);
      let added: Usage | undefined;
      for (const req of requests) {
        const result = quotaCharge(asQuota(record), req);
        if (!result) continue;
        record.status = { ...record.status, used: toResourceList(result.used) };
        added = addUsage(added ?? new Map(), result.added);
      }
      if (dryRun || (!added && record === stored)) return undefined;
      if (await writeUsageRecord(this.deps.store, kv, record)) return added;
      if (attempt >= CHARGE_ATTEMPTS) throw conflict(this.deps.tenantDef, tenant);
    }
  }

  /** The Tenant with `status.hard` set to its limits and `status.used` counted from storage (both gone without limits). */
  private async withCountedStatus(tenant: Tenant): Promise<Tenant> {
    const { hard: _hard, used: _used, ...rest } = tenant.status ?? {};
    const hard = tenant.spec?.hard ?? {};
    if (Object.keys(hard).length === 0) return { ...tenant, status: rest };
    const used = await this.countSpace(tenant, Object.keys(hard));
    return { ...tenant, status: { ...rest, hard, used: toResourceList(used) } };
  }

  /** What the space's stored objects use of the limits named `hard`: every kind's objects, listed from storage. */
  private async countSpace(tenant: Tenant, hard: string[]): Promise<Usage> {
    const name = tenant.metadata.name!;
    const measured: Array<{ evaluator: QuotaEvaluator; objects: KubeObject[] }> = [];
    // Several versions (and views) of a kind share its storage: each stored object is counted once.
    const listed = new Set<string>();
    const bytes = hard.includes(STORED_BYTES);
    let storedTotal = 0;
    for (const def of this.deps.spaceKinds(name)) {
      if (def.scope === 'cluster' || isQuotaIgnored(def.group, def.resource)) continue;
      const evaluator = spaceEvaluatorFor(def.group, def.resource);
      const prefix = keyPrefix(def.storage, { tenant: name });
      if ((!bytes && evaluator.matchingResources(hard).length === 0) || listed.has(prefix)) continue;
      listed.add(prefix);
      const { items } = await this.deps.store.list(prefix);
      measured.push({ evaluator, objects: items.map((kv) => JSON.parse(kv.value) as KubeObject) });
      for (const kv of items) storedTotal += Buffer.byteLength(kv.value);
    }
    const counted = quotaUsage(asQuota({ ...tenant, status: { hard: tenant.spec?.hard } }), hard, measured, Date.now());
    if (bytes) counted.set(STORED_BYTES, count(storedTotal));
    // A limit on a kind the space does not serve (yet) is counted as zero, so the space counts as counted.
    return new Map([...hard.map((n): [string, Quantity] => [n, count(0)]), ...counted]);
  }
}
