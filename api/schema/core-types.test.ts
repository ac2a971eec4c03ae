import { describe, expect, it } from 'vitest';
import './core-types.js';
import { CORE_V1 } from './core-types.js';
import './meta.js';
import { definitions, refName, resolve } from './schema.js';

const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** The list extensions of `field` in the named schema. */
function listExtensions(name: string, field: string): Record<string, unknown> {
  const s = resolve(definitions.get(name)?.properties?.[field]);
  expect(s?.type, `${name}.${field}`).toBe('array');
  return Object.fromEntries(Object.entries(s ?? {}).filter(([k]) => k.startsWith('x-kubernetes-')));
}

describe('core/v1 and meta/v1 schemas', () => {
  it.each<[string, string, Record<string, unknown>]>([
    [`${CORE_V1}PodSpec`, 'containers', { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
    [`${CORE_V1}PodSpec`, 'volumes', { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
    [`${CORE_V1}PodSpec`, 'tolerations', { 'x-kubernetes-list-type': 'atomic' }],
    [`${CORE_V1}Container`, 'env', { 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
    [`${CORE_V1}Container`, 'ports', {
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    }],
    [`${CORE_V1}Container`, 'volumeMounts', { 'x-kubernetes-patch-merge-key': 'mountPath', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['mountPath'] }],
    [`${CORE_V1}PodStatus`, 'conditions', { 'x-kubernetes-patch-merge-key': 'type', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }],
    [`${META_V1}ObjectMeta`, 'finalizers', { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' }],
    [`${META_V1}ObjectMeta`, 'ownerReferences', { 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'] }],
  ])('%s.%s merges as Kubernetes does', (name, field, expected) => {
    expect(listExtensions(name, field)).toEqual(expected);
  });

  it('carries our tenant field in ObjectMeta', () => {
    expect(definitions.get(`${META_V1}ObjectMeta`)?.properties?.tenant?.type).toBe('string');
  });

  it('names the pod template other groups embed', () => {
    const template = definitions.get(`${CORE_V1}PodTemplateSpec`);
    expect(Object.keys(template?.properties ?? {}).sort()).toEqual(['metadata', 'spec']);
    const spec = template?.properties?.spec?.allOf?.[0];
    expect(spec && refName(spec)).toBe(`${CORE_V1}PodSpec`);
  });
});
