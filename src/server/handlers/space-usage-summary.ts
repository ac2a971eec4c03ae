/**
 * `GET /api/v1/tenants/all`: every space's usage at once, for the system admin. The answer is a
 * Tenant named `all` (a name no tenant can have) whose `status.hard` and `status.used` sum each
 * limit, and its usage, over the tenants that set that limit, so `kubectl get tenant all` prints
 * the total in the Used column as `kubectl get tenants` prints each space's.
 *
 * @example
 *   GET /api/v1/tenants/all → { kind: 'Tenant', metadata: { name: 'all' }, status: { hard: { 'count/configmaps': '300' }, used: { 'count/configmaps': '152' } } }
 */
import type { Tenant } from '../../../api/kinds/core/tenant.js';
import { addUsage, maskUsage, toResourceList, toUsage, type Usage } from '../../../api/quota/resource-usage.js';
import { ALL_TENANTS } from '../../../api/spaces.js';
import type { HandlerDeps } from './handler-deps.js';
import type { ResourceRequest } from './resolve-resource.js';

/** Whether the request reads the summary rather than a Tenant. */
export function isSpaceUsageSummary(req: ResourceRequest): boolean {
  return req.def.group === '' && req.def.resource === 'tenants' && req.name === ALL_TENANTS && req.subresource === undefined;
}

export async function spaceUsageSummary(deps: HandlerDeps, req: ResourceRequest): Promise<Tenant> {
  const { items, metadata } = await deps.generic.list(req.def, { tenant: req.tenant });
  let hard: Usage = new Map();
  let used: Usage = new Map();
  for (const tenant of items as Tenant[]) {
    const limits = toUsage(tenant.status?.hard);
    hard = addUsage(hard, limits);
    used = addUsage(used, maskUsage(toUsage(tenant.status?.used), limits.keys()));
  }
  return {
    apiVersion: 'v1',
    kind: 'Tenant',
    metadata: { name: ALL_TENANTS, resourceVersion: metadata.resourceVersion },
    status: { hard: toResourceList(hard), used: toResourceList(used) },
  };
}
