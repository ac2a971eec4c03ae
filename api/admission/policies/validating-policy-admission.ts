/**
 * ValidatingAdmissionPolicy as an admission plugin (kube's `policy/validating` dispatcher and
 * validator): for each policy matching the request, each of its bindings matching it, and each
 * param, the validations run; a failed one is denied, warned or audited per the binding's
 * validationActions. The first denial answers the request in kube's words:
 * `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`
 * with the validation's reason (Invalid by default) and its code.
 *
 * Policies, bindings and params are read from memory (informers, the watch cache); compiled
 * expressions are kept per policy object, so a policy compiles once per version.
 */
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/generic-store.js';
import { ApiError, type StatusReason } from '../../status.js';
import type { AuditAnnotation, Validation, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../kinds/admissionregistration/validating-admission-policy.js';
import { compileCommon, compileOne, PolicyEvaluation, type CompiledCommon, type PolicyExpression } from './policy-program.js';
import { collectParams } from './policy-params.js';
import { matchesResources, matchingResource, type PolicyRequest } from './policy-request.js';
import { policiesFor, type PolicyLister, type PolicyReaders } from './policy-sources.js';
import { authorizerFor, namespaceObjectValue, policyRequestOf, requestValueFor } from './policy-attributes.js';

const MAX_MESSAGE_BYTES = 5 * 1024; // kube's MaxEvaluatedMessageExpressionSizeBytes
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;
export const VALIDATION_FAILURE_ANNOTATION = 'validation.policy.admission.k8s.io/validation_failure';

interface CompiledValidatingPolicy extends CompiledCommon {
  validations: Array<{ validation: Validation; expr: PolicyExpression; message?: PolicyExpression }>;
  auditAnnotations: Array<{ annotation: AuditAnnotation; expr: PolicyExpression }>;
}

/** One policy's compiled expressions, per policy object (a new version is a new object). */
const compiledPolicies = new WeakMap<ValidatingAdmissionPolicy, CompiledValidatingPolicy>();

function compiledPolicy(policy: ValidatingAdmissionPolicy): CompiledValidatingPolicy {
  const known = compiledPolicies.get(policy);
  if (known) return known;
  const spec = policy.spec ?? {};
  const common = compileCommon(spec);
  const opts = { hasParams: common.hasParams, variables: common.variables.map((v) => v.name) };
  const compiled: CompiledValidatingPolicy = {
    ...common,
    validations: (spec.validations ?? []).map((validation) => ({
      validation,
      expr: compileOne(validation.expression ?? '', opts, 'bool'),
      ...(validation.messageExpression ? { message: compileOne(validation.messageExpression, opts, 'string') } : {}),
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((annotation) => ({ annotation, expr: compileOne((annotation.valueExpression ?? '').trim(), opts, 'any') })),
  };
  compiledPolicies.set(policy, compiled);
  return compiled;
}

/** A failed validation or a configuration error, with the policy and binding it came from. */
interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason?: string;
}

interface Decision {
  deny: boolean;
  message: string;
  reason?: string;
  /** The validation's index, for the audit annotation. */
  index: number;
}

interface AnnotationResult {
  key: string;
  value?: string;
  error?: string;
}

/** kube's reasonToCode. */
function codeOf(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    case 'Invalid':
      return 422;
    default:
      return 400;
  }
}

/** The message of a failed validation: the messageExpression's string, else the message, else the expression. */
function failureMessage(evaluation: PolicyEvaluation, v: CompiledValidatingPolicy['validations'][number]): string {
  if (v.message) {
    const result = evaluation.run(v.message);
    if ('value' in result && typeof result.value === 'string') {
      const text = result.value.trim();
      if (text !== '' && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES && !text.includes('\n')) return text;
    }
  }
  const message = (v.validation.message ?? '').trim();
  return message !== '' ? message : `failed expression: ${(v.validation.expression ?? '').trim()}`;
}

/** kube's validator.Validate: the decisions of each validation and the audit annotations. */
function validate(evaluation: PolicyEvaluation, compiled: CompiledValidatingPolicy, failClosed: boolean): { decisions: Decision[]; annotations: AnnotationResult[] } {
  const matched = evaluation.matchConditions(compiled.matchConditions);
  if (matched === false) return { decisions: [], annotations: [] };
  if (matched !== true) return { decisions: failClosed ? [{ deny: true, message: matched.error, index: 0 }] : [], annotations: [] };
  const decisions: Decision[] = [];
  compiled.validations.forEach((v, index) => {
    const result = evaluation.run(v.expr);
    if ('error' in result) {
      if (failClosed) decisions.push({ deny: true, message: result.error, index });
    } else if (result.value !== true) {
      decisions.push({ deny: true, message: failureMessage(evaluation, v), reason: v.validation.reason ?? 'Invalid', index });
    }
  });
  const annotations: AnnotationResult[] = [];
  for (const a of compiled.auditAnnotations) {
    const key = a.annotation.key ?? '';
    const result = evaluation.run(a.expr);
    if ('error' in result) {
      if (failClosed) annotations.push({ key, error: result.error });
    } else if (typeof result.value === 'string') {
      const value = result.value.trim();
      if (value !== '') annotations.push({ key, value: value.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) });
    } else if (result.value !== null) {
      annotations.push({ key, error: `valueExpression '${a.annotation.valueExpression ?? ''}' resulted in unsupported return type: ${celTypeName(result.value)}. Return type must be either string or null.` });
    }
  }
  return { decisions, annotations };
}

function celTypeName(value: unknown): string {
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'map' : typeof value;
}

/** The Status of the first denial, as kube's dispatcher builds it with admission.NewForbidden. */
function denialError(req: PolicyRequest, denial: Denial): ApiError {
  const message = denial.binding
    ? `ValidatingAdmissionPolicy '${denial.policy}' with binding '${denial.binding}' denied request: ${denial.message}`
    : `ValidatingAdmissionPolicy '${denial.policy}' denied request: ${denial.message}`;
  const reason = denial.reason ?? 'Invalid';
  const resource = req.gvr.group ? `${req.gvr.resource}.${req.gvr.group}` : req.gvr.resource;
  const name = req.name || 'Unknown';
  return new ApiError(codeOf(reason), reason as StatusReason, `${resource} "${name}" is forbidden: ${message}`, {
    name,
    ...(req.gvr.group ? { group: req.gvr.group } : {}),
    kind: req.gvr.resource,
    causes: [{ message }],
  });
}

export interface ValidatingPolicyOptions {
  lister: PolicyLister<ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding>;
  readers: PolicyReaders;
}

/** The ValidatingAdmissionPolicy plugin: validating phase only. */
export function validatingPolicyAdmission(options: ValidatingPolicyOptions): AdmissionPlugin {
  const { lister, readers } = options;
  return {
    async admit(attrs: AdmissionAttributes): Promise<void> {
      const bound = policiesFor(lister, attrs.tenant);
      if (bound.length === 0) return;
      const req = policyRequestOf(attrs, readers);
      const namespaceLabels = async (r: PolicyRequest) => {
        const ns = await readers.namespace(r.tenant, r.namespace);
        return ns ? (ns.metadata.labels ?? {}) : undefined;
      };
      const denials: Denial[] = [];
      for (const { tenant: policyTenant, policy, bindings } of bound) {
        const spec = policy.spec ?? {};
        const constraints = spec.matchConstraints;
        if (!(await matchesResources(constraints, req, namespaceLabels))) continue;
        const matched = matchingResource(constraints?.resourceRules ?? [], constraints?.matchPolicy, req) ?? req.gvr;
        const failClosed = spec.failurePolicy !== 'Ignore';
        const policyName = policy.metadata.name ?? '';
        const compiled = compiledPolicy(policy);
        const collected = new Map<string, string[]>();
        for (const binding of bindings) {
          if (!(await matchesResources(binding.spec?.matchResources, req, namespaceLabels))) continue;
          const bindingName = binding.metadata.name ?? '';
          const params = await collectParams(readers, policyTenant, spec.paramKind, binding.spec?.paramRef, req.namespace);
          if ('error' in params) {
            if (failClosed) denials.push({ policy: policyName, binding: bindingName, message: `failed to configure binding: ${params.error}` });
            continue;
          }
          const namespaceObject = req.namespace && !(req.gvr.group === '' && req.gvr.resource === 'namespaces') ? namespaceObjectValue(await readers.namespace(req.tenant, req.namespace)) : null;
          const actions = binding.spec?.validationActions ?? [];
          for (const param of params.params) {
            const evaluation = new PolicyEvaluation(
              { object: req.object, oldObject: req.oldObject, request: requestValueFor(req, matched), params: param, namespaceObject },
              compiled,
              authorizerFor(attrs, readers),
            );
            const { decisions, annotations } = validate(evaluation, compiled, failClosed);
            for (const d of decisions) {
              if (actions.includes('Deny')) denials.push({ policy: policyName, binding: bindingName, message: d.message, reason: d.reason });
              if (actions.includes('Warn')) attrs.warnings?.push(`Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${d.message}`);
              if (actions.includes('Audit')) {
                const value = JSON.stringify([{ message: d.message, policy: policyName, binding: bindingName, expressionIndex: d.index, validationActions: actions }]);
                attrs.auditAnnotations?.set(VALIDATION_FAILURE_ANNOTATION, value);
              }
            }
            for (const a of annotations) {
              if (a.error !== undefined) {
                denials.push({ policy: policyName, binding: bindingName, message: a.error });
              } else {
                const values = collected.get(a.key) ?? [];
                if (!values.includes(a.value!)) values.push(a.value!);
                collected.set(a.key, values);
              }
            }
          }
        }
        for (const [key, values] of collected) attrs.auditAnnotations?.set(`${policyName}/${key}`, values.join(', '));
      }
      if (denials.length > 0) throw denialError(req, denials[0]!);
    },
  };
}
