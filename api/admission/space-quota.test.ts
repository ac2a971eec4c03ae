import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { objectKey } from '../../storage/keys.js';
import type { Store } from '../../storage/store.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import { configMaps } from '../kinds/core/config-map.js';
import { namespaces } from '../kinds/core/namespace.js';
import { tenants, type Tenant } from '../kinds/core/tenant.js';
import { storedForm, type AdmissionAttributes, type Undo } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';
import { ApiError } from '../status.js';
import { SpaceQuotaAdmission, isCounted } from './space-quota.js';

const tenantDef = tenants as ResourceDefinition;
const configMapDef = configMaps as ResourceDefinition;
const namespaceDef = namespaces as ResourceDefinition;
const tenantKey = objectKey(tenantDef, { name: 't1' });
const createConfigMap = (name: string, dryRun = false): AdmissionAttributes => ({
  operation: 'create',
  def: configMapDef,
  tenant: 't1',
  namespace: 'ns',
  object: { metadata: { name, namespace: 'ns', tenant: 't1' } },
  old: undefined,
  user: undefined,
  dryRun,
});

describe('space quota admission over one store', () => {
  let dir: string;
  let store: Store;

  const readTenant = async (): Promise<Tenant> => JSON.parse((await store.get(tenantKey)).kv!.value) as Tenant;
  const writeTenant = async (change: (t: Tenant) => void): Promise<void> => {
    const { kv } = await store.get(tenantKey);
    const tenant = JSON.parse(kv!.value) as Tenant;
    change(tenant);
    await store.update(tenantKey, JSON.stringify(tenant), kv!.modRevision);
  };
  /** A server's plugin: each has its own per-space serialization, as separate replicas do. */
  const replica = () => new SpaceQuotaAdmission({ store, tenantDef, spaceKinds: () => [namespaceDef, configMapDef], hasLimits: () => true, limitsBytes: () => false });
  const storeConfigMap = (name: string) => store.create(objectKey(configMapDef, { tenant: 't1', namespace: 'ns', name }), JSON.stringify({ metadata: { name, namespace: 'ns', tenant: 't1' } }));
  const outcome = async (run: () => Promise<Undo | void> | Undo | void): Promise<'admitted' | string> => {
    try {
      await run();
      return 'admitted';
    } catch (err) {
      if (err instanceof ApiError) return `${err.code} ${err.message}`;
      throw err;
    }
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'space-quota-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    const tenant: Tenant = { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' }, spec: { hard: { 'count/configmaps': '3', 'count/*': '10' } }, status: { phase: 'Active' } };
    await store.create(tenantKey, JSON.stringify(tenant));
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('counts existing objects before the first charge, then admits exactly the limit across two servers', async () => {
    await storeConfigMap('old');
    const [a, b] = [replica(), replica()];
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => outcome(() => (i % 2 ? a : b).admit(createConfigMap(`cm${i}`)))));
    expect(results.filter((r) => r === 'admitted')).toHaveLength(2);
    for (const refusal of results.filter((r) => r !== 'admitted')) {
      expect(refusal).toMatch(/^403 configmaps "cm\d" is forbidden: exceeded quota: t1, requested: count\/configmaps=1, used: count\/configmaps=3, limited: count\/configmaps=3$/);
    }
    const tenant = await readTenant();
    expect(tenant.status).toEqual({ phase: 'Active', hard: { 'count/configmaps': '3', 'count/*': '10' }, used: { 'count/configmaps': '3', 'count/*': '3' } });
  });

  it('gives back what a failed write or a delete held, and charges nothing on a dry run or for a name already taken', async () => {
    const plugin = replica();
    await storeConfigMap('taken');
    await plugin.recount('t1');
    await plugin.admit(createConfigMap('taken'));
    expect((await readTenant()).status?.used).toEqual({ 'count/configmaps': '1', 'count/*': '1' });
    await store.delete(objectKey(configMapDef, { tenant: 't1', namespace: 'ns', name: 'taken' }));
    await plugin.deleted(configMapDef, { metadata: { name: 'taken', namespace: 'ns', tenant: 't1' } });
    const undo = await plugin.admit(createConfigMap('a'));
    await plugin.admit(createConfigMap('b', true));
    expect((await readTenant()).status?.used).toEqual({ 'count/configmaps': '1', 'count/*': '1' });
    await (undo as Undo)();
    expect((await readTenant()).status?.used).toEqual({ 'count/configmaps': '0', 'count/*': '0' });
    await plugin.admit(createConfigMap('c'));
    await plugin.admit({ ...createConfigMap('ns'), def: namespaceDef, namespace: undefined, object: { metadata: { name: 'ns', tenant: 't1' } } });
    expect((await readTenant()).status?.used).toEqual({ 'count/configmaps': '1', 'count/*': '2' });
    await plugin.deleted(configMapDef, { metadata: { name: 'c', namespace: 'ns', tenant: 't1' } });
    expect((await readTenant()).status?.used).toEqual({ 'count/configmaps': '0', 'count/*': '1' });
  });

  it('recounts when limits change, and clears usage when they are removed', async () => {
    const plugin = replica();
    await storeConfigMap('x');
    await plugin.recount('t1');
    expect(isCounted(await readTenant())).toBe(true);
    await writeTenant((t) => (t.spec = { hard: { 'count/configmaps': '1', 'count/namespaces': '5' } }));
    expect(isCounted(await readTenant())).toBe(false);
    await plugin.recount('t1');
    expect((await readTenant()).status).toEqual({ phase: 'Active', hard: { 'count/configmaps': '1', 'count/namespaces': '5' }, used: { 'count/configmaps': '1', 'count/namespaces': '0' } });
    expect(await outcome(() => plugin.admit(createConfigMap('y')))).toMatch(/^403 .*exceeded quota: t1, requested: count\/configmaps=1, used: count\/configmaps=1, limited: count\/configmaps=1$/);
    await writeTenant((t) => (t.spec = {}));
    await plugin.recount('t1');
    expect((await readTenant()).status).toEqual({ phase: 'Active' });
  });

  describe('storage/bytes', () => {
    const cm = (name: string, value: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', tenant: 't1' }, data: { v: value } }) as KubeObject;
    const size = (obj: KubeObject) => Buffer.byteLength(storedForm(configMapDef, obj));
    const bytesPlugin = () => new SpaceQuotaAdmission({ store, tenantDef, spaceKinds: () => [namespaceDef, configMapDef], hasLimits: () => true, limitsBytes: () => true });
    const write = (operation: 'create' | 'update', object: KubeObject, old?: KubeObject): AdmissionAttributes => ({ operation, def: configMapDef, tenant: 't1', namespace: 'ns', object, old, user: undefined });
    const used = async () => (await readTenant()).status?.used?.['storage/bytes'];

    it('counts what is stored, charges creates and growth, credits shrinking and deletes, and refuses past the limit in kube\'s words', async () => {
      const existing = cm('existing', 'x'.repeat(100));
      await store.create(objectKey(configMapDef, { tenant: 't1', namespace: 'ns', name: 'existing' }), storedForm(configMapDef, existing));
      await writeTenant((t) => (t.spec = { hard: { 'storage/bytes': '1000' } }));
      const plugin = bytesPlugin();
      const small = cm('a', 'y'.repeat(50));
      await plugin.admit(write('create', small));
      expect(await used()).toBe(String(size(existing) + size(small)));

      const grown = cm('a', 'y'.repeat(400));
      await plugin.admit(write('update', grown, small));
      expect(await used()).toBe(String(size(existing) + size(grown)));
      const tooBig = cm('a', 'y'.repeat(900));
      const growth = size(tooBig) - size(grown);
      expect(await outcome(() => plugin.admit(write('update', tooBig, grown)))).toBe(
        `403 configmaps "a" is forbidden: exceeded quota: t1, requested: storage/bytes=${growth}, used: storage/bytes=${size(existing) + size(grown)}, limited: storage/bytes=1k`,
      );

      // Shrinking frees at once; a failed write takes it back.
      const shrunk = cm('a', 'y');
      const undo = await plugin.admit(write('update', shrunk, grown));
      expect(await used()).toBe(String(size(existing) + size(shrunk)));
      await (undo as Undo)();
      expect(await used()).toBe(String(size(existing) + size(grown)));

      await plugin.deleted(configMapDef, grown);
      await plugin.deleted(configMapDef, existing);
      expect(await used()).toBe('0');
    });
  });
});
