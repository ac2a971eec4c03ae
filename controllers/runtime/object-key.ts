/**
 * The identity of an object for controllers: tenant, namespace and name, always together (a key
 * without its tenant would let one space's event reconcile another's object).
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
