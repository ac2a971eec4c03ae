/**
 * The URL of a resource in a space, in the full form the server reads first (DESIGN.md section 3):
 * `/api/v1/tenants/t1/namespaces/ns1/configmaps/cm1`, `/api/v1/tenants/all/configmaps`, or the
 * short form `/api/v1/namespaces/ns1/configmaps` for the caller's own space. Discovery uses the
 * prefix form (`/tenants/t1/apis`), which every discovery document answers to.
 *
 * @example
 *   resourcePath({ space: { kind: 'space', tenant: 't1' }, resource: configMaps, namespace: 'ns1', name: 'cm1' })
 *   // '/api/v1/tenants/t1/namespaces/ns1/configmaps/cm1'
 */
import { ALL_TENANTS } from '../../api/spaces.js';

/** Which space a request acts in: the caller's own (by identity), one named space, or every space. */
export type SpaceTarget = { kind: 'own' } | { kind: 'space'; tenant: string } | { kind: 'all' };

export interface GroupVersionResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** The plural resource name, e.g. `configmaps`. */
  resource: string;
}

export interface ResourceLocation {
  space: SpaceTarget;
  resource: GroupVersionResource;
  namespace?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

function tenantSegment(space: SpaceTarget): string {
  if (space.kind === 'own') return '';
  return `/tenants/${space.kind === 'all' ? ALL_TENANTS : encodeURIComponent(space.tenant)}`;
}

export function resourcePath(location: ResourceLocation): string {
  const { space, resource, namespace, name, subresource } = location;
  let path = groupVersionPath(resource.group, resource.version) + tenantSegment(space);
  if (namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${resource.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}

/** `/api`, `/apis` or one group version's resource list, as the space sees them. */
export function discoveryPath(space: SpaceTarget, groupVersion?: { group: string; version: string }): string {
  const root = groupVersion === undefined ? '/apis' : groupVersionPath(groupVersion.group, groupVersion.version);
  return tenantSegment(space) + root;
}

/** A query string from the options that are set (`?a=1&b=x`, or '' when none is). */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
