/** Well-filled webhook configurations, in the JSON form Go writes, for the round-trip tests. */
import { spaceMeta } from './metadata.js';

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps', 'pods/status'], scope: 'Namespaced' }];
const common = {
  rules,
  failurePolicy: 'Fail',
  matchPolicy: 'Equivalent',
  namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
  objectSelector: {},
  sideEffects: 'None',
  timeoutSeconds: 5,
  admissionReviewVersions: ['v1', 'v1beta1'],
  matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
};

export const webhookSamples = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: spaceMeta('deny-labelled', { generation: 1 }),
    webhooks: [
      { name: 'deny.example.com', clientConfig: { url: 'https://127.0.0.1:8443/validate', caBundle: 'LS0tLS1CRUdJTg==' }, ...common },
      { name: 'svc.example.com', clientConfig: { service: { namespace: 'hooks', name: 'webhook', path: '/v', port: 443 } }, ...common, timeoutSeconds: 10 },
    ],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: spaceMeta('add-label', { generation: 2 }),
    webhooks: [{ name: 'label.example.com', clientConfig: { url: 'https://127.0.0.1:8443/mutate' }, ...common, reinvocationPolicy: 'IfNeeded' }],
  },
];
