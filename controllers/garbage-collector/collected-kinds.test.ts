import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../../api/kinds/index.js';
import { garbageCollectionPolicy } from '../../api/registry/garbage-collection.js';
import type { ServedResource } from '../../src/client/discovery.js';
import { IGNORED_RESOURCES, resourceName, ServedKinds } from './collected-kinds.js';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function served(group: string, version: string, resource: string, kind: string, verbs = ALL_VERBS, namespaced = true): ServedResource {
  return { group, version, resource, kind, namespaced, verbs };
}

const configMaps = served('', 'v1', 'configmaps', 'ConfigMap');
const events = served('', 'v1', 'events', 'Event');
const tenants = served('', 'v1', 'tenants', 'Tenant', ALL_VERBS, false);
const reviews = served('authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', ['create'], false);
const widgets = served('example.com', 'v1', 'widgets', 'Widget');

describe('ServedKinds', () => {
  it('collects what has list, watch and delete, once per group and kind, but events and the kinds above the spaces', () => {
    const kinds = new ServedKinds([configMaps, events, tenants, reviews, { ...configMaps, resource: 'configmaps-again' }]);
    expect(kinds.collected).toEqual([{ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true }]);
  });

  it.each([
    ['a collected kind, whatever the version', { apiVersion: 'v2', kind: 'ConfigMap' }, 'collected'],
    ['a served kind it leaves alone', { apiVersion: 'v1', kind: 'Tenant' }, 'outside'],
    ['a kind it cannot list', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview' }, 'outside'],
    ['a kind the space does not serve', { apiVersion: 'example.com/v1', kind: 'Widget' }, 'unknown'],
    ['a served kind in another group', { apiVersion: 'example.com/v1', kind: 'ConfigMap' }, 'unknown'],
  ])('resolves a reference to %s', (_case, type, kind) => {
    const kinds = new ServedKinds([configMaps, tenants, reviews]);
    expect(kinds.ownerKind({ ...type, name: 'o', uid: 'u' }).kind).toBe(kind);
  });

  it('collects a space’s own kinds only, and resolves every space’s kinds through them too', () => {
    const everySpace = new ServedKinds([configMaps, tenants]);
    const t1 = new ServedKinds([configMaps, tenants, widgets], everySpace);
    expect(t1.collected.map(resourceName)).toEqual(['widgets.example.com']);
    expect(t1.ownerKind({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u' })).toEqual({ kind: 'collected', resource: t1.collected[0] });
    expect(t1.ownerKind({ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u' })).toEqual({ kind: 'collected', resource: everySpace.collected[0] });
    expect(t1.ownerKind({ apiVersion: 'v1', kind: 'Tenant', name: 't', uid: 'u' }).kind).toBe('outside');
  });

  it('ignores every built-in kind the collector must not handle that discovery lists as collectable', () => {
    const mustIgnore = builtinKinds.filter(
      (def) => (def.scope === 'cluster' || garbageCollectionPolicy(def) === 'Unsupported') && ['list', 'watch', 'delete'].every((v) => def.verbs.includes(v as never)),
    );
    expect(mustIgnore.length).toBeGreaterThan(0);
    for (const def of mustIgnore) expect(IGNORED_RESOURCES, resourceName(def)).toContain(resourceName(def));
  });
});
