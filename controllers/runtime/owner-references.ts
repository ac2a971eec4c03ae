/**
 * Controller references (`metadata.ownerReferences[controller=true]`) and the index of objects by
 * their controller, shared by the workload controllers. A reference only ever means an owner of
 * the dependent's own space: every value carries the tenant, so two spaces never meet, even with
 * the same names (uids are unique anyway; the tenant makes it structural).
 *
 * @example
 *   pods.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });   // safe to repeat for a shared informer
 *   pods.lister<Pod>().byIndex(CONTROLLER_INDEX, controllerIndexValue(job)); // the job's pods, its space only
 */
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import type { IndexFunc } from './indexer.js';

/** Objects by `<tenant>/<controller uid>`. */
export const CONTROLLER_INDEX = 'controller';

export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

export function controllerIndexValue(owner: KubeObject): string {
  return `${owner.metadata.tenant ?? ''}/${owner.metadata.uid ?? ''}`;
}

/** One function object, so every controller sharing an informer registers the same index. */
export const controllerIndexFunc: IndexFunc = (obj) => {
  const ref = controllerRefOf(obj);
  return ref ? [`${obj.metadata.tenant ?? ''}/${ref.uid}`] : [];
};

/** The reference a controller puts on what it makes: controller, and blocking a foreground deletion. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** Whether `obj` is controlled by `owner`: same space, same namespace, the owner's uid. */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const ref = controllerRefOf(obj);
  return (
    ref !== undefined &&
    ref.uid === owner.metadata.uid &&
    (obj.metadata.tenant ?? '') === (owner.metadata.tenant ?? '') &&
    (obj.metadata.namespace ?? '') === (owner.metadata.namespace ?? '')
  );
}

/** The key of the controller of `obj` if it is of `kind` (in the object's own space and namespace). */
export function controllerKeyOf(obj: KubeObject, kind: string, group: string): { tenant: string; namespace: string; name: string } | undefined {
  const ref = controllerRefOf(obj);
  if (!ref || ref.kind !== kind) return undefined;
  const refGroup = ref.apiVersion.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
  if (refGroup !== group) return undefined;
  return { tenant: obj.metadata.tenant ?? '', namespace: obj.metadata.namespace ?? '', name: ref.name };
}
