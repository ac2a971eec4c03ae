/**
 * Where admission policies come from: each space's own policies and bindings (from informers),
 * and the system space's policies marked for every space. A policy and its binding in the system
 * space both labelled `kube-spaces.io/all-spaces: "true"` act on every space's requests; without
 * the label they act on the system space's only. System-wide ones run first (DESIGN.md §8b).
 */
import { SYSTEM_TENANT } from '../tenant-lifecycle.js';
import type { KubeObject } from '../../registry/object.js';
import type { LabelSelector } from '../../selection/label-selector.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import type { BindingObject, PolicyObject } from '../../kinds/admissionregistration/policy-types.js';
import type { GroupVersionResource } from './policy-request.js';
import type { AccessAttributes, AccessDecision, UserInfo } from '../../access.js';

/** The label (on both policy and binding, or webhook configuration) that makes system-space admission act on every space. */
export const ALL_SPACES_LABEL = 'kube-spaces.io/all-spaces';

/** One kind of policy and its bindings, by space. */
export interface PolicyLister<P extends PolicyObject, B extends BindingObject> {
  policies(tenant: string): readonly P[];
  bindings(tenant: string): readonly B[];
}

/** What the policy plugins read besides the policies: namespaces, param kinds and params. */
export interface PolicyReaders {
  namespace(tenant: string, name: string): Promise<KubeObject | undefined>;
  /** The kind `apiVersion`/`kind` names in a space (its own CRDs included), or undefined. */
  kindFor(tenant: string, apiVersion: string, kind: string): ResourceDefinition | undefined;
  /** One object from memory (the watch cache), never another space's. */
  get(def: ResourceDefinition, tenant: string, namespace: string | undefined, name: string): Promise<KubeObject | undefined>;
  /** The objects of one space (and namespace) a label selector picks, from memory. */
  select(def: ResourceDefinition, tenant: string, namespace: string | undefined, selector: LabelSelector): Promise<KubeObject[]>;
  /** The other group versions serving the same resource as `def` (matchPolicy Equivalent). */
  equivalents(def: ResourceDefinition): readonly GroupVersionResource[];
  /** The server's authorization decision, for the `authorizer` variable; without it, checks are errors. */
  authorize?(user: UserInfo, attrs: AccessAttributes): AccessDecision;
}

/** A policy with the bindings that name it, from one space. */
export interface BoundPolicy<P extends PolicyObject, B extends BindingObject> {
  tenant: string;
  policy: P;
  bindings: B[];
}

const marked = (obj: KubeObject): boolean => obj.metadata.labels?.[ALL_SPACES_LABEL] === 'true';

/**
 * The policies acting on a request in `tenant`, system-wide ones first, each space's sorted by
 * name (kube sorts by name too, so an answer does not depend on informer order).
 */
export function policiesFor<P extends PolicyObject, B extends BindingObject>(lister: PolicyLister<P, B>, tenant: string): BoundPolicy<P, B>[] {
  const out: BoundPolicy<P, B>[] = [];
  const collect = (space: string, onlyMarked: boolean): void => {
    const policies = lister.policies(space).filter((p) => !onlyMarked || marked(p));
    if (policies.length === 0) return;
    const bindings = lister.bindings(space).filter((b) => !onlyMarked || marked(b));
    const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);
    for (const policy of [...policies].sort(byName)) {
      const mine = bindings.filter((b) => b.spec?.policyName === policy.metadata.name).sort(byName);
      if (mine.length > 0) out.push({ tenant: space, policy, bindings: mine });
    }
  };
  if (tenant !== SYSTEM_TENANT) collect(SYSTEM_TENANT, true);
  collect(tenant, false);
  return out;
}
