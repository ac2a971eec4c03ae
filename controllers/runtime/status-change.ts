/**
 * Whether a change event only rewrote an object's status. A controller that reconciles what an
 * object asks for (its spec, labels, deletion) skips these: a Tenant's status changes with every
 * write its space's quota charges, and reacting to each would be work for nothing (or, for a
 * reconcile that itself creates objects in the space, a loop of charges and reactions).
 *
 * @example
 *   tenants.onChange((key, obj, previous) => {
 *     if (obj && !changedOnlyStatus(obj, previous)) controller.enqueue(key);
 *   });
 */
import type { KubeObject } from '../../api/registry/object.js';

function withoutStatus(obj: KubeObject): string {
  return JSON.stringify({ ...obj, status: undefined, metadata: { ...obj.metadata, resourceVersion: undefined, managedFields: undefined } });
}

export function changedOnlyStatus(obj: KubeObject, previous: KubeObject | undefined): boolean {
  return previous !== undefined && previous !== obj && withoutStatus(obj) === withoutStatus(previous);
}
