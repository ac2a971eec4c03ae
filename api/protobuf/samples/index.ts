/**
 * Samples for the protobuf round-trip tests: every served built-in kind (`kindSamples`), and the
 * other types that travel in protobuf (`apiSamples`): errors, Scale, DeleteOptions and the reviews.
 */
import { webhookSamples } from './admissionregistration-webhooks.js';
import { coreSamples } from './core.js';
import { admissionPolicySamples } from './admission-policies.js';
import { groupSamples } from './groups.js';
import { objectMeta } from './metadata.js';

export interface Sample {
  apiVersion: string;
  kind: string;
  [field: string]: unknown;
}

export const kindSamples: readonly Sample[] = [...coreSamples, ...groupSamples, ...webhookSamples, ...admissionPolicySamples];

export const apiSamples: readonly Sample[] = [
  {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message: 'Deployment.apps "shop" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    reason: 'Invalid',
    details: { name: 'shop', group: 'apps', kind: 'Deployment', uid: '1d0c', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1', field: 'spec.replicas' }], retryAfterSeconds: 2 },
    code: 422,
  },
  { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Success', details: { name: 'shop', kind: 'configmaps', uid: '6f1c' } },
  {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: objectMeta('shop'),
    spec: { replicas: 0 },
    status: { replicas: 0, selector: 'app=shop,tier in (backend,cache)' },
  },
  { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: '6f1c', resourceVersion: '4127' }, propagationPolicy: 'Foreground', dryRun: ['All'] },
  { apiVersion: 'v1', kind: 'DeleteOptions', orphanDependents: false },
  { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'shop-api-7d9c-x2f', namespace: 'shop', uid: '6f1c2a4e', resourceVersion: '4127' }, target: { kind: 'Node', name: 'node-1' } },
  { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'shop-api-7d9c-x2f', namespace: 'shop' }, deleteOptions: { gracePeriodSeconds: 30, preconditions: { resourceVersion: '4127' } } },
  { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'shop-api-7d9c-x2f', namespace: 'shop' } },
  {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec: {
      resourceAttributes: {
        namespace: 'shop',
        verb: 'list',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        subresource: 'scale',
        name: 'shop',
        fieldSelector: { rawSelector: 'metadata.name=shop', requirements: [{ key: 'metadata.name', operator: 'In', values: ['shop'] }] },
        labelSelector: { requirements: [{ key: 'app', operator: 'Exists' }] },
      },
    },
    status: { allowed: false, denied: true, reason: 'no RBAC policy matched', evaluationError: 'role "x" not found' },
  },
  {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: { creationTimestamp: null },
    spec: { namespace: 'shop' },
    status: {
      resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }],
      incomplete: false,
    },
  },
  {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    metadata: { creationTimestamp: null },
    spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'alice', groups: ['devs', 'system:authenticated'], extra: { 'scopes.example.com': ['read', 'write'] }, uid: 'u-1' },
    status: { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "health"' },
  },
  {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    metadata: { namespace: 'shop', creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'shop', verb: 'create', resource: 'pods' }, user: 'system:serviceaccount:shop:shop' },
    status: { allowed: false },
  },
  {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    metadata: { creationTimestamp: null },
    status: { userInfo: { username: 'admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'], extra: { 'kube-spaces.io/tenant': ['system'] } } },
  },
  {
    apiVersion: 'authentication.k8s.io/v1beta1',
    kind: 'SelfSubjectReview',
    metadata: { creationTimestamp: null },
    status: { userInfo: { username: 'alice', groups: ['devs'] } },
  },
  {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln', audiences: ['https://kube-spaces.example.com'] },
    status: { authenticated: true, user: { username: 'system:serviceaccount:shop:shop', uid: '7a7b', groups: ['system:serviceaccounts'] }, audiences: ['https://kube-spaces.example.com'] },
  },
  {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token: 'not-a-token' },
    status: { user: {}, error: 'the token is not valid' },
  },
];
