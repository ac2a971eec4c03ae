import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { objectKey } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { pods } from '../kinds/core/pod.js';
import { resourceQuotas } from '../kinds/core/resource-quota.js';
import type { ResourceQuota } from '../kinds/core/types.js';
import type { AdmissionAttributes, Undo } from '../registry/generic-store.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { ApiError } from '../status.js';
import { resourceQuotaAdmission } from './resource-quota.js';

const quotaDef = resourceQuotas as ResourceDefinition;
const podDef = pods as ResourceDefinition;
const quotaKey = objectKey(quotaDef, { tenant: 't1', namespace: 'ns', name: 'q' });
const create = (name: string, dryRun = false): AdmissionAttributes => ({
  operation: 'create',
  def: podDef,
  tenant: 't1',
  namespace: 'ns',
  object: { metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  old: undefined,
  user: undefined,
  dryRun,
});

describe('ResourceQuota admission over one store', () => {
  let dir: string;
  let store: Store;

  const used = async (): Promise<Record<string, string> | undefined> => (JSON.parse((await store.get(quotaKey)).kv!.value) as ResourceQuota).status?.used as Record<string, string>;
  /** A server's plugin: each has its own per-namespace serialization, as separate replicas do. */
  const replica = () => resourceQuotaAdmission({ store, quotaDef, hasQuotas: () => true });
  const outcome = async (run: () => Promise<Undo | void> | Undo | void): Promise<'admitted' | string> => {
    try {
      await run();
      return 'admitted';
    } catch (err) {
      if (err instanceof ApiError) return err.message;
      throw err;
    }
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quota-admission-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    const quota: ResourceQuota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'ns', tenant: 't1' }, spec: { hard: { pods: '10' } }, status: { hard: { pods: '10' }, used: { pods: '0' } } };
    await store.create(quotaKey, JSON.stringify(quota));
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('admits exactly the limit when two servers charge one quota concurrently', async () => {
    const [a, b] = [replica(), replica()];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => outcome(() => (i % 2 === 0 ? a : b).admit(create(`p${i}`)))));
    expect(results.filter((r) => r === 'admitted')).toHaveLength(10);
    expect(new Set(results.filter((r) => r !== 'admitted').map((r) => r.replace(/"p\d+"/, '"p"')))).toEqual(
      new Set(['pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10']),
    );
    expect(await used()).toEqual({ pods: '10' });
  });

  it('gives a charge back when the write does not happen, and charges nothing for a dry run', async () => {
    const plugin = replica();
    expect(await outcome(() => plugin.admit(create('dry', true)))).toBe('admitted');
    expect(await used()).toEqual({ pods: '0' });
    const undo = (await plugin.admit(create('p1'))) as Undo;
    expect(await used()).toEqual({ pods: '1' });
    await undo();
    expect(await used()).toEqual({ pods: '0' });
  });
});
