/**
 * admissionregistration.k8s.io MutatingAdmissionPolicy and MutatingAdmissionPolicyBinding: CEL
 * mutations of a space's requests (evaluated by `api/admission/policies/`). Served as v1
 * (kube-apiserver 1.36), v1beta1 (1.34) and v1alpha1 (1.32–1.33, which kubectl 1.33 discovers),
 * one storage in v1beta1: the versions have the same fields. Space-scoped. Kubernetes' behaviour:
 * `pkg/apis/admissionregistration/validation` (validateMutatingAdmissionPolicy), printers.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type ResourceDefinition } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, list, object, string, type Schema } from '../../schema/schema.js';
import { child, index } from '../../validation/field-path.js';
import {
  ADMISSION_GROUP,
  defaultMatchResources,
  defaultPolicySpec,
  matchConditionsField,
  matchResourcesSchema,
  paramKindCell,
  paramRefCell,
  paramRefSchema,
  policySpecFields,
  variablesField,
  type BindingObject,
  type BindingSpecCommon,
  type PolicyObject,
  type PolicySpecCommon,
} from './policy-types.js';
import { validateBindingSpecCommon, validatePolicyExpression, validatePolicySpecCommon } from './policy-validation.js';

export interface Mutation {
  patchType?: string;
  applyConfiguration?: { expression?: string };
  jsonPatch?: { expression?: string };
}

export interface MutatingAdmissionPolicySpec extends PolicySpecCommon {
  mutations?: Mutation[];
  reinvocationPolicy?: string;
}

export type MutatingAdmissionPolicy = PolicyObject<MutatingAdmissionPolicySpec>;
export type MutatingAdmissionPolicyBinding = BindingObject<BindingSpecCommon>;

const PATCH_TYPES = ['ApplyConfiguration', 'JSONPatch'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** The versions served, in kube's priority order. */
export const MUTATING_POLICY_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'] as const;
/** Where objects are stored: v1beta1, as before v1 was served (the versions' fields are the same). */
const STORAGE_VERSION = 'v1beta1';

function schemasFor(version: string): { policy: Schema; binding: Schema } {
  const prefix = `io.k8s.api.admissionregistration.${version}.`;
  const expression = (what: string): Schema => object(what, { expression: string('The CEL expression.') });
  const mutation = define(
    `${prefix}Mutation`,
    object('One mutation: an apply configuration or a JSON patch computed by CEL.', {
      patchType: string('ApplyConfiguration or JSONPatch.'),
      applyConfiguration: described(define(`${prefix}ApplyConfiguration`, expression('A CEL expression returning an object, merged as server-side apply merges.')), 'For patchType ApplyConfiguration.'),
      jsonPatch: described(define(`${prefix}JSONPatch`, expression('A CEL expression returning a list of JSON patch operations.')), 'For patchType JSONPatch.'),
    }, { required: ['patchType'] }),
  );
  const spec = define(
    `${prefix}MutatingAdmissionPolicySpec`,
    object('What a MutatingAdmissionPolicy changes, and of which requests.', {
      ...policySpecFields,
      variables: variablesField,
      mutations: list(mutation, 'The mutations, applied in order.', { listType: 'atomic' }),
      failurePolicy: string('Fail (the default) or Ignore: what an error in the policy does to the request.'),
      matchConditions: matchConditionsField,
      reinvocationPolicy: string('Never or IfNeeded: whether the policy runs again when later mutations changed the object.'),
    }),
  );
  const bindingSpec = define(
    `${prefix}MutatingAdmissionPolicyBindingSpec`,
    object('Which policy applies, with which params, to which requests.', {
      policyName: string('The MutatingAdmissionPolicy bound.'),
      paramRef: described(paramRefSchema, 'The params of the policy.'),
      matchResources: described(matchResourcesSchema, 'Further limits the requests the policy applies to.'),
    }),
  );
  return {
    policy: defineKindSchema(`${prefix}MutatingAdmissionPolicy`, { group: ADMISSION_GROUP, version, kind: 'MutatingAdmissionPolicy' }, 'Mutates requests with CEL, once bound.', {
      spec: described(spec, 'The policy.'),
    }),
    binding: defineKindSchema(`${prefix}MutatingAdmissionPolicyBinding`, { group: ADMISSION_GROUP, version, kind: 'MutatingAdmissionPolicyBinding' }, 'Binds a MutatingAdmissionPolicy to requests, with params.', {
      spec: described(bindingSpec, 'The binding.'),
    }),
  };
}

function validateMutations(spec: MutatingAdmissionPolicySpec, path: string): FieldError[] {
  const mutations = spec.mutations ?? [];
  if (mutations.length === 0) return [fieldErrors.required(path, 'mutations must contain at least one item')];
  const errors: FieldError[] = [];
  mutations.forEach((m, i) => {
    const here = index(path, i);
    if (!m.patchType) {
      errors.push(fieldErrors.required(child(here, 'patchType'), ''));
      return;
    }
    if (!PATCH_TYPES.includes(m.patchType)) {
      errors.push(fieldErrors.notSupported(child(here, 'patchType'), m.patchType, PATCH_TYPES));
      return;
    }
    const field = m.patchType === 'JSONPatch' ? 'jsonPatch' : 'applyConfiguration';
    const other = m.patchType === 'JSONPatch' ? 'applyConfiguration' : 'jsonPatch';
    if (m[other]) errors.push(fieldErrors.invalid(child(here, other), '', `must not be specified when patchType is ${m.patchType}`));
    const expression = m[field]?.expression ?? '';
    if (!m[field]) errors.push(fieldErrors.required(child(here, field), `must be specified when patchType is ${m.patchType}`));
    else if (expression.trim() === '') errors.push(fieldErrors.required(child(here, field, 'expression'), ''));
    else errors.push(...validatePolicyExpression(expression, spec, 'any', child(here, field, 'expression'), true));
  });
  return errors;
}

export function validateMutatingAdmissionPolicy(obj: MutatingAdmissionPolicy): FieldError[] {
  const spec = obj.spec ?? {};
  const errors = [...validatePolicySpecCommon(spec, 'spec'), ...validateMutations(spec, 'spec.mutations')];
  if (!spec.reinvocationPolicy) errors.push(fieldErrors.required('spec.reinvocationPolicy', ''));
  else if (!REINVOCATION_POLICIES.includes(spec.reinvocationPolicy)) errors.push(fieldErrors.notSupported('spec.reinvocationPolicy', spec.reinvocationPolicy, REINVOCATION_POLICIES));
  return errors;
}

function policyKind(version: string, schema: Schema): ResourceDefinition {
  return defineKind<MutatingAdmissionPolicy>({
    group: ADMISSION_GROUP,
    version,
    kind: 'MutatingAdmissionPolicy',
    resource: 'mutatingadmissionpolicies',
    scope: 'space',
    storageVersion: STORAGE_VERSION,
    schema,
    tracksGeneration: true,
    defaults: (obj) => {
      defaultPolicySpec(obj.spec);
      if (obj.spec) obj.spec.reinvocationPolicy ??= 'Never';
    },
    validate: validateMutatingAdmissionPolicy,
    columns: [
      nameColumn,
      { name: 'Mutations', type: 'integer', description: 'Mutations indicates the number of mutations rules defined in this configuration', priority: 0, cell: (obj) => obj.spec?.mutations?.length ?? 0 },
      { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', priority: 0, cell: paramKindCell },
      ageColumn,
    ],
  }) as ResourceDefinition;
}

function bindingKind(version: string, schema: Schema): ResourceDefinition {
  return defineKind<MutatingAdmissionPolicyBinding>({
    group: ADMISSION_GROUP,
    version,
    kind: 'MutatingAdmissionPolicyBinding',
    resource: 'mutatingadmissionpolicybindings',
    scope: 'space',
    storageVersion: STORAGE_VERSION,
    schema,
    tracksGeneration: true,
    defaults: (obj) => defaultMatchResources(obj.spec?.matchResources),
    validate: (obj) => validateBindingSpecCommon(obj.spec ?? {}, 'spec'),
    columns: [
      nameColumn,
      { name: 'PolicyName', type: 'string', description: 'PolicyName indicates the policy definition which the policy binding binded to', priority: 0, cell: (obj) => obj.spec?.policyName ?? '' },
      { name: 'ParamRef', type: 'string', description: 'ParamRef indicates the param resource which sets the configration param', priority: 0, cell: paramRefCell },
      ageColumn,
    ],
  }) as ResourceDefinition;
}

const schemas = MUTATING_POLICY_VERSIONS.map((v) => [v, schemasFor(v)] as const);

/** MutatingAdmissionPolicy in each served version, the storage version first. */
export const mutatingAdmissionPolicies = schemas.map(([v, s]) => policyKind(v, s.policy));
export const mutatingAdmissionPolicyBindings = schemas.map(([v, s]) => bindingKind(v, s.binding));
