import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { openSqliteStore } from '../../storage/sqlite/sqlite-store.js';
import type { Store } from '../../storage/store.js';
import { ApiError } from '../status.js';
import { deletionFinalizers, garbageCollectionPolicy, type PropagationOptions } from './garbage-collection.js';
import { GenericStore } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';

function kind(group: string, resource: string): ResourceDefinition {
  const def = builtinKinds.find((d) => d.group === group && d.resource === resource);
  if (!def) throw new Error(`no kind ${group}/${resource}`);
  return def;
}

const configMaps = kind('', 'configmaps');
const replicationControllers = kind('', 'replicationcontrollers');
const jobs = kind('batch', 'jobs');
const deployments = kind('apps', 'deployments');
const events = kind('', 'events');

const withFinalizers = (finalizers?: string[]): KubeObject => ({ metadata: { name: 'x', finalizers } });

describe('garbageCollectionPolicy', () => {
  it.each([
    ['configmaps', configMaps, 'DeleteDependents'],
    ['deployments.apps', deployments, 'DeleteDependents'],
    ['replicationcontrollers (core/v1 keeps its pods)', replicationControllers, 'OrphanDependents'],
    ['jobs.batch (batch/v1 keeps its pods)', jobs, 'OrphanDependents'],
    ['events', events, 'Unsupported'],
    ['events.events.k8s.io', kind('events.k8s.io', 'events'), 'Unsupported'],
    ['tenants (above every space)', kind('', 'tenants'), 'Unsupported'],
  ])('%s', (_name, def, policy) => {
    expect(garbageCollectionPolicy(def)).toBe(policy);
  });
});

describe('deletionFinalizers (kube-apiserver deletionFinalizersForGarbageCollection)', () => {
  it.each<[string, ResourceDefinition, string[] | undefined, PropagationOptions, string[] | undefined]>([
    ['background by default: nothing to add', configMaps, undefined, {}, undefined],
    ['Background explicitly', configMaps, undefined, { propagationPolicy: 'Background' }, undefined],
    ['Foreground adds foregroundDeletion', configMaps, undefined, { propagationPolicy: 'Foreground' }, ['foregroundDeletion']],
    ['Orphan adds orphan', configMaps, undefined, { propagationPolicy: 'Orphan' }, ['orphan']],
    ['other finalizers stay first', configMaps, ['example.com/hold'], { propagationPolicy: 'Foreground' }, ['example.com/hold', 'foregroundDeletion']],
    ['orphanDependents=true orphans', configMaps, undefined, { orphanDependents: true }, ['orphan']],
    ['orphanDependents=false on an RC deletes in the background', replicationControllers, undefined, { orphanDependents: false }, undefined],
    ['an RC orphans by default (core/v1)', replicationControllers, undefined, {}, ['orphan']],
    ['a Job orphans by default (batch/v1)', jobs, undefined, {}, ['orphan']],
    ['a Deployment does not (apps/v1)', deployments, undefined, {}, undefined],
    ['an RC deleted in the background', replicationControllers, undefined, { propagationPolicy: 'Background' }, undefined],
    ['a finalizer already set wins over the default', replicationControllers, ['foregroundDeletion'], {}, undefined],
    ['the request wins over a finalizer already set', configMaps, ['orphan'], { propagationPolicy: 'Foreground' }, ['foregroundDeletion']],
    ['Background drops an earlier orphan', configMaps, ['orphan', 'example.com/hold'], { propagationPolicy: 'Background' }, ['example.com/hold']],
    ['no options keep an earlier foreground', configMaps, ['foregroundDeletion'], {}, undefined],
    ['events never get one', events, undefined, { propagationPolicy: 'Foreground' }, undefined],
    ['events lose one nobody would remove', events, ['orphan'], { propagationPolicy: 'Orphan' }, []],
  ])('%s', (_name, def, finalizers, opts, expected) => {
    expect(deletionFinalizers(def, withFinalizers(finalizers), opts)).toEqual(expected);
  });
});

describe('DELETE with a propagation policy (generic store)', () => {
  let dir: string;
  let store: Store;
  let generic: GenericStore;
  const loc = { tenant: 't1', namespace: 'ns1' };
  const cm = (name: string, finalizers?: string[]): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers } });
  const get = (name: string) => generic.get(configMaps, { ...loc, name });
  const gone = async (name: string) => {
    await expect(get(name)).rejects.toSatisfy((err) => err instanceof ApiError && err.reason === 'NotFound');
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propagation-'));
    store = await openSqliteStore(join(dir, 'state.db'), { compactIntervalMs: 0 });
    generic = new GenericStore(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Foreground marks the object and leaves it to the garbage collector', async () => {
    await generic.create(configMaps, loc, cm('fg'));
    const { object, deleted } = await generic.delete(configMaps, { ...loc, name: 'fg' }, { propagationPolicy: 'Foreground' });
    expect(deleted).toBe(false);
    expect(object.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(object.metadata.deletionTimestamp).toBeDefined();
    expect(object.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await get('fg')).metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('Orphan marks the object likewise', async () => {
    await generic.create(configMaps, loc, cm('or'));
    const { object, deleted } = await generic.delete(configMaps, { ...loc, name: 'or' }, { propagationPolicy: 'Orphan' });
    expect(deleted).toBe(false);
    expect(object.metadata.finalizers).toEqual(['orphan']);
  });

  it('Background (and no policy) deletes at once', async () => {
    await generic.create(configMaps, loc, cm('bg'));
    await generic.create(configMaps, loc, cm('plain'));
    expect((await generic.delete(configMaps, { ...loc, name: 'bg' }, { propagationPolicy: 'Background' })).deleted).toBe(true);
    expect((await generic.delete(configMaps, { ...loc, name: 'plain' })).deleted).toBe(true);
    await gone('bg');
    await gone('plain');
  });

  it('a second DELETE may switch policy while the object waits, or release it', async () => {
    await generic.create(configMaps, loc, cm('switch'));
    await generic.delete(configMaps, { ...loc, name: 'switch' }, { propagationPolicy: 'Orphan' });
    const marked = await get('switch');
    const again = await generic.delete(configMaps, { ...loc, name: 'switch' }, { propagationPolicy: 'Foreground' });
    expect(again).toMatchObject({ deleted: false, object: { metadata: { finalizers: ['foregroundDeletion'], deletionTimestamp: marked.metadata.deletionTimestamp } } });
    const unchanged = await generic.delete(configMaps, { ...loc, name: 'switch' });
    expect(unchanged.object.metadata.resourceVersion).toBe(again.object.metadata.resourceVersion);
    expect((await generic.delete(configMaps, { ...loc, name: 'switch' }, { propagationPolicy: 'Background' })).deleted).toBe(true);
    await gone('switch');
  });

  it('keeps other finalizers holding the object after Background', async () => {
    await generic.create(configMaps, loc, cm('held', ['example.com/hold']));
    const { deleted, object } = await generic.delete(configMaps, { ...loc, name: 'held' }, { propagationPolicy: 'Background' });
    expect(deleted).toBe(false);
    expect(object.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('stores nothing on a dry run', async () => {
    await generic.create(configMaps, loc, cm('dry'));
    const { object } = await generic.delete(configMaps, { ...loc, name: 'dry' }, { propagationPolicy: 'Foreground', dryRun: true });
    expect(object.metadata.finalizers).toEqual(['foregroundDeletion']);
    const stored = await get('dry');
    expect(stored.metadata.finalizers).toBeUndefined();
    expect(stored.metadata.deletionTimestamp).toBeUndefined();
  });
});
