/**
 * Empties a space being deleted, driven by the registry so every kind (and every kind added later)
 * is covered: namespaced objects first, then namespaces (their `kubernetes` finalizer released
 * here, since their content is already gone), then the space's other objects. Answers how many
 * objects are still held by finalizers of others; the caller retries until none remain.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { ApiError } from '../../api/status.js';

/**
 * A grace period of 0: the whole space goes, and a pod on a node without anyone to end it (no
 * kubelet here, the node simulator off) would otherwise hold the teardown for ever.
 */
async function deleteAll(generic: GenericStore, def: ResourceDefinition, tenant: string): Promise<void> {
  await generic.deleteCollection(def, { tenant }, {}, { propagationPolicy: 'Background', gracePeriodSeconds: 0 });
}

async function releaseAndDeleteNamespaces(generic: GenericStore, namespaces: ResourceDefinition, tenant: string): Promise<void> {
  const { items } = await generic.list(namespaces, { tenant });
  for (const ns of items) {
    const loc = { tenant, name: ns.metadata.name! };
    try {
      await generic.mutate(namespaces, loc, (current) => ({ ...current, spec: { ...(current.spec as object), finalizers: [] } }), { subresource: 'finalize' });
      await generic.delete(namespaces, loc);
    } catch (err) {
      if (!(err instanceof ApiError && err.reason === 'NotFound')) throw err;
    }
  }
}

export async function tearDownSpace(generic: GenericStore, registry: ResourceRegistry, namespaces: ResourceDefinition, tenant: string): Promise<number> {
  const kinds = registry.view(tenant).all();
  for (const def of kinds) if (def.scope === 'namespace' && def.verbs.includes('deletecollection')) await deleteAll(generic, def, tenant);
  await releaseAndDeleteNamespaces(generic, namespaces, tenant);
  for (const def of kinds) if (def.scope === 'space' && def !== namespaces && def.verbs.includes('deletecollection')) await deleteAll(generic, def, tenant);

  let remaining = 0;
  for (const def of kinds) {
    if (def.scope !== 'cluster' && def.verbs.includes('list')) remaining += (await generic.list(def, { tenant }, { limit: 1 })).items.length;
  }
  return remaining;
}
