/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding:
 * CEL validations of a space's requests (evaluated by `api/admission/policies/`). Space-scoped
 * (cluster-scoped in Kubernetes). Kubernetes' behaviour: `pkg/apis/admissionregistration/validation`,
 * `pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}` (generation counts spec
 * changes; status is written through its subresource), printers in `pkg/printers/internalversion`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { defineKindSchema } from '../../schema/meta.js';
import { define, described, list, object, string } from '../../schema/schema.js';
import { child, index } from '../../validation/field-path.js';
import { validateQualifiedName } from '../../validation/labels.js';
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
  policyStatusSchema,
  variablesField,
  type BindingObject,
  type BindingSpecCommon,
  type PolicyObject,
  type PolicySpecCommon,
} from './policy-types.js';
import { validateBindingSpecCommon, validatePolicyExpression, validatePolicySpecCommon } from './policy-validation.js';

export interface Validation {
  expression?: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key?: string;
  valueExpression?: string;
}

export interface ValidatingAdmissionPolicySpec extends PolicySpecCommon {
  validations?: Validation[];
  auditAnnotations?: AuditAnnotation[];
}

export type ValidatingAdmissionPolicy = PolicyObject<ValidatingAdmissionPolicySpec>;

export interface ValidatingAdmissionPolicyBindingSpec extends BindingSpecCommon {
  validationActions?: string[];
}

export type ValidatingAdmissionPolicyBinding = BindingObject<ValidatingAdmissionPolicyBindingSpec>;

const V1 = 'io.k8s.api.admissionregistration.v1.';
/** The reasons a validation may answer with (kube's supportedValidationPolicyReason, sorted). */
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;

const validationSchema = define(
  `${V1}Validation`,
  object('A CEL expression a request must satisfy.', {
    expression: string('A CEL expression returning bool; false fails the validation.'),
    message: string('The message of a failed validation.'),
    reason: string('The Status reason of a denial: Unauthorized, Forbidden, Invalid (the default) or RequestEntityTooLarge.'),
    messageExpression: string('A CEL expression returning the message of a failed validation.'),
  }, { required: ['expression'] }),
);

const auditAnnotationSchema = define(
  `${V1}AuditAnnotation`,
  object('An audit annotation the policy adds to the request\'s audit event.', {
    key: string('The annotation key, prefixed with "<policy name>/" in the audit event.'),
    valueExpression: string('A CEL expression returning a string or null (no annotation).'),
  }, { required: ['key', 'valueExpression'] }),
);

const policySpec = define(
  `${V1}ValidatingAdmissionPolicySpec`,
  object('What a ValidatingAdmissionPolicy checks, and of which requests.', {
    ...policySpecFields,
    validations: list(validationSchema, 'The CEL validations a request must pass.', { listType: 'atomic' }),
    failurePolicy: string('Fail (the default) or Ignore: what an error in the policy does to the request.'),
    auditAnnotations: list(auditAnnotationSchema, 'Audit annotations added to the request\'s audit event.', { listType: 'atomic' }),
    matchConditions: matchConditionsField,
    variables: variablesField,
  }),
);

export const validatingAdmissionPolicySchema = defineKindSchema(
  `${V1}ValidatingAdmissionPolicy`,
  { group: ADMISSION_GROUP, version: 'v1', kind: 'ValidatingAdmissionPolicy' },
  'Validates requests with CEL expressions, once bound by a ValidatingAdmissionPolicyBinding.',
  {
    spec: described(policySpec, 'The policy.'),
    status: described(policyStatusSchema('ValidatingAdmissionPolicy'), 'The observed state of the policy.'),
  },
);

const bindingSpec = define(
  `${V1}ValidatingAdmissionPolicyBindingSpec`,
  object('Which policy applies, with which params, to which requests, and what a failed validation does.', {
    policyName: string('The ValidatingAdmissionPolicy bound.'),
    paramRef: described(paramRefSchema, 'The params of the policy.'),
    matchResources: described(matchResourcesSchema, 'Further limits the requests the policy applies to.'),
    validationActions: list(string(''), 'Deny, Warn and/or Audit: what a failed validation does.', { listType: 'set' }),
  }),
);

export const validatingAdmissionPolicyBindingSchema = defineKindSchema(
  `${V1}ValidatingAdmissionPolicyBinding`,
  { group: ADMISSION_GROUP, version: 'v1', kind: 'ValidatingAdmissionPolicyBinding' },
  'Binds a ValidatingAdmissionPolicy to requests, with params and validation actions.',
  { spec: described(bindingSpec, 'The binding.') },
);

function validateValidations(spec: ValidatingAdmissionPolicySpec, path: string): FieldError[] {
  const errors: FieldError[] = [];
  (spec.validations ?? []).forEach((v, i) => {
    const here = index(path, i);
    const expression = v.expression ?? '';
    if (expression.trim() === '') errors.push(fieldErrors.required(child(here, 'expression'), 'expression is not specified'));
    else errors.push(...validatePolicyExpression(expression, spec, 'bool', child(here, 'expression')));
    const messageExpression = v.messageExpression ?? '';
    if (messageExpression !== '' && messageExpression.trim() === '') {
      errors.push(fieldErrors.invalid(child(here, 'messageExpression'), messageExpression, 'must be non-empty if specified'));
    } else if (messageExpression !== '') {
      errors.push(...validatePolicyExpression(messageExpression, spec, 'string', child(here, 'messageExpression')));
    }
    const message = v.message ?? '';
    if (message !== '' && message.trim() === '') errors.push(fieldErrors.invalid(child(here, 'message'), message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(message.trim())) errors.push(fieldErrors.invalid(child(here, 'message'), message, 'message must not contain line breaks'));
    if (v.reason != null && !VALIDATION_REASONS.includes(v.reason)) errors.push(fieldErrors.notSupported(child(here, 'reason'), v.reason, VALIDATION_REASONS));
  });
  return errors;
}

function validateAuditAnnotations(obj: ValidatingAdmissionPolicy, spec: ValidatingAdmissionPolicySpec, path: string): FieldError[] {
  const annotations = spec.auditAnnotations ?? [];
  const errors: FieldError[] = [];
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    // Go prints the slice with %#v.
    const items = annotations.map((a) => `admissionregistration.AuditAnnotation{Key:${JSON.stringify(a.key ?? '')}, ValueExpression:${JSON.stringify(a.valueExpression ?? '')}}`).join(', ');
    errors.push({ type: 'FieldValueInvalid', field: path, message: `Invalid value: []admissionregistration.AuditAnnotation{${items}}: must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations` });
  }
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const here = index(path, i);
    const key = a.key ?? '';
    const name = obj.metadata.name ?? '';
    if (name !== '') errors.push(...validateQualifiedName(`${name}/${key}`, child(here, 'key')));
    else errors.push(fieldErrors.invalid(child(here, 'key'), key, 'requires metadata.name be non-empty'));
    const value = (a.valueExpression ?? '').trim();
    if (value === '') errors.push(fieldErrors.required(child(here, 'valueExpression'), 'valueExpression is not specified'));
    else if (value.length > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) {
      errors.push(fieldErrors.required(child(here, 'valueExpression'), `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
    } else errors.push(...validatePolicyExpression(value, spec, 'any', child(here, 'valueExpression')));
    if (keys.has(key)) errors.push(fieldErrors.duplicate(child(here, 'key'), key));
    keys.add(key);
  });
  return errors;
}

export function validateValidatingAdmissionPolicy(obj: ValidatingAdmissionPolicy): FieldError[] {
  const spec = obj.spec ?? {};
  const errors = validatePolicySpecCommon(spec, 'spec');
  if ((spec.validations ?? []).length === 0 && (spec.auditAnnotations ?? []).length === 0) {
    errors.push(fieldErrors.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errors.push(fieldErrors.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
  } else {
    errors.push(...validateValidations(spec, 'spec.validations'));
    errors.push(...validateAuditAnnotations(obj, spec, 'spec.auditAnnotations'));
  }
  return errors;
}

/** kube's validateValidationActions. */
function validateValidationActions(actions: readonly string[] | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (actions ?? []).forEach((a, i) => {
    if (!VALIDATION_ACTIONS.includes(a)) errors.push(fieldErrors.notSupported(index(path, i), a, VALIDATION_ACTIONS));
    if (seen.has(a)) errors.push(fieldErrors.duplicate(index(path, i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    const list = (actions ?? []).map((a) => JSON.stringify(a)).join(', ');
    errors.push({
      type: 'FieldValueInvalid',
      field: path,
      message: `Invalid value: []admissionregistration.ValidationAction{${list}}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`,
    });
  }
  if (seen.size === 0) errors.push(fieldErrors.required(path, 'at least one validation action is required'));
  return errors;
}

export function validateValidatingAdmissionPolicyBinding(obj: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec = obj.spec ?? {};
  return [...validateBindingSpecCommon(spec, 'spec'), ...validateValidationActions(spec.validationActions, 'spec.validationActions')];
}

export const validatingAdmissionPolicies = defineKind<ValidatingAdmissionPolicy>({
  group: ADMISSION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  resource: 'validatingadmissionpolicies',
  scope: 'space',
  schema: validatingAdmissionPolicySchema,
  status: true,
  tracksGeneration: true,
  defaults: (obj) => defaultPolicySpec(obj.spec),
  validate: validateValidatingAdmissionPolicy,
  columns: [
    nameColumn,
    { name: 'Validations', type: 'integer', description: 'Validations indicates the number of validation rules defined in this configuration', priority: 0, cell: (obj) => obj.spec?.validations?.length ?? 0 },
    { name: 'ParamKind', type: 'string', description: 'ParamKind specifies the kind of resources used to parameterize this policy', priority: 0, cell: paramKindCell },
    ageColumn,
  ],
});

export const validatingAdmissionPolicyBindings = defineKind<ValidatingAdmissionPolicyBinding>({
  group: ADMISSION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  resource: 'validatingadmissionpolicybindings',
  scope: 'space',
  schema: validatingAdmissionPolicyBindingSchema,
  tracksGeneration: true,
  defaults: (obj) => defaultMatchResources(obj.spec?.matchResources),
  validate: validateValidatingAdmissionPolicyBinding,
  columns: [
    nameColumn,
    { name: 'PolicyName', type: 'string', description: 'PolicyName indicates the policy definition which the policy binding binded to', priority: 0, cell: (obj) => obj.spec?.policyName ?? '' },
    { name: 'ParamRef', type: 'string', description: 'ParamRef indicates the param resource which sets the configration param', priority: 0, cell: paramRefCell },
    ageColumn,
  ],
});
