/**
 * Validation of admission policies and their bindings, with kube-apiserver's messages
 * (`pkg/apis/admissionregistration/validation/validation.go`): rules, match resources, param
 * kinds and refs, match conditions, variables, validations, audit annotations, validation actions.
 * Expressions are compiled as the admission plugin compiles them (`policy-cel.ts`), so a policy
 * that is stored also runs.
 */
import { compilePolicyExpression, isCelIdentifier, type ExpectedResult, type PolicyCelOptions } from '../../admission/policies/policy-cel.js';
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, index } from '../../validation/field-path.js';
import { validateLabelSelector } from '../../validation/label-selector.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../validation/names.js';
import { OPERATIONS as SUPPORTED_OPERATIONS, SCOPES as SUPPORTED_SCOPES, type RuleWithOperations } from './webhook-types.js';
import type { BindingSpecCommon, MatchCondition, MatchResources, NamedRuleWithOperations, ParamKind, ParamRef, PolicySpecCommon, Variable } from './policy-types.js';

export const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const MAX_MATCH_CONDITIONS = 64;

/** A field.Invalid of a Go slice, whose value Go prints with `%#v` (`[]string{"*", "CREATE"}`). */
function invalidList(field: string, goType: string, values: readonly string[], detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, message: `Invalid value: ${goType}{${values.map((v) => JSON.stringify(v)).join(', ')}}: ${detail}` };
}

const hasWildcard = (values: readonly string[]): boolean => values.includes('*');

/** kube's validateResources: subresources allowed, with its wildcard rules. */
function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(fieldErrors.required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errors.push(fieldErrors.required(index(path, i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      plainResource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) errors.push(fieldErrors.invalid(index(path, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errors.push(fieldErrors.invalid(index(path, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errors.push(invalidList(path, '[]string', resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource) errors.push(invalidList(path, '[]string', resources, "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

/** kube's validateNamedRuleWithOperations: the resource names, then the rule itself. */
export function validateNamedRule(rule: NamedRuleWithOperations, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errors.push(fieldErrors.invalid(index(child(path, 'resourceNames'), i), name, msg));
    if (names.has(name)) errors.push(fieldErrors.duplicate(index(child(path, 'resourceNames'), i), name));
    names.add(name);
  });
  return [...errors, ...validateRuleWithOperations(rule, path)];
}

/** kube's validateRuleWithOperations (with validateRule allowing subresources), for webhooks and policies alike. */
export function validateRuleWithOperations(rule: RuleWithOperations, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errors.push(fieldErrors.required(child(path, 'operations')));
  if (operations.length > 1 && hasWildcard(operations)) {
    errors.push(invalidList(child(path, 'operations'), '[]admissionregistration.OperationType', operations, "if '*' is present, must not specify other operations"));
  }
  operations.forEach((op, i) => {
    if (!SUPPORTED_OPERATIONS.includes(op)) errors.push(fieldErrors.notSupported(index(child(path, 'operations'), i), op, SUPPORTED_OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errors.push(fieldErrors.required(child(path, 'apiGroups')));
  if (groups.length > 1 && hasWildcard(groups)) errors.push(invalidList(child(path, 'apiGroups'), '[]string', groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errors.push(fieldErrors.required(child(path, 'apiVersions')));
  if (versions.length > 1 && hasWildcard(versions)) errors.push(invalidList(child(path, 'apiVersions'), '[]string', versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errors.push(fieldErrors.required(index(child(path, 'apiVersions'), i)));
  });
  errors.push(...validateResources(rule.resources ?? [], child(path, 'resources')));
  if (rule.scope != null && !SUPPORTED_SCOPES.includes(rule.scope)) errors.push(fieldErrors.notSupported(child(path, 'scope'), rule.scope, SUPPORTED_SCOPES));
  return errors;
}

/** kube's validateMatchResources: every field is defaulted, so absent ones are required. */
export function validateMatchResources(m: MatchResources | undefined, path: string): FieldError[] {
  if (!m) return [];
  const errors: FieldError[] = [];
  if (m.matchPolicy == null) errors.push(fieldErrors.required(child(path, 'matchPolicy')));
  else if (!MATCH_POLICIES.includes(m.matchPolicy)) errors.push(fieldErrors.notSupported(child(path, 'matchPolicy'), m.matchPolicy, MATCH_POLICIES));
  if (!m.namespaceSelector) errors.push(fieldErrors.required(child(path, 'namespaceSelector')));
  else errors.push(...validateLabelSelector(m.namespaceSelector, child(path, 'namespaceSelector')));
  if (!m.objectSelector) errors.push(fieldErrors.required(child(path, 'objectSelector')));
  else errors.push(...validateLabelSelector(m.objectSelector, child(path, 'objectSelector')));
  (m.resourceRules ?? []).forEach((r, i) => errors.push(...validateNamedRule(r, index(child(path, 'resourceRules'), i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errors.push(...validateNamedRule(r, index(child(path, 'excludeResourceRules'), i))));
  return errors;
}

/** kube's validateParamKind. */
export function validateParamKind(pk: ParamKind, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = pk.apiVersion ?? '';
  const field = child(path, 'apiVersion');
  if (apiVersion === '') {
    errors.push(fieldErrors.required(field));
  } else if (apiVersion !== '/' && apiVersion.split('/').length > 2) {
    errors.push(fieldErrors.invalid(field, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  } else if (apiVersion !== '/') {
    const [group, version] = apiVersion.includes('/') ? [apiVersion.slice(0, apiVersion.indexOf('/')), apiVersion.slice(apiVersion.indexOf('/') + 1)] : ['', apiVersion];
    if (group !== '') {
      const problems = isDNS1123Subdomain(group);
      if (problems.length > 0) errors.push(fieldErrors.invalid(field, group, problems.join(',')));
    }
    if (version === '') {
      errors.push(fieldErrors.invalid(field, apiVersion, 'version must be specified'));
    } else {
      const problems = isDNS1035Label(version);
      if (problems.length > 0) errors.push(fieldErrors.invalid(field, version, problems.join(',')));
    }
  } else {
    errors.push(fieldErrors.invalid(field, apiVersion, 'version must be specified'));
  }
  const kind = pk.kind ?? '';
  if (kind === '') errors.push(fieldErrors.required(child(path, 'kind')));
  else {
    const problems = isDNS1035Label(kind.toLowerCase());
    if (problems.length > 0) errors.push(fieldErrors.invalid(child(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
  }
  return errors;
}

/** An expression's compile error as a field error (kube's convertCELErrorToValidationError: Invalid with the expression). */
function validateExpression(source: string, opts: PolicyCelOptions, expected: ExpectedResult, path: string): FieldError[] {
  const compiled = compilePolicyExpression(source, opts, expected);
  return 'error' in compiled ? [fieldErrors.invalid(path, source, compiled.error)] : [];
}

/** kube's validateMatchConditions (params allowed when the policy has a paramKind). */
export function validateMatchConditions(conditions: readonly MatchCondition[] | undefined, opts: PolicyCelOptions, path: string): FieldError[] {
  const list = conditions ?? [];
  const errors: FieldError[] = [];
  if (list.length > MAX_MATCH_CONDITIONS) errors.push(fieldErrors.tooMany(path, list.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  list.forEach((c, i) => {
    const here = index(path, i);
    const expression = (c.expression ?? '').trim();
    if (expression === '') errors.push(fieldErrors.required(child(here, 'expression')));
    else errors.push(...validateExpression(expression, { ...opts, variables: [] }, 'bool', child(here, 'expression')));
    if (!c.name) errors.push(fieldErrors.required(child(here, 'name')));
    else errors.push(...validateQualifiedName(c.name, child(here, 'name')));
    if (c.name) {
      if (names.has(c.name)) errors.push(fieldErrors.duplicate(child(here, 'name'), c.name));
      names.add(c.name);
    }
  });
  return errors;
}

/** kube's validateVariable, each compiled seeing the variables before it. */
export function validateVariables(variables: readonly Variable[] | undefined, hasParams: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const before: string[] = [];
  (variables ?? []).forEach((v, i) => {
    const here = index(path, i);
    const name = v.name ?? '';
    if (name.trim() === '') errors.push(fieldErrors.required(child(here, 'name'), 'name is not specified'));
    else if (!isCelIdentifier(name)) errors.push(fieldErrors.invalid(child(here, 'name'), name, 'name is not a valid CEL identifier'));
    const expression = v.expression ?? '';
    if (expression.trim() === '') errors.push(fieldErrors.required(child(here, 'expression'), 'expression is not specified'));
    else errors.push(...validateExpression(expression, { hasParams, variables: before }, 'any', child(here, 'expression')));
    if (name !== '') before.push(name);
  });
  return errors;
}

/** The common spec checks: failurePolicy, paramKind, matchConstraints (with at least one rule), matchConditions, variables. */
export function validatePolicySpecCommon(spec: PolicySpecCommon, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.failurePolicy == null) errors.push(fieldErrors.required(child(path, 'failurePolicy')));
  else if (!FAILURE_POLICIES.includes(spec.failurePolicy)) errors.push(fieldErrors.notSupported(child(path, 'failurePolicy'), spec.failurePolicy, FAILURE_POLICIES));
  const hasParams = spec.paramKind != null;
  if (spec.paramKind) errors.push(...validateParamKind(spec.paramKind, child(path, 'paramKind')));
  if (!spec.matchConstraints) {
    errors.push(fieldErrors.required(child(path, 'matchConstraints')));
  } else {
    errors.push(...validateMatchResources(spec.matchConstraints, child(path, 'matchConstraints')));
    // At least one resource rule gives the expressions their types.
    if ((spec.matchConstraints.resourceRules ?? []).length === 0) errors.push(fieldErrors.required(child(path, 'matchConstraints', 'resourceRules')));
  }
  errors.push(...validateMatchConditions(spec.matchConditions, { hasParams, variables: [] }, child(path, 'matchConditions')));
  errors.push(...validateVariables(spec.variables, hasParams, child(path, 'variables')));
  return errors;
}

/** An expression of the policy's body, seeing every variable. */
export function validatePolicyExpression(source: string, spec: PolicySpecCommon, expected: ExpectedResult, path: string, objectLiterals = false): FieldError[] {
  const variables = (spec.variables ?? []).map((v) => v.name ?? '').filter(Boolean);
  return validateExpression(source, { hasParams: spec.paramKind != null, variables, objectLiterals }, expected, path);
}

/** kube's validateParamRef. */
export function validateParamRef(pr: ParamRef | undefined, path: string): FieldError[] {
  if (!pr) return [];
  const errors: FieldError[] = [];
  if (pr.name) {
    for (const msg of isValidPathSegmentName(pr.name)) errors.push(fieldErrors.invalid(child(path, 'name'), pr.name, msg));
    if (pr.selector) errors.push(fieldErrors.forbidden(child(path, 'name'), 'name and selector are mutually exclusive'));
  }
  if (pr.selector) {
    errors.push(...validateLabelSelector(pr.selector, child(path, 'selector')));
    if (pr.name) errors.push(fieldErrors.forbidden(child(path, 'selector'), 'name and selector are mutually exclusive'));
  }
  if (!pr.name && !pr.selector) errors.push(fieldErrors.required(path, 'one of name or selector must be specified'));
  if (!pr.parameterNotFoundAction) errors.push(fieldErrors.required(child(path, 'parameterNotFoundAction')));
  else if (pr.parameterNotFoundAction !== 'Deny' && pr.parameterNotFoundAction !== 'Allow') {
    errors.push(fieldErrors.notSupported(child(path, 'parameterNotFoundAction'), pr.parameterNotFoundAction, ['Deny', 'Allow']));
  }
  return errors;
}

/** kube's binding checks common to both binding kinds: policyName, paramRef, matchResources. */
export function validateBindingSpecCommon(spec: BindingSpecCommon, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.policyName) errors.push(fieldErrors.required(child(path, 'policyName')));
  else for (const msg of isDNS1123Subdomain(spec.policyName)) errors.push(fieldErrors.invalid(child(path, 'policyName'), spec.policyName, msg));
  errors.push(...validateParamRef(spec.paramRef, child(path, 'paramRef')));
  // kube spells this path `matchResouces` (sic), and clients see that spelling.
  errors.push(...validateMatchResources(spec.matchResources, child(path, 'matchResouces')));
  return errors;
}
