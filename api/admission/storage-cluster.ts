/**
 * A Tenant's `spec.storageClusterId` must name a storage cluster this server is configured with
 * (`--storage-cluster`), checked when the Tenant is created: its space's keys go there from its
 * first write (the field is immutable, see the Tenant kind). The system space stays in the default
 * store, with Tenants and every other object above the spaces.
 */
import { invalid } from '../registry/api-errors.js';
import { fieldErrors } from '../registry/field-error.js';
import type { AdmissionPlugin } from '../registry/generic-store.js';
import type { Tenant } from '../kinds/core/tenant.js';
import { SYSTEM_TENANT } from '../spaces.js';

const FIELD = 'spec.storageClusterId';

/** `pinnable`: the configured clusters a space may be pinned to (not the default store). */
export function storageClusterAdmission(pinnable: readonly string[]): AdmissionPlugin {
  return {
    admit({ operation, def, object }) {
      if (operation !== 'create' || def.group !== '' || def.resource !== 'tenants') return;
      const id = (object as Tenant).spec?.storageClusterId;
      if (id === undefined) return;
      const name = object.metadata.name ?? '';
      if (name === SYSTEM_TENANT) throw invalid(def, name, [fieldErrors.forbidden(FIELD, 'the system space stays in the default store')]);
      if (pinnable.includes(id)) return;
      const error = pinnable.length > 0 ? fieldErrors.notSupported(FIELD, id, [...pinnable]) : fieldErrors.invalid(FIELD, id, 'no storage cluster is configured (--storage-cluster)');
      throw invalid(def, name, [error]);
    },
  };
}
