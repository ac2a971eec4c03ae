import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flowSchemas, priorityLevelConfigurations } from '../../api/kinds/flowcontrol/index.js';
import { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { AUTOUPDATE_ANNOTATION } from '../server/flowcontrol/bootstrap-configuration.js';
import { ensureFlowControlDefaults } from './ensure-flow-control-defaults.js';

describe('ensureFlowControlDefaults', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  const kinds = { flowSchemas, priorityLevels: priorityLevelConfigurations };
  const at = (name: string) => ({ tenant: '', name });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-defaults-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes kube-apiserver\'s mandatory and suggested objects, then writes nothing more', async () => {
    await ensureFlowControlDefaults(generic, kinds);
    const schemas = (await generic.list(flowSchemas, { tenant: '' })).items.map((o) => o.metadata.name);
    const levels = (await generic.list(priorityLevelConfigurations, { tenant: '' })).items.map((o) => o.metadata.name);
    expect(schemas.sort()).toEqual(['catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election']);
    expect(levels.sort()).toEqual(['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    const revision = await store.currentRevision();
    await ensureFlowControlDefaults(generic, kinds);
    expect(await store.currentRevision()).toBe(revision);
  });

  it('sets a changed suggested object back unless its autoupdate-spec is false; mandatory ones always', async () => {
    const shrink = (annotate: boolean) => (obj: KubeObject) => {
      (obj.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 1;
      if (annotate) obj.metadata.annotations = { ...obj.metadata.annotations, [AUTOUPDATE_ANNOTATION]: 'false' };
      return obj;
    };
    await generic.mutate(priorityLevelConfigurations, at('global-default'), shrink(false));
    await generic.mutate(priorityLevelConfigurations, at('workload-low'), shrink(true));
    await generic.mutate(priorityLevelConfigurations, at('catch-all'), shrink(true));
    await ensureFlowControlDefaults(generic, kinds);
    const shares = async (name: string) => ((await generic.get(priorityLevelConfigurations, at(name))).spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares;
    expect(await shares('global-default')).toBe(20);
    expect(await shares('workload-low')).toBe(1);
    expect(await shares('catch-all')).toBe(5);
  });
});
