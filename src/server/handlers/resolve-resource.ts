/**
 * Turns parsed request info into a resource request: the kind as the caller's space sees it,
 * the space, namespace, name and subresource, checked against what the kind serves.
 */
import { ALL_TENANTS } from '../../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../../api/registry/registry.js';
import type { ResourceDefinition, Verb } from '../../../api/registry/resource-definition.js';
import type { UserInfo } from '../../../api/access.js';
import type { ResourceRequestInfo } from '../request-info.js';
import { ApiError } from '../../../api/status.js';

export type Subresource = 'status' | 'scale' | 'finalize' | 'log' | 'token' | 'ephemeralcontainers' | 'binding' | 'eviction' | 'exec' | 'attach' | 'portforward' | 'approval';

/** Status, scale and finalize are read and written; the kind declares the verbs of its other subresources. */
const PART_VERBS: readonly Verb[] = ['get', 'update', 'patch'];

export interface ResourceRequest {
  verb: Verb;
  def: ResourceDefinition;
  /** The space acted in, or ALL_TENANTS for a listing across spaces. Unused for cluster-scoped kinds. */
  tenant: string;
  namespace: string | undefined;
  name: string | undefined;
  subresource: Subresource | undefined;
  /** The request spans every space (lists gain a Tenant column). */
  acrossSpaces: boolean;
  user: UserInfo;
}

const notFound = (): ApiError => new ApiError(404, 'NotFound', 'the server could not find the requested resource');

function methodNotAllowed(message: string): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message);
}

function subresourceOf(def: ResourceDefinition, sub: string): Subresource | undefined {
  if (sub === 'status' && def.status) return 'status';
  if (sub === 'scale' && def.scale) return 'scale';
  if (sub === 'finalize' && (def.resource === 'namespaces' || def.resource === 'tenants')) return 'finalize';
  if (def.subresources.some((s) => s.name === sub)) return sub as Subresource;
  return undefined;
}

export function resolveResource(registry: ResourceRegistry, ctx: { user: UserInfo; tenant: string }, info: ResourceRequestInfo): ResourceRequest {
  // Tenant users asking for kinds above the spaces were refused (403) by authorization already.
  const def = registry.view(ctx.tenant).lookup(info.group, info.version, info.resource);
  if (!def) throw notFound();
  const verb: Verb = info.verb;

  let subresource: Subresource | undefined;
  if (info.subresource !== undefined) {
    subresource = subresourceOf(def, info.subresource);
    if (!subresource) throw notFound();
    const verbs = def.subresources.find((s) => s.name === subresource)?.verbs ?? PART_VERBS;
    const allowed = verbs.includes(verb);
    if (!allowed) throw methodNotAllowed(`${verb} is not supported on ${def.resource}/${subresource}`);
  }

  let namespace = info.namespace;
  if (def.scope !== 'namespace') {
    // `/namespaces/<n>` names the namespace itself for the namespaces resource; elsewhere it is no path.
    if (namespace !== undefined && !(def.resource === 'namespaces' && namespace === info.name)) throw notFound();
    namespace = undefined;
  } else if (namespace === undefined && verb !== 'list' && verb !== 'watch') {
    throw methodNotAllowed(`${verb} on ${def.resource} needs a namespace in the path`);
  }

  if (!def.verbs.includes(verb)) throw methodNotAllowed(`${verb} is not supported on ${def.resource}`);
  const acrossSpaces = ctx.tenant === ALL_TENANTS && def.scope !== 'cluster';
  if (acrossSpaces && verb !== 'list' && verb !== 'watch') {
    throw methodNotAllowed(`only list and watch are supported across all tenants`);
  }
  return { verb, def, tenant: ctx.tenant, namespace, name: info.name, subresource, acrossSpaces, user: ctx.user };
}
