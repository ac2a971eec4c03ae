/**
 * Namespace lifecycle admission, as Kubernetes' NamespaceLifecycle plugin: nothing is created in a
 * namespace that does not exist in its space (404) or is being deleted (403). (Which namespaces may
 * never be deleted depends on the tenant's life: see `tenant-lifecycle.ts`.)
 */
import type { AdmissionPlugin } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import { ApiError } from '../status.js';

/** Reads a namespace of a space, or undefined when it does not exist. */
export type NamespaceReader = (tenant: string, name: string) => Promise<KubeObject | undefined>;

export function namespaceLifecycle(readNamespace: NamespaceReader): AdmissionPlugin {
  return {
    async admit({ operation, def, tenant, namespace, object }) {
      if (operation !== 'create' || def.scope !== 'namespace' || namespace === undefined) return;
      const ns = await readNamespace(tenant, namespace);
      if (!ns) {
        throw new ApiError(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });
      }
      if (ns.metadata.deletionTimestamp) {
        throw new ApiError(403, 'Forbidden', `${def.resource} "${object.metadata.name ?? ''}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
          name: object.metadata.name,
          group: def.group,
          kind: def.resource,
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
        });
      }
    },
  };
}
