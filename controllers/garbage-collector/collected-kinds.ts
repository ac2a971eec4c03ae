/**
 * Which kinds the garbage collector watches, and which kind an ownerReference names. Both come
 * from the registry, so a kind added there is collected without code changes here.
 */
import { garbageCollectionPolicy } from '../../api/registry/garbage-collection.js';
import type { OwnerReference } from '../../api/registry/object.js';
import type { RegistryView } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { groupOf } from './graph.js';
import type { OwnerKind } from './steps.js';

function groupKind(group: string, kind: string): string {
  return `${group}/${kind}`;
}

/**
 * Every kind that takes part in garbage collection, once per group and kind (the first registered
 * version), so one stored object is never two nodes.
 */
export function collectedKinds(registry: RegistryView): ResourceDefinition[] {
  const seen = new Set<string>();
  return registry.all().filter((def) => {
    const id = groupKind(def.group, def.kind);
    if (garbageCollectionPolicy(def) === 'Unsupported' || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Resolves a reference by group and kind, whatever its version, as Kubernetes' REST mapper does.
 *
 * @example
 *   ownerKindResolver(registry)({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid })
 *   // { kind: 'collected', def: <replicasets> }
 */
export function ownerKindResolver(registry: RegistryView): (ref: OwnerReference) => OwnerKind {
  const collected = new Map(collectedKinds(registry).map((def) => [groupKind(def.group, def.kind), def]));
  const served = new Set(registry.all().map((def) => groupKind(def.group, def.kind)));
  return (ref) => {
    const id = groupKind(groupOf(ref.apiVersion), ref.kind);
    const def = collected.get(id);
    if (def) return { kind: 'collected', def };
    return served.has(id) ? { kind: 'outside' } : { kind: 'unknown' };
  };
}
