/** Samples of the admission policy kinds (admissionregistration.k8s.io), every field set. */
import { spaceMeta } from './metadata.js';

const rule = { resourceNames: ['web'], operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale'], scope: '*' };
const matchResources = {
  namespaceSelector: { matchLabels: { team: 'shop' } },
  objectSelector: {},
  resourceRules: [rule],
  excludeResourceRules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespaced' }],
  matchPolicy: 'Equivalent',
};

export const admissionPolicySamples = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: spaceMeta('replica-limit', { generation: 2 }),
    spec: {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: matchResources,
      validations: [
        { expression: 'object.spec.replicas <= int(params.data.max)', message: 'too many replicas', reason: 'Forbidden', messageExpression: "'at most ' + params.data.max" },
        { expression: 'true' },
      ],
      failurePolicy: 'Fail',
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      matchConditions: [{ name: 'not-system', expression: "request.userInfo.username != 'admin'" }],
      variables: [{ name: 'max', expression: 'int(params.data.max)' }],
    },
    status: {
      observedGeneration: 2,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:8: undefined field 'spex'" }] },
      conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2, lastTransitionTime: '2025-03-04T05:06:07Z', reason: 'Checked', message: '' }],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: spaceMeta('replica-limit-shop'),
    spec: {
      policyName: 'replica-limit',
      paramRef: { name: 'limits', namespace: 'shop', parameterNotFoundAction: 'Deny' },
      matchResources,
      validationActions: ['Deny', 'Audit'],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: spaceMeta('replica-limit-selected'),
    spec: { policyName: 'replica-limit', paramRef: { selector: { matchLabels: { limits: 'yes' } }, parameterNotFoundAction: 'Allow' }, validationActions: ['Warn'] },
  },
];
