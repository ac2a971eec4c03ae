/**
 * Owners and the objects they control, as kube's ControllerRefManager decides them, with the space
 * in every comparison: an owner claims only objects of its own space and namespace. An object
 * with no controller that the owner's selector matches is adopted (the owner becomes its
 * controller); an object the owner controls that no longer matches is released; an object another
 * owner controls is left alone.
 *
 * @example
 *   const claimed = await claimObjects(rs, pods, (pod) => labelSelectorMatches(sel, pod.metadata.labels), writer);
 */
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { isNotFound } from '../../src/client/api-status.js';

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((ref) => ref.controller === true);
}

/** The reference an owner puts on what it creates or adopts. */
export function controllerReference(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

export function sameSpaceAndNamespace(a: KubeObject, b: KubeObject): boolean {
  return (a.metadata.tenant ?? '') === (b.metadata.tenant ?? '') && (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');
}

export interface ClaimWriter<T extends KubeObject> {
  /** Writes the object with these owner references (an update at the cached resourceVersion). */
  setOwnerReferences(obj: T, refs: OwnerReference[]): Promise<void>;
  /** Whether the owner may still adopt: read fresh, it exists with the same uid and is not being deleted. */
  canAdopt(): Promise<boolean>;
}

/**
 * The objects the owner controls after adopting matching orphans and releasing what no longer
 * matches. Failed adoptions are left out (the next sync tries again); a release that finds the
 * object gone is no error.
 */
export async function claimObjects<T extends KubeObject>(owner: KubeObject, candidates: T[], matches: (obj: T) => boolean, ownerRef: OwnerReference, writer: ClaimWriter<T>): Promise<T[]> {
  const claimed: T[] = [];
  let adoptable: boolean | undefined;
  for (const obj of candidates) {
    if (!sameSpaceAndNamespace(owner, obj)) continue;
    const ref = controllerOf(obj);
    if (ref) {
      if (ref.uid !== owner.metadata.uid) continue;
      if (matches(obj)) {
        claimed.push(obj);
        continue;
      }
      if (owner.metadata.deletionTimestamp) continue;
      try {
        await writer.setOwnerReferences(obj, (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.metadata.uid));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      continue;
    }
    if (owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp || !matches(obj)) continue;
    adoptable ??= await writer.canAdopt();
    if (!adoptable) continue;
    try {
      await writer.setOwnerReferences(obj, [...(obj.metadata.ownerReferences ?? []), ownerRef]);
      claimed.push(obj);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return claimed;
}
