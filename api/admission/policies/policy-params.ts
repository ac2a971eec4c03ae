/**
 * The params of one binding (kube's `generic.CollectParams`), read only from the space the
 * policy lives in: a tenant's policy can never read another space's objects, whatever its
 * paramKind or paramRef says. Without a paramKind or paramRef the policy runs once with no params.
 */
import type { KubeObject } from '../../registry/object.js';
import type { ParamKind, ParamRef } from '../../kinds/admissionregistration/policy-types.js';
import { fromSelectorObject } from '../../selection/label-selector.js';
import type { PolicyReaders } from './policy-sources.js';

/** The params to evaluate with (`[null]`: once without), or a configuration error (kube's wording). */
export type ParamsResult = { params: Array<KubeObject | null> } | { error: string };

/** Go's `ParamKind.String()`, which kube's errors print. */
const paramKindText = (pk: ParamKind): string => `&ParamKind{APIVersion:${pk.apiVersion ?? ''},Kind:${pk.kind ?? ''},}`;

export async function collectParams(
  readers: PolicyReaders,
  policyTenant: string,
  paramKind: ParamKind | undefined,
  paramRef: ParamRef | undefined,
  requestNamespace: string,
): Promise<ParamsResult> {
  if (!paramKind || !paramRef) return { params: [null] };
  const def = readers.kindFor(policyTenant, paramKind.apiVersion ?? '', paramKind.kind ?? '');
  if (!def) return { error: `paramKind kind \`${paramKindText(paramKind)}\` not known` };
  let namespace: string | undefined;
  if (def.scope === 'namespace') {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  } else if (paramRef.namespace) {
    return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };
  }
  let params: KubeObject[];
  if (paramRef.name) {
    if (paramRef.selector) return { error: 'paramRef.name and paramRef.selector are mutually exclusive' };
    const param = await readers.get(def, policyTenant, namespace, paramRef.name);
    params = param ? [param] : [];
  } else if (paramRef.selector) {
    params = await readers.select(def, policyTenant, namespace, fromSelectorObject(paramRef.selector)!);
  } else {
    return { error: 'one of name or selector must be provided' };
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  return { params };
}
