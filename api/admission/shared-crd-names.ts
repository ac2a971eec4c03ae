/**
 * A space may not define a CRD under the name of a system CRD shared with every space (it would
 * shadow the kind every space serves): the create is 409, saying which CRD holds the name.
 */
import { APIEXTENSIONS_GROUP } from '../schema/apiextensions-types.js';
import type { AdmissionPlugin } from '../registry/generic-store.js';
import { SYSTEM_TENANT } from '../spaces.js';
import { ApiError } from '../status.js';

export function sharedCrdNames(isSharedCrd: (name: string) => boolean): AdmissionPlugin {
  return {
    admit({ operation, def, tenant, object }) {
      if (operation !== 'create' || def.group !== APIEXTENSIONS_GROUP || def.resource !== 'customresourcedefinitions' || tenant === SYSTEM_TENANT) return;
      const name = object.metadata.name ?? '';
      if (!isSharedCrd(name)) return;
      throw new ApiError(409, 'AlreadyExists', `customresourcedefinitions.${APIEXTENSIONS_GROUP} "${name}" already exists: a system CRD shared with every space holds this name`, {
        name,
        group: APIEXTENSIONS_GROUP,
        kind: 'customresourcedefinitions',
      });
    },
  };
}
