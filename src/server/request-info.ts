/**
 * The only code that knows URL shapes (DESIGN.md section 3). It turns a request path into verb,
 * group/version/resource, tenant form, namespace, name and subresource; nothing else parses paths.
 *
 * Tenant forms:
 *   short   /api/v1/namespaces/ns1/pods            the caller's own space (tenant undefined here)
 *   full    /api/v1/tenants/t1/namespaces/ns1/pods
 *   prefix  /tenants/t1/api/v1/namespaces/ns1/pods (a kubeconfig server ending in /tenants/t1)
 * `all` in either tenant position means every space. `/api/v1/tenants/t1[/status|/finalize]` is the
 * Tenant object itself, as `/api/v1/namespaces/ns1/status` is a namespace's subresource in Kubernetes.
 *
 * @example
 *   parseRequestInfo('GET', '/tenants/t1/api/v1/namespaces/ns1/pods', {})
 *   // { kind: 'resource', verb: 'list', group: '', version: 'v1', tenant: 't1', tenantForm: 'prefix',
 *   //   namespace: 'ns1', resource: 'pods', path: '/api/v1/namespaces/ns1/pods', ... }
 */

import { ALL_TENANTS } from '../../api/spaces.js';
import { pathSegmentProblems } from '../../api/validation/path-segment.js';
import { ApiError } from '../../api/status.js';

export type TenantForm = 'short' | 'full' | 'prefix';

export type ResourceVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

interface CommonInfo {
  /** The path with any `/tenants/<t>` prefix removed: what routes match on. */
  path: string;
  /** The tenant named by the path (`all` for every space); undefined in the short form. */
  tenant: string | undefined;
  tenantForm: TenantForm;
}

export interface ResourceRequestInfo extends CommonInfo {
  kind: 'resource';
  verb: ResourceVerb;
  /** `api` for the core group, `apis` otherwise. */
  apiPrefix: 'api' | 'apis';
  group: string;
  version: string;
  resource: string;
  subresource: string | undefined;
  namespace: string | undefined;
  name: string | undefined;
}

export interface NonResourceRequestInfo extends CommonInfo {
  kind: 'nonresource';
  /** The HTTP method, lower-cased, as RBAC's nonResourceURLs rules name verbs. */
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** Subresources of a Tenant that sit where a space's resource name would (`/api/v1/tenants/t1/status`). */
const tenantSubresources = new Set(['status', 'finalize']);
/** Subresources of a Namespace that sit where a namespaced resource name would. */
const namespaceSubresources = new Set(['status', 'finalize']);

const methodVerbs: Record<string, ResourceVerb> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
};

/**
 * A boolean query parameter's value as kube-apiserver's parameter codec reads it
 * (`Convert_Slice_string_To_bool`): "0" and "false" in any case are false, anything else (even
 * empty) is true; Python sends `True`, Go clients `true` or `1`.
 */
export function goBoolParam(value: string): boolean {
  return value !== '0' && value.toLowerCase() !== 'false';
}

function isWatchParam(value: unknown): boolean {
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' && goBoolParam(first);
}

/**
 * Parses a request. `query` is the parsed query string (only `watch` is read here).
 * Returns null when the path is no request at all: a malformed prefix form such as `/tenants/`.
 */
export function parseRequestInfo(method: string, rawPath: string, query: Record<string, unknown>): RequestInfo | null {
  // Leading and trailing slashes go, as kube-apiserver trims them; an empty segment inside the
  // path stays one (`/namespaces//pods` names the empty namespace, refused by checkPathSegments).
  let segments = trimSlashes(rawPath).split('/');
  if (segments.length === 1 && segments[0] === '') segments = [];
  let tenant: string | undefined;
  let tenantForm: TenantForm = 'short';

  if (segments[0] === 'tenants') {
    // Prefix form: `/tenants/<t>/<anything>` is `<anything>` in space <t>.
    if (segments.length < 3) return null;
    tenant = decodeSegment(segments[1]!) ?? undefined;
    if (tenant === undefined) return null;
    tenantForm = 'prefix';
    segments = segments.slice(2);
  }

  const path = `/${segments.join('/')}`;
  const nonResource = (): NonResourceRequestInfo => ({ kind: 'nonresource', verb: method.toLowerCase(), path, tenant, tenantForm });

  let parts: string[];
  let apiPrefix: 'api' | 'apis';
  let group: string;
  let version: string;
  if (segments[0] === 'api' && segments.length >= 3) {
    apiPrefix = 'api';
    group = '';
    version = segments[1]!;
    parts = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    apiPrefix = 'apis';
    group = segments[1]!;
    version = segments[2]!;
    parts = segments.slice(3);
  } else {
    return nonResource();
  }

  const decoded = parts.map(decodeSegment);
  if (decoded.some((p) => p === null)) return null;
  parts = decoded as string[];

  let verb: ResourceVerb | undefined;
  if (parts[0] === 'watch') {
    verb = 'watch';
    parts = parts.slice(1);
  }

  // Full form: `tenants/<t>/...`, unless it addresses the Tenant object (core group only).
  if (parts[0] === 'tenants' && parts.length >= 2) {
    const isTenantObject = apiPrefix === 'api' && (parts.length === 2 || (parts.length === 3 && tenantSubresources.has(parts[2]!)));
    if (!isTenantObject) {
      if (tenantForm === 'prefix') return null; // a space inside a space is no request
      tenant = parts[1]!;
      tenantForm = 'full';
      parts = parts.slice(2);
    }
  }

  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length >= 2) {
    namespace = parts[1]!;
    if (parts.length > 2 && !namespaceSubresources.has(parts[2]!)) parts = parts.slice(2);
  }

  if (parts.length === 0 || parts.length > 3) return parts.length === 0 ? nonResource() : null;
  const [resource, name, subresource] = parts as [string, string | undefined, string | undefined];

  if (verb === undefined) {
    switch (method) {
      case 'GET':
      case 'HEAD':
        verb = name !== undefined ? 'get' : isWatchParam(query['watch']) ? 'watch' : 'list';
        break;
      case 'DELETE':
        verb = name !== undefined ? 'delete' : 'deletecollection';
        break;
      default: {
        const mapped = methodVerbs[method];
        if (mapped === undefined) return nonResource();
        verb = mapped;
      }
    }
  }

  return { kind: 'resource', verb, apiPrefix, group, version, resource, subresource, namespace, name, path, tenant, tenantForm };
}

function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start += 1;
  while (end > start && path[end - 1] === '/') end -= 1;
  return path.slice(start, end);
}

/**
 * The refusal for a request whose tenant, namespace or name could name nothing stored
 * (`pathSegmentProblems`), or null when every segment is fine. Names are refused as
 * kube-apiserver's storage key functions refuse them (400 `Name parameter invalid`); a tenant or
 * namespace that cannot exist is not found, as kube-apiserver answers a write into it.
 *
 * @example
 *   checkPathSegments(parseRequestInfo('GET', '/api/v1/namespaces/%2e%2e/configmaps', {})!)
 *   // ApiError 404 'namespaces ".." not found'
 */
export function checkPathSegments(info: RequestInfo): ApiError | null {
  if (info.tenant !== undefined && info.tenant !== ALL_TENANTS && pathSegmentProblems(info.tenant).length > 0) {
    return new ApiError(404, 'NotFound', `tenants ${JSON.stringify(info.tenant)} not found`, { name: info.tenant, group: '', kind: 'tenants' });
  }
  if (info.kind === 'nonresource') return null;
  // `/namespaces/<n>` and its subresources name the namespace itself: its name is checked as a name.
  const namesNamespace = info.resource === 'namespaces' && info.name === info.namespace;
  if (info.namespace !== undefined && !namesNamespace && pathSegmentProblems(info.namespace).length > 0) {
    return new ApiError(404, 'NotFound', `namespaces ${JSON.stringify(info.namespace)} not found`, { name: info.namespace, group: '', kind: 'namespaces' });
  }
  if (info.name === undefined) return null;
  if (info.name === '') return new ApiError(400, 'BadRequest', 'Name parameter required.');
  const problems = pathSegmentProblems(info.name);
  return problems.length === 0 ? null : new ApiError(400, 'BadRequest', `Name parameter invalid: ${JSON.stringify(info.name)}: ${problems.join(';')}`);
}

/** Path segments arrive percent-encoded; a segment that does not decode is no valid request. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
