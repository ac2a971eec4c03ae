import { describe, expect, it } from 'vitest';
import { validatingAdmissionPolicies, validatingAdmissionPolicyBindings, type ValidatingAdmissionPolicy, type ValidatingAdmissionPolicyBinding } from './validating-admission-policy.js';

const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };

function policy(spec: ValidatingAdmissionPolicy['spec']): ValidatingAdmissionPolicy {
  const p: ValidatingAdmissionPolicy = { metadata: { name: 'p' }, spec };
  validatingAdmissionPolicies.defaults!(p);
  return p;
}

const problems = (p: ValidatingAdmissionPolicy): string[] => validatingAdmissionPolicies.validate!(p).map((e) => `${e.field}: ${e.message}`);
const bindingProblems = (spec: ValidatingAdmissionPolicyBinding['spec']): string[] => {
  const b: ValidatingAdmissionPolicyBinding = { metadata: { name: 'b' }, spec };
  validatingAdmissionPolicyBindings.defaults!(b);
  return validatingAdmissionPolicyBindings.validate!(b).map((e) => `${e.field}: ${e.message}`);
};

describe('ValidatingAdmissionPolicy', () => {
  it('defaults as kube: failurePolicy Fail, matchPolicy Equivalent, empty selectors, scope *', () => {
    const p = policy({ matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] });
    expect(p.spec).toEqual({
      failurePolicy: 'Fail',
      matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ ...rule, scope: '*' }] },
      validations: [{ expression: 'true' }],
    });
    expect(problems(p)).toEqual([]);
  });

  it('refuses what kube refuses, with its messages', () => {
    expect(problems(policy({}))).toEqual([
      'spec.matchConstraints: Required value',
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]);
    expect(
      problems(
        policy({
          failurePolicy: 'Maybe',
          paramKind: { apiVersion: 'a/b/c', kind: '' },
          matchConstraints: { resourceRules: [{ apiGroups: ['*', 'apps'], apiVersions: ['v1'], operations: ['*', 'CREATE', 'PATCH'], resources: ['*', 'pods'] }] },
          validations: [{ expression: 'object.spec.replicas <', reason: 'Nope', message: 'a\nb' }],
          variables: [{ name: '1x', expression: 'params.x' }],
        }),
      ),
    ).toEqual([
      'spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      'spec.paramKind.kind: Required value',
      'spec.matchConstraints.resourceRules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE", "PATCH"}: if \'*\' is present, must not specify other operations',
      'spec.matchConstraints.resourceRules[0].operations[2]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'spec.matchConstraints.resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources without subresources',
      'spec.variables[0].name: Invalid value: "1x": name is not a valid CEL identifier',
      expect.stringMatching(/^spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <": compilation failed: ERROR: <input>:1:/),
      'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
      'spec.validations[0].reason: Unsupported value: "Nope": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
    ]);
  });

  it('refuses params in expressions of a policy without paramKind', () => {
    const errs = problems(policy({ matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'params.x == 1' }] }));
    expect(errs).toEqual([expect.stringContaining("spec.validations[0].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'")]);
  });

  it('prints kube\'s columns', () => {
    const p = policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }, { expression: 'true' }] });
    const cells = validatingAdmissionPolicies.columns.map((c) => c.cell(p, Date.now()));
    expect(validatingAdmissionPolicies.columns.map((c) => c.name)).toEqual(['Name', 'Validations', 'ParamKind', 'Age']);
    expect(cells.slice(0, 3)).toEqual(['p', 2, 'v1/ConfigMap']);
  });
});

describe('ValidatingAdmissionPolicyBinding', () => {
  it('refuses what kube refuses, with its messages', () => {
    expect(bindingProblems({})).toEqual(['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required']);
    expect(bindingProblems({ policyName: 'p', paramRef: { name: 'a', selector: {} }, validationActions: ['Deny', 'Warn', 'Deny', 'Log'] })).toEqual([
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Required value',
      'spec.validationActions[2]: Duplicate value: "Deny"',
      'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn", "Deny", "Log"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]);
    expect(bindingProblems({ policyName: 'p', matchResources: { matchPolicy: 'Loose' }, validationActions: ['Audit'] })).toEqual(['spec.matchResouces.matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']);
  });

  it('prints the param reference as kubectl shows it', () => {
    const cell = (paramRef: NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']) =>
      validatingAdmissionPolicyBindings.columns[2]!.cell({ metadata: { name: 'b' }, spec: { policyName: 'p', paramRef } } as ValidatingAdmissionPolicyBinding, 0);
    expect([cell(undefined), cell({ name: 'limits', namespace: 'shop' }), cell({ name: 'limits' })]).toEqual(['<unset>', 'shop/limits', '*/limits']);
  });
});
