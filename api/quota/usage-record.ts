/**
 * The stored object that holds a quota's usage (a ResourceQuota, or a Tenant for its space's
 * limits), written by compare-and-swap on its storage revision: the revision is the arbiter, so
 * several servers over one store never both charge the last unit (the loser re-reads and checks
 * again).
 *
 * @example
 *   holder.status = { ...holder.status, used: toResourceList(next) };
 *   if (!(await writeUsageRecord(store, kv, holder))) retry();
 */
import { isStorageError } from '../../storage/errors.js';
import type { KeyValue, Store } from '../../storage/store.js';
import type { ResourceList } from '../kinds/core/types.js';
import type { KubeObject } from '../registry/object.js';
import { addUsage, subtractNonNegative, toResourceList, toUsage, type Usage } from './resource-usage.js';

/** An object whose status holds limits and usage (`status.hard`, `status.used`). */
export interface UsageRecord extends KubeObject {
  status?: { hard?: ResourceList; used?: ResourceList };
}

export function readUsageRecord<T extends UsageRecord>(kv: KeyValue): T {
  return JSON.parse(kv.value) as T;
}

/** Writes `record` over the stored one if that is still at `kv`'s revision; false on a lost race (or a record gone). */
export async function writeUsageRecord(store: Store, kv: KeyValue, record: UsageRecord): Promise<boolean> {
  try {
    await store.update(kv.key, JSON.stringify(record), kv.modRevision);
    return true;
  } catch (err) {
    if (isStorageError(err, 'Conflict') || isStorageError(err, 'NotFound')) return false;
    throw err;
  }
}

/**
 * Gives back `amount` from the usage stored at `key`, for the resources it still tracks and never
 * below zero (a recount may have happened meanwhile).
 */
export function releaseUsage(store: Store, key: string, amount: Usage): Promise<void> {
  return adjustUsage(store, key, amount, subtractNonNegative);
}

/** Takes `amount` back without checking limits: the undo of a release made for a write that then failed. */
export function retakeUsage(store: Store, key: string, amount: Usage): Promise<void> {
  return adjustUsage(store, key, amount, addUsage);
}

async function adjustUsage(store: Store, key: string, amount: Usage, apply: (used: Usage, amount: Usage) => Usage): Promise<void> {
  for (;;) {
    const { kv } = await store.get(key);
    if (!kv) return;
    const record = readUsageRecord(kv);
    const before = toUsage(record.status?.used);
    const tracked: Usage = new Map([...amount].filter(([name]) => before.has(name)));
    if (tracked.size === 0) return;
    const used = apply(before, tracked);
    record.status = { ...record.status, used: toResourceList(used) };
    if (await writeUsageRecord(store, kv, record)) return;
  }
}
