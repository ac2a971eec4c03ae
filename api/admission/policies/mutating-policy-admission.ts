/**
 * MutatingAdmissionPolicy as an admission plugin (kube's `policy/mutating` dispatcher), in the
 * mutating phase: for each policy and binding matching the request, and each param, the
 * mutations run in order on the object as it is by then. An ApplyConfiguration's object is merged
 * into the object as server-side apply merges (`api/apply/merge-objects.ts`, by the kind's
 * schema); a JSONPatch's list of operations is applied as a JSON patch request's. Policies with
 * `reinvocationPolicy: IfNeeded` run once more when later mutations changed the object.
 */
import { celToJson } from '../../cel/index.js';
import { mergeObjects } from '../../apply/merge-objects.js';
import type { JsonValue } from '../../apply/json-value.js';
import { applyJsonPatch } from '../../patch/apply-patch.js';
import { askedWrite, type AdmissionAttributes, type AdmissionPlugin, type AskedWrite } from '../../registry/generic-store.js';
import { replaceContents, type KubeObject } from '../../registry/object.js';
import { ApiError } from '../../status.js';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding, Mutation } from '../../kinds/admissionregistration/mutating-admission-policy.js';
import { authorizerFor, namespaceObjectValue, policyRequestOf, requestValueFor } from './policy-attributes.js';
import { collectParams } from './policy-params.js';
import { compileCommon, compileOne, PolicyEvaluation, type CompiledCommon, type PolicyExpression } from './policy-program.js';
import { matchesResources, matchingResource, type PolicyRequest } from './policy-request.js';
import { policiesFor, type BoundPolicy, type PolicyLister, type PolicyReaders } from './policy-sources.js';

interface CompiledMutatingPolicy extends CompiledCommon {
  mutations: Array<{ patchType: string; expr: PolicyExpression }>;
}

const compiledPolicies = new WeakMap<MutatingAdmissionPolicy, CompiledMutatingPolicy>();

function compiledPolicy(policy: MutatingAdmissionPolicy): CompiledMutatingPolicy {
  const known = compiledPolicies.get(policy);
  if (known) return known;
  const spec = policy.spec ?? {};
  const common = compileCommon(spec);
  const opts = { hasParams: common.hasParams, variables: common.variables.map((v) => v.name), objectLiterals: true };
  const expressionOf = (m: Mutation): string => (m.patchType === 'JSONPatch' ? m.jsonPatch?.expression : m.applyConfiguration?.expression) ?? '';
  const compiled: CompiledMutatingPolicy = { ...common, mutations: (spec.mutations ?? []).map((m) => ({ patchType: m.patchType ?? '', expr: compileOne(expressionOf(m), opts, 'any') })) };
  compiledPolicies.set(policy, compiled);
  return compiled;
}

/** One mutation's result applied to `object`: the new object, or why not. */
function applyMutation(asked: AskedWrite, object: KubeObject, patchType: string, value: unknown): { object: KubeObject } | { error: string } {
  const json = celToJson(value);
  if (patchType === 'JSONPatch') {
    if (!Array.isArray(json)) return { error: 'JSONPatch expression must evaluate to a list of JSONPatch objects' };
    try {
      return { object: applyJsonPatch(object, json) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { error: 'ApplyConfiguration expression must evaluate to an object' };
  const merged = mergeObjects(object as unknown as JsonValue, json as JsonValue, asked.schema);
  if (merged.errors.length > 0) return { error: merged.errors.join('; ') };
  return { object: merged.value as unknown as KubeObject };
}

/** kube's answer to a failing mutation under failurePolicy Fail. */
function mutationError(req: PolicyRequest, policy: string, binding: string, message: string): ApiError {
  const text = `MutatingAdmissionPolicy '${policy}' with binding '${binding}' denied request: ${message}`;
  const resource = req.gvr.group ? `${req.gvr.resource}.${req.gvr.group}` : req.gvr.resource;
  const name = req.name || 'Unknown';
  return new ApiError(403, 'Forbidden', `${resource} "${name}" is forbidden: ${text}`, { name, ...(req.gvr.group ? { group: req.gvr.group } : {}), kind: req.gvr.resource, causes: [{ message: text }] });
}

export interface MutatingPolicyOptions {
  lister: PolicyLister<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding>;
  readers: PolicyReaders;
}

/** The MutatingAdmissionPolicy plugin: mutating phase only. */
export function mutatingPolicyAdmission(options: MutatingPolicyOptions): AdmissionPlugin {
  const { lister, readers } = options;
  const namespaceLabels = async (r: PolicyRequest) => {
    const ns = await readers.namespace(r.tenant, r.namespace);
    return ns ? (ns.metadata.labels ?? {}) : undefined;
  };

  /** Runs one policy's bindings; whether it changed the object. */
  async function invoke(attrs: AdmissionAttributes, bound: BoundPolicy<MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding>): Promise<boolean> {
    const { tenant: policyTenant, policy, bindings } = bound;
    const req = policyRequestOf(attrs, readers);
    const asked = askedWrite(attrs);
    const spec = policy.spec ?? {};
    if (!(await matchesResources(spec.matchConstraints, req, namespaceLabels))) return false;
    const matched = matchingResource(spec.matchConstraints?.resourceRules ?? [], spec.matchConstraints?.matchPolicy, req) ?? req.gvr;
    const failClosed = spec.failurePolicy !== 'Ignore';
    const policyName = policy.metadata.name ?? '';
    const compiled = compiledPolicy(policy);
    let changed = false;
    for (const binding of bindings) {
      if (!(await matchesResources(binding.spec?.matchResources, req, namespaceLabels))) continue;
      const bindingName = binding.metadata.name ?? '';
      const fail = (message: string): void => {
        if (failClosed) throw mutationError(req, policyName, bindingName, message);
      };
      const params = await collectParams(readers, policyTenant, spec.paramKind, binding.spec?.paramRef, req.namespace);
      if ('error' in params) {
        fail(`failed to configure binding: ${params.error}`);
        continue;
      }
      const isNamespace = req.gvr.group === '' && req.gvr.resource === 'namespaces';
      const namespaceObject = req.namespace && !isNamespace ? namespaceObjectValue(await readers.namespace(req.tenant, req.namespace)) : null;
      for (const param of params.params) {
        const evaluation = new PolicyEvaluation(
          { object: asked.object, oldObject: req.oldObject, request: requestValueFor(req, matched), params: param, namespaceObject },
          compiled,
          authorizerFor(attrs, readers),
        );
        const matches = evaluation.matchConditions(compiled.matchConditions);
        if (matches === false) continue;
        if (matches !== true) {
          fail(matches.error);
          continue;
        }
        for (const m of compiled.mutations) {
          const result = evaluation.run(m.expr);
          if ('error' in result) {
            fail(result.error);
            continue;
          }
          const next = applyMutation(asked, asked.object, m.patchType, result.value);
          if ('error' in next) {
            fail(next.error);
            continue;
          }
          if (JSON.stringify(next.object) !== JSON.stringify(asked.object)) {
            replaceContents(asked.object, next.object);
            changed = true;
          }
        }
      }
    }
    return changed;
  }

  return {
    async mutate(attrs: AdmissionAttributes): Promise<void> {
      // Policies mutate writes of objects; a deletion has no object to change.
      if (askedWrite(attrs).operation === 'delete') return;
      const bound = policiesFor(lister, attrs.tenant);
      if (bound.length === 0) return;
      const changedBy = new Set<number>();
      for (const [i, b] of bound.entries()) if (await invoke(attrs, b)) changedBy.add(i);
      // Reinvocation (once): an IfNeeded policy runs again when another changed the object after it ran.
      if (changedBy.size === 0) return;
      for (const [i, b] of bound.entries()) {
        if (b.policy.spec?.reinvocationPolicy === 'IfNeeded' && [...changedBy].some((j) => j > i)) await invoke(attrs, b);
      }
    },
    admit(): void {},
  };
}
