/**
 * The ValidatingAdmissionPolicy status controller (kube-apiserver's type-checking controller,
 * `validating/controller_reconcile.go`): one instance over every space. For each policy whose
 * `status.observedGeneration` is behind its generation, it type-checks the expressions against
 * the kinds the policy's rules name (`api/admission/policies/type-checking.ts`) and writes
 * `status.observedGeneration` and `status.typeChecking` through the status subresource.
 */
import type { GenericStore } from '../../../api/registry/generic-store.js';
import type { ResourceRegistry } from '../../../api/registry/registry.js';
import type { ResourceDefinition } from '../../../api/registry/resource-definition.js';
import type { ValidatingAdmissionPolicy } from '../../../api/kinds/admissionregistration/validating-admission-policy.js';
import { kindsOfRules, typeCheck, type PolicyExpressionRef } from '../../../api/admission/policies/type-checking.js';
import { ApiError } from '../../../api/status.js';
import { Controller, done, type ReconcileResult } from '../../../controllers/runtime/controller.js';
import type { Informer } from '../../../controllers/runtime/informer.js';
import type { ObjectKey } from '../../client/object-key.js';

export interface PolicyStatusControllerDeps {
  generic: GenericStore;
  policies: Informer;
  policyDef: ResourceDefinition;
  registry: ResourceRegistry;
  log: { error(obj: object, msg: string): void };
}

/** Every expression of a validating policy, with the path kube's warnings name. */
export function validatingPolicyExpressions(policy: ValidatingAdmissionPolicy): PolicyExpressionRef[] {
  const spec = policy.spec ?? {};
  const refs: PolicyExpressionRef[] = [];
  (spec.matchConditions ?? []).forEach((c, i) => refs.push({ fieldRef: `spec.matchConditions[${i}].expression`, source: c.expression ?? '' }));
  (spec.variables ?? []).forEach((v, i) => refs.push({ fieldRef: `spec.variables[${i}].expression`, source: v.expression ?? '' }));
  (spec.validations ?? []).forEach((v, i) => {
    refs.push({ fieldRef: `spec.validations[${i}].expression`, source: v.expression ?? '' });
    if (v.messageExpression) refs.push({ fieldRef: `spec.validations[${i}].messageExpression`, source: v.messageExpression });
  });
  (spec.auditAnnotations ?? []).forEach((a, i) => refs.push({ fieldRef: `spec.auditAnnotations[${i}].valueExpression`, source: a.valueExpression ?? '' }));
  return refs;
}

async function reconcilePolicy(deps: PolicyStatusControllerDeps, key: ObjectKey): Promise<ReconcileResult> {
  const policy = deps.policies.get(key) as ValidatingAdmissionPolicy | undefined;
  if (!policy || policy.metadata.deletionTimestamp) return done;
  const generation = policy.metadata.generation ?? 0;
  if (policy.status?.observedGeneration === generation) return done;
  const view = deps.registry.view(key.tenant);
  const kinds = kindsOfRules(policy.spec?.matchConstraints?.resourceRules ?? [], (g, v, r) => view.lookup(g, v, r));
  const warnings = typeCheck(policy, validatingPolicyExpressions(policy), kinds);
  try {
    await deps.generic.mutate(
      deps.policyDef,
      { tenant: key.tenant, name: key.name },
      (current) => {
        const status = (current as ValidatingAdmissionPolicy).status ?? {};
        // Written for the generation checked; a newer one is checked on its own change.
        if ((current.metadata.generation ?? 0) !== generation) return current;
        current.status = { ...status, observedGeneration: generation, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} };
        return current;
      },
      { subresource: 'status' },
    );
  } catch (err) {
    if (err instanceof ApiError && err.reason === 'NotFound') return done;
    throw err;
  }
  return done;
}

export function policyStatusController(deps: PolicyStatusControllerDeps): Controller {
  const controller = new Controller({ name: 'validating-admission-policy-status', reconcile: (key) => reconcilePolicy(deps, key), log: deps.log });
  deps.policies.onChange((key, obj) => {
    if (obj) controller.enqueue(key);
  });
  return controller;
}
