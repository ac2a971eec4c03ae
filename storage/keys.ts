/**
 * The one place that builds and splits storage keys (DESIGN.md section 6):
 *
 *   /registry/<group>/<resource>/<tenant>/<namespace>/<name>   namespace scope
 *   /registry/<group>/<resource>/<tenant>/<name>               space scope
 *   /registry/<group>/<resource>/<name>                        cluster scope (tenants)
 *
 * The core group is spelled `core`. Every segment is checked so that no caller-supplied value can
 * climb to another level or another space: `/`, empty, `.` and `..` are refused.
 *
 * @example
 *   objectKey({ group: '', resource: 'pods', scope: 'namespace' }, { tenant: 't1', namespace: 'ns1', name: 'p' })
 *   // '/registry/core/pods/t1/ns1/p'
 */
import { StorageError } from './errors.js';

export type Scope = 'cluster' | 'space' | 'namespace';

/** What a key needs to know about a resource. */
export interface ResourceKeyInfo {
  /** API group; '' is the core group. */
  group: string;
  /** Plural resource name, e.g. `pods`. */
  resource: string;
  scope: Scope;
}

export interface ObjectLocation {
  /** Required for space and namespace scope; must be absent for cluster scope. */
  tenant?: string;
  /** Required for namespace scope only. */
  namespace?: string;
  name: string;
}

const ROOT = '/registry';

function checkSegment(what: string, value: string | undefined): string {
  if (value === undefined || value === '' || value === '.' || value === '..' || value.includes('/')) {
    throw new StorageError('InvalidKey', String(value), `invalid ${what} ${JSON.stringify(value)} in a storage key`);
  }
  return value;
}

function resourcePrefix(info: ResourceKeyInfo): string {
  return `${ROOT}/${checkSegment('group', info.group === '' ? 'core' : info.group)}/${checkSegment('resource', info.resource)}/`;
}

/** The key of one object. */
export function objectKey(info: ResourceKeyInfo, loc: ObjectLocation): string {
  const name = checkSegment('name', loc.name);
  switch (info.scope) {
    case 'cluster':
      if (loc.tenant !== undefined || loc.namespace !== undefined) {
        throw new StorageError('InvalidKey', name, `${info.resource} is cluster-scoped: no tenant or namespace in its key`);
      }
      return resourcePrefix(info) + name;
    case 'space':
      if (loc.namespace !== undefined) {
        throw new StorageError('InvalidKey', name, `${info.resource} is space-scoped: no namespace in its key`);
      }
      return `${resourcePrefix(info)}${checkSegment('tenant', loc.tenant)}/${name}`;
    case 'namespace':
      return `${resourcePrefix(info)}${checkSegment('tenant', loc.tenant)}/${checkSegment('namespace', loc.namespace)}/${name}`;
  }
}

/**
 * The prefix (always ending in '/') that holds a resource's objects: all of them, one space's,
 * or one namespace of one space. A namespace without a tenant is refused: reading one namespace
 * "in every space" is a filter over the resource prefix, not a prefix.
 */
export function keyPrefix(info: ResourceKeyInfo, where: { tenant?: string; namespace?: string } = {}): string {
  let prefix = resourcePrefix(info);
  if (where.tenant === undefined) {
    if (where.namespace !== undefined) {
      throw new StorageError('InvalidKey', prefix, 'a namespace prefix needs a tenant');
    }
    return prefix;
  }
  if (info.scope === 'cluster') throw new StorageError('InvalidKey', prefix, `${info.resource} is cluster-scoped`);
  prefix += `${checkSegment('tenant', where.tenant)}/`;
  if (where.namespace !== undefined) {
    if (info.scope !== 'namespace') throw new StorageError('InvalidKey', prefix, `${info.resource} is not namespaced`);
    prefix += `${checkSegment('namespace', where.namespace)}/`;
  }
  return prefix;
}

/** Splits a key built by `objectKey` for the same resource back into its location. */
export function parseObjectKey(info: ResourceKeyInfo, key: string): ObjectLocation {
  const prefix = resourcePrefix(info);
  if (!key.startsWith(prefix)) throw new StorageError('InvalidKey', key, `key is not under ${prefix}`);
  const parts = key.slice(prefix.length).split('/');
  const expected = info.scope === 'cluster' ? 1 : info.scope === 'space' ? 2 : 3;
  if (parts.length !== expected || parts.some((p) => p === '')) {
    throw new StorageError('InvalidKey', key, `key does not fit a ${info.scope}-scoped ${info.resource}`);
  }
  if (info.scope === 'cluster') return { name: parts[0]! };
  if (info.scope === 'space') return { tenant: parts[0]!, name: parts[1]! };
  return { tenant: parts[0]!, namespace: parts[1]!, name: parts[2]! };
}

/**
 * The space a key or a prefix (ending in '/') belongs to: the segment after the resource, when more
 * follow it. Undefined for a cluster-scoped object (`/registry/core/tenants/t1`) and for a whole
 * resource's prefix (`/registry/core/configmaps/`), which belong to no one space.
 *
 * @example
 *   keyTenant('/registry/core/configmaps/t1/ns1/cm') // 't1'
 *   keyTenant('/registry/core/configmaps/t1/')       // 't1'
 *   keyTenant('/registry/core/tenants/t1')           // undefined
 */
export function keyTenant(key: string): string | undefined {
  if (!key.startsWith(`${ROOT}/`)) return undefined;
  const parts = key.slice(ROOT.length + 1).split('/');
  // group, resource, tenant, then at least one more segment (a name, or '' after a prefix's '/').
  return parts.length >= 4 && parts[2] !== '' ? parts[2] : undefined;
}
