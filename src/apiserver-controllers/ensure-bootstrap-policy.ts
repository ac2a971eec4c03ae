/**
 * Writes the default roles and bindings into the system space at start (kube-apiserver's RBAC
 * bootstrap). What is missing is created; what exists is brought back to the defaults unless an
 * admin set its `rbac.authorization.kubernetes.io/autoupdate` annotation to "false". The rules of
 * aggregated roles belong to the aggregation controller and are left to it.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import { semanticEqual } from '../../api/validation/equality.js';
import { AUTOUPDATE_ANNOTATION, bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../../authz/rbac/bootstrap-policy.js';
import { ApiError } from '../../api/status.js';

export interface BootstrapPolicyKinds {
  clusterRoles: ResourceDefinition;
  clusterRoleBindings: ResourceDefinition;
}

/** The fields the defaults own: everything but metadata, and the labels. */
function policyFields(obj: KubeObject): Record<string, unknown> {
  const { metadata, apiVersion: _a, kind: _k, ...fields } = obj;
  if ('aggregationRule' in fields) delete fields.rules;
  return { ...fields, labels: metadata.labels ?? {} };
}

async function ensure(generic: GenericStore, def: ResourceDefinition, wanted: KubeObject): Promise<void> {
  const loc = { tenant: SYSTEM_TENANT, name: wanted.metadata.name! };
  try {
    await generic.create(def, { tenant: SYSTEM_TENANT }, wanted);
    return;
  } catch (err) {
    if (!(err instanceof ApiError && err.reason === 'AlreadyExists')) throw err;
  }
  const current = await generic.get(def, loc);
  if (current.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === 'false') return;
  if (semanticEqual(policyFields(current), policyFields(wanted))) return;
  await generic.mutate(def, loc, (obj) => {
    const { metadata, apiVersion: _a, kind: _k, ...fields } = wanted;
    const kept = 'aggregationRule' in fields ? { rules: obj.rules } : {};
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, ...metadata.labels } }, ...fields, ...kept };
  });
}

export async function ensureBootstrapPolicy(generic: GenericStore, kinds: BootstrapPolicyKinds): Promise<void> {
  await Promise.all([
    ...bootstrapClusterRoles().map((role) => ensure(generic, kinds.clusterRoles, role)),
    ...bootstrapClusterRoleBindings().map((binding) => ensure(generic, kinds.clusterRoleBindings, binding)),
  ]);
}
