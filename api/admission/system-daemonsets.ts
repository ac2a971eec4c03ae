/**
 * DaemonSets belong to the system space only. A DaemonSet runs a pod on every eligible node, and
 * nodes are above the spaces, shared by all of them: a tenant's DaemonSet would put its pods on
 * machines every other space runs on (a noisy neighbour on each of them, and through the node
 * usage index, a view of every node). Arktos allowed DaemonSets only in the system space; so do
 * we. A create in any other space is 403 Forbidden, in kube-apiserver's wording for refusals.
 */
import type { AdmissionPlugin } from '../registry/generic-store.js';
import { SYSTEM_TENANT } from '../spaces.js';
import { ApiError } from '../status.js';

export const TENANT_DAEMONSET_MESSAGE = 'DaemonSets may only be created in the system space: they run a pod on every node, and nodes are shared by all spaces';

export function systemDaemonSets(): AdmissionPlugin {
  return {
    admit({ operation, def, tenant, object }) {
      if (operation !== 'create' || def.group !== 'apps' || def.resource !== 'daemonsets' || tenant === SYSTEM_TENANT) return;
      const name = object.metadata.name ?? '';
      throw new ApiError(403, 'Forbidden', `daemonsets.apps "${name}" is forbidden: ${TENANT_DAEMONSET_MESSAGE}`, { name, group: 'apps', kind: 'daemonsets' });
    },
  };
}
