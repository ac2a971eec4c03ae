/**
 * The CRD status controller: names decided against the other CRDs of the same space and group
 * and the shared system CRDs (kube's naming controller), Established once accepted, and a
 * deleted CRD released.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from '../../../api/kinds/apiextensions/types.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import { startControlPlane, type ControlPlane } from '../../control-plane.js';
import { ApiError } from '../../../api/status.js';
import { openSqliteStore } from '../../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../../storage/store.js';
import { CrdsBySpace, namesAndConditions, rivalCrds } from './crd-status-controller.js';

const crd = (plural: string, names: Partial<CustomResourceDefinitionNames> = {}, acceptedNames?: CustomResourceDefinitionNames): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.stable.example.com` },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind: 'CronTab', listKind: 'CronTabList', ...names },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
  ...(acceptedNames ? { status: { acceptedNames } } : {}),
});
const accepted = (c: CustomResourceDefinition): CustomResourceDefinition => ({ ...c, status: { acceptedNames: c.spec!.names } });

describe('namesAndConditions', () => {
  it('accepts every name nobody else has, and establishes', () => {
    const result = namesAndConditions(crd('crontabs', { shortNames: ['ct'], categories: ['all'] }), []);
    expect(result.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'], categories: ['all'] });
    expect(result.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(result.established).toEqual({ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  });

  it.each<[string, Partial<CustomResourceDefinitionNames>, string, string, Partial<CustomResourceDefinitionNames>]>([
    ['a short name', { kind: 'Cron', listKind: 'CronList', shortNames: ['ct'] }, 'ShortNamesConflict', '"ct" is already in use', { plural: 'crons', kind: 'Cron' }],
    ['a list kind', { kind: 'Cron', listKind: 'CronTabList' }, 'ListKindConflict', '"CronTabList" is already in use', { plural: 'crons', kind: 'Cron' }],
    ['a kind', { kind: 'CronTab', listKind: 'CronList' }, 'KindConflict', '"CronTab" is already in use', { plural: 'crons', listKind: 'CronList' }],
    ['a singular name that is a short name', { singular: 'ct', kind: 'Cron', listKind: 'CronList' }, 'SingularConflict', '"ct" is already in use', { plural: 'crons', kind: 'Cron' }],
  ])('refuses %s another CRD of the group has accepted, keeping the other names', (_what, names, reason, message, kept) => {
    const first = accepted(crd('crontabs', { shortNames: ['ct'] }));
    const result = namesAndConditions(crd('crons', names), [first]);
    expect(result.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'False', reason, message });
    expect(result.acceptedNames).toMatchObject(kept);
    expect(result.established).toEqual({ type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  });

  it('keeps names it has accepted, and stays Established', () => {
    const mine = crd('crontabs', { shortNames: ['ct'] }, { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
    mine.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }];
    const rival = accepted(crd('crons', { kind: 'Cron', listKind: 'CronList', shortNames: ['ct'] }));
    const result = namesAndConditions(mine, [rival]);
    expect(result.namesAccepted.status).toBe('True');
    expect(result.established.status).toBe('True');
  });
});

describe('rivalCrds', () => {
  const SHARED = { 'arktos.futurewei.com/crd-sharing-policy': 'forced' };
  const inSpace = (tenant: string, c: CustomResourceDefinition, labels?: Record<string, string>): CustomResourceDefinition => ({
    ...c,
    metadata: { ...c.metadata, tenant, ...(labels ? { labels } : {}) },
  });
  const indexed = (...all: CustomResourceDefinition[]): CrdsBySpace => {
    const bySpace = new CrdsBySpace();
    for (const c of all) bySpace.apply({ tenant: c.metadata.tenant!, namespace: '', name: c.metadata.name! }, c);
    return bySpace;
  };
  const shared = accepted(inSpace('system', crd('crontabs', { shortNames: ['ct'] }), SHARED));
  const systemOnly = accepted(inSpace('system', crd('alarms', { kind: 'Alarm', listKind: 'AlarmList' })));
  const elsewhere = accepted(inSpace('t2', crd('timers', { kind: 'Timer', listKind: 'TimerList' })));

  it('gives a tenant CRD its space’s CRDs of the group and the shared system ones, nothing else', () => {
    const neighbour = accepted(inSpace('t1', crd('clocks', { kind: 'Clock', listKind: 'ClockList' })));
    const mine = inSpace('t1', crd('crons', { kind: 'Cron', listKind: 'CronList' }));
    expect(rivalCrds(indexed(shared, systemOnly, elsewhere, neighbour, mine), mine)).toEqual([neighbour, shared]);
    // The system space's own CRDs are decided within that space.
    expect(rivalCrds(indexed(shared, systemOnly), systemOnly)).toEqual([shared]);
  });

  it.each<[string, Partial<CustomResourceDefinitionNames>, string, string]>([
    ['kind', { kind: 'CronTab', listKind: 'CronList' }, 'KindConflict', '"CronTab" is already in use'],
    ['short name', { kind: 'Cron', listKind: 'CronList', shortNames: ['ct'] }, 'ShortNamesConflict', '"ct" is already in use'],
    ['list kind', { kind: 'Cron', listKind: 'CronTabList' }, 'ListKindConflict', '"CronTabList" is already in use'],
  ])('refuses a tenant CRD the %s of a shared system CRD, as kube words it', (_what, names, reason, message) => {
    const mine = inSpace('t1', crd('crons', names));
    const result = namesAndConditions(mine, rivalCrds(indexed(shared, mine), mine));
    expect(result.namesAccepted).toEqual({ type: 'NamesAccepted', status: 'False', reason, message });
    expect(result.established.status).toBe('False');
  });
});

describe('crd-status controller', () => {
  const log = { info: vi.fn(), error: vi.fn() };
  const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
  let dir: string;
  let store: Store;
  let plane: ControlPlane;
  let crds: ResourceDefinition;

  const read = async (tenant: string, name: string): Promise<CustomResourceDefinition | undefined> => {
    try {
      return (await plane.generic.get(crds, { tenant, name })) as CustomResourceDefinition;
    } catch (err) {
      if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const condition = async (tenant: string, name: string, type: string) => (await read(tenant, name))?.status?.conditions?.find((c) => c.type === type);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crd-status-controller-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    plane = await startControlPlane(store, { serviceClusterIpRange: '10.96.0.0/12', log });
    crds = plane.registry.lookup('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
  });

  afterAll(async () => {
    await plane?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('establishes a CRD, and reports a conflict only within its own space', async () => {
    await plane.generic.create(crds, { tenant: 'system' }, crd('crontabs', { shortNames: ['ct'] }));
    await eventually(async () => expect(await condition('system', 'crontabs.stable.example.com', 'Established')).toMatchObject({ status: 'True' }));
    expect((await read('system', 'crontabs.stable.example.com'))?.status?.acceptedNames?.shortNames).toEqual(['ct']);

    await plane.generic.create(crds, { tenant: 'system' }, crd('crons', { kind: 'Cron', listKind: 'CronList', shortNames: ['ct'] }));
    await eventually(async () =>
      expect(await condition('system', 'crons.stable.example.com', 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ShortNamesConflict', message: '"ct" is already in use' }),
    );
  });

  it('refuses a tenant CRD a kind a shared system CRD holds', async () => {
    const tenants = plane.registry.lookup('', 'v1', 'tenants')!;
    await plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name: 't1' } });
    const shared = crd('gadgets', { kind: 'Gadget', listKind: 'GadgetList' });
    shared.metadata.labels = { 'arktos.futurewei.com/crd-sharing-policy': 'forced' };
    await plane.generic.create(crds, { tenant: 'system' }, shared);
    await eventually(async () => expect(await condition('system', 'gadgets.stable.example.com', 'Established')).toMatchObject({ status: 'True' }));

    await plane.generic.create(crds, { tenant: 't1' }, crd('widgets', { kind: 'Gadget', listKind: 'WidgetList' }));
    await eventually(async () =>
      expect(await condition('t1', 'widgets.stable.example.com', 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'KindConflict', message: '"Gadget" is already in use' }),
    );
    // Once the shared CRD is gone, the tenant's takes the kind.
    await plane.generic.delete(crds, { tenant: 'system', name: 'gadgets.stable.example.com' });
    await eventually(async () => expect(await condition('t1', 'widgets.stable.example.com', 'NamesAccepted')).toMatchObject({ status: 'True' }));
  });

  it('releases a deleted CRD once it has no custom resources, and retires its kind’s watch cache', async () => {
    const def = plane.registry.view('system').lookup('stable.example.com', 'v1', 'crontabs')!;
    await plane.watchCaches.list(def, { tenant: 'system' }, {});
    expect(plane.watchCaches.stats().map((s) => s.def)).toContain(def);
    const result = await plane.generic.delete(crds, { tenant: 'system', name: 'crontabs.stable.example.com' });
    expect(result.deleted).toBe(false);
    expect(result.object.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    await eventually(async () => expect(await read('system', 'crontabs.stable.example.com')).toBeUndefined());
    await eventually(async () => expect(plane.watchCaches.stats().map((s) => s.def)).not.toContain(def));
    // The short name is free again: the other CRD of the group takes it.
    await eventually(async () => expect(await condition('system', 'crons.stable.example.com', 'NamesAccepted')).toMatchObject({ status: 'True' }));
  });
});
