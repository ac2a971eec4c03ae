/**
 * Tenant lifecycle admission: nothing is created in a space whose Tenant does not exist (404) or
 * is being deleted (403); the `system` tenant can never be deleted, and a space's own `default`,
 * `kube-system` and `kube-public` namespaces only go with their tenant.
 */
import { ApiError } from '../status.js';
import type { AdmissionPlugin } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';

export { SYSTEM_TENANT } from '../spaces.js';
import { SYSTEM_TENANT } from '../spaces.js';

/** Namespaces a space cannot lose while its tenant lives. */
export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** Reads a Tenant, or undefined when it does not exist. */
export type TenantReader = (name: string) => Promise<KubeObject | undefined>;

export function tenantLifecycle(readTenant: TenantReader): AdmissionPlugin {
  return {
    async admit({ operation, def, tenant, object }) {
      if (def.scope === 'cluster') {
        if (operation === 'delete' && def.group === '' && def.resource === 'tenants' && object.metadata.name === SYSTEM_TENANT) {
          throw new ApiError(403, 'Forbidden', `tenants "${SYSTEM_TENANT}" is forbidden: the system tenant may not be deleted`, { name: SYSTEM_TENANT, kind: 'tenants' });
        }
        return;
      }
      if (operation === 'delete' && def.group === '' && def.resource === 'namespaces' && IMMORTAL_NAMESPACES.has(object.metadata.name ?? '')) {
        const owner = await readTenant(tenant);
        if (owner && !owner.metadata.deletionTimestamp) {
          throw new ApiError(403, 'Forbidden', `namespaces "${object.metadata.name}" is forbidden: this namespace may not be deleted`, { name: object.metadata.name, kind: 'namespaces' });
        }
        return;
      }
      if (operation !== 'create') return;
      const owner = await readTenant(tenant);
      if (!owner) throw new ApiError(404, 'NotFound', `tenants "${tenant}" not found`, { name: tenant, kind: 'tenants' });
      if (owner.metadata.deletionTimestamp) {
        throw new ApiError(403, 'Forbidden', `${def.resource} "${object.metadata.name ?? ''}" is forbidden: unable to create new content in tenant ${tenant} because it is being terminated`, {
          name: object.metadata.name,
          group: def.group,
          kind: def.resource,
        });
      }
    },
  };
}
