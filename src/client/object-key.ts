/**
 * The identity of an object: tenant, namespace and name, always together. Two spaces may hold
 * `default/app` each; a key without its tenant would merge them into one cache entry.
 *
 * @example
 *   keyString(keyOf(cm)) // 't1/ns1/cm1'
 */
import type { KubeObject } from '../../api/registry/object.js';

export interface ObjectKey {
  /** '' for cluster-scoped objects (tenants). */
  tenant: string;
  /** '' for space- and cluster-scoped objects. */
  namespace: string;
  name: string;
}

export function keyOf(obj: KubeObject): ObjectKey {
  return { tenant: obj.metadata.tenant ?? '', namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
}

/** A string form for maps and sets; '/' never appears inside the parts (storage keys refuse it). */
export function keyString(key: ObjectKey): string {
  return `${key.tenant}/${key.namespace}/${key.name}`;
}

export function parseKeyString(s: string): ObjectKey {
  const [tenant = '', namespace = '', name = ''] = s.split('/');
  return { tenant, namespace, name };
}
