import { describe, expect, it } from 'vitest';
import { builtinKinds } from '../kinds/index.js';
import { ResourceRegistry } from '../registry/registry.js';
import { aggregatedDiscovery, apiResourceList, storageVersionHash } from './discovery.js';

const registry = new ResourceRegistry(builtinKinds);

function kind(group: string, resource: string) {
  const def = registry.all().find((d) => d.group === group && d.resource === resource);
  if (!def) throw new Error(`no ${group}/${resource}`);
  return def;
}

interface Resource {
  name: string;
  group?: string;
  kind: string;
  storageVersionHash?: string;
}

describe('storageVersionHash', () => {
  // Kubernetes' own table of expected hashes (test/integration/etcd storageversionhashdata).
  it.each([
    ['', 'configmaps', 'qFsyl6wFWjQ='],
    ['', 'pods', 'xPOwRZ+Yhw8='],
    ['', 'namespaces', 'Q3oi5N2YM8M='],
    ['', 'events', 'r2yiGXH7wu8='],
    ['', 'services', '0/CO1lhkEBI='],
    ['apps', 'deployments', '8aSe+NMegvE='],
    ['autoscaling', 'horizontalpodautoscalers', 'qwQve8ut294='],
    ['batch', 'cronjobs', 'sd5LIXh4Fjs='],
    ['rbac.authorization.k8s.io', 'roles', '7FuwZcIIItM='],
    // Stored as core v1 Events in Kubernetes.
    ['events.k8s.io', 'events', 'r2yiGXH7wu8='],
  ])('%s %s is %s, as on a real cluster', (group, resource, hash) => {
    expect(storageVersionHash(kind(group, resource))).toBe(hash);
  });

  it('is absent for reviews, which are not stored', () => {
    expect(storageVersionHash(kind('authorization.k8s.io', 'selfsubjectaccessreviews'))).toBeUndefined();
    expect(storageVersionHash(kind('authentication.k8s.io', 'tokenreviews'))).toBeUndefined();
  });

  it('is in the legacy resource list for kinds, not for subresources', () => {
    const list = apiResourceList(registry, 'apps', 'v1') as { resources: Resource[] };
    const byName = new Map(list.resources.map((r) => [r.name, r]));
    expect(byName.get('deployments')?.storageVersionHash).toBe('8aSe+NMegvE=');
    expect(byName.get('deployments/status')).not.toHaveProperty('storageVersionHash');
    // APIResource's field order: group and version before kind.
    expect(Object.keys(byName.get('deployments/scale')!)).toEqual(['name', 'singularName', 'namespaced', 'group', 'version', 'kind', 'verbs']);
    const core = apiResourceList(registry, '', 'v1') as { resources: Resource[] };
    expect(core.resources.find((r) => r.name === 'configmaps')?.storageVersionHash).toBe('qFsyl6wFWjQ=');
  });

  it('is not in aggregated discovery, whose APIResourceDiscovery has no such field', () => {
    expect(JSON.stringify(aggregatedDiscovery(registry, false, 'v2'))).not.toContain('storageVersionHash');
  });
});
