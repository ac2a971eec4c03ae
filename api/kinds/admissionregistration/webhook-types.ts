/**
 * admissionregistration.k8s.io/v1 webhook configuration types and their OpenAPI schemas: the
 * webhooks of a ValidatingWebhookConfiguration or MutatingWebhookConfiguration, their rules,
 * client configuration and match conditions (k8s.io/api/admissionregistration/v1/types.go).
 */
import type { KubeObject } from '../../registry/object.js';
import { bytes, define, described, enumOf, integer, list, object, ref, string } from '../../schema/schema.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { ADMISSION_GROUP, type MatchCondition } from './policy-types.js';

export { ADMISSION_GROUP, type MatchCondition };

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of PEM certificates. */
  caBundle?: string;
}

export interface Webhook {
  name?: string;
  clientConfig?: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
  /** Mutating webhooks only. */
  reinvocationPolicy?: string;
}

export interface WebhookConfiguration extends KubeObject {
  webhooks?: Webhook[];
}

export const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
export const SCOPES = ['*', 'Cluster', 'Namespaced'];
export const FAILURE_POLICIES = ['Fail', 'Ignore'];
export const MATCH_POLICIES = ['Equivalent', 'Exact'];
/** What v1 accepts on create (the v1beta1 classes `Some` and `Unknown` only survive on old objects). */
export const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
export const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
export const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

const v1 = (name: string): string => `io.k8s.api.admissionregistration.v1.${name}`;
const labelSelector = ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector');

define(
  v1('RuleWithOperations'),
  object('Operations and resources an admission webhook or policy matches.', {
    operations: list(string('An operation.'), "CREATE, UPDATE, DELETE, CONNECT or '*' for all.", { listType: 'atomic' }),
    apiGroups: list(string('An API group.'), "API groups; '*' for all, '' for the core group.", { listType: 'atomic' }),
    apiVersions: list(string('An API version.'), "API versions; '*' for all.", { listType: 'atomic' }),
    resources: list(string('A resource.'), "Resources, `pods/status` for a subresource, `*` for all resources, `*/*` for all with subresources.", { listType: 'atomic' }),
    scope: enumOf("Cluster, Namespaced or '*' (the default).", SCOPES),
  }),
);

// MatchCondition is defined once, with the admission policies' types (kube has one type for both).

define(
  v1('ServiceReference'),
  object(
    'A Service of the webhook configuration’s space that serves the webhook.',
    {
      namespace: string('The Service’s namespace.'),
      name: string('The Service’s name.'),
      path: string('URL path requests are sent to.'),
      port: integer('The Service port; 443 by default.'),
    },
    { required: ['namespace', 'name'] },
  ),
);

define(
  v1('WebhookClientConfig'),
  object('How to reach the webhook over TLS.', {
    url: string('https://host[:port][/path] of the webhook; exactly one of url or service.'),
    service: described(ref(v1('ServiceReference')), 'A Service of this space serving the webhook.'),
    caBundle: bytes('PEM CA bundle that validates the webhook’s serving certificate; the system trust roots when empty.'),
  }),
);

function webhookProperties(mutating: boolean) {
  return {
    name: string('The webhook’s fully qualified name, e.g. imagepolicy.kubernetes.io.'),
    clientConfig: described(ref(v1('WebhookClientConfig')), 'How to reach the webhook.'),
    rules: list(ref(v1('RuleWithOperations')), 'The operations and resources the webhook cares about.', { listType: 'atomic' }),
    failurePolicy: enumOf('What an unreachable or failing webhook means: Fail (the default) or Ignore.', FAILURE_POLICIES),
    matchPolicy: enumOf('Exact, or Equivalent (the default): also requests through another version of a rule’s resource.', MATCH_POLICIES),
    namespaceSelector: described(labelSelector, 'Which namespaces’ objects are sent, by the namespace’s labels.'),
    objectSelector: described(labelSelector, 'Which objects are sent, by their labels.'),
    sideEffects: enumOf('None or NoneOnDryRun; other webhooks are not called for dry-run requests.', SIDE_EFFECT_CLASSES),
    timeoutSeconds: integer('Seconds to wait for the webhook, 1 to 30; 10 by default.'),
    admissionReviewVersions: list(string('An AdmissionReview version.'), 'AdmissionReview versions the webhook understands, in order of preference; must include v1 or v1beta1.', { listType: 'atomic' }),
    matchConditions: list(ref(v1('MatchCondition')), 'CEL conditions the request must all satisfy; at most 64.', { listType: 'map', mapKeys: ['name'], mergeKey: 'name', strategy: 'merge' }),
    ...(mutating ? { reinvocationPolicy: enumOf('Never (the default) or IfNeeded: called again when later plugins change the object.', REINVOCATION_POLICIES) } : {}),
  };
}

define(v1('ValidatingWebhook'), object('An admission webhook that may refuse requests.', webhookProperties(false), { required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'] }));
define(v1('MutatingWebhook'), object('An admission webhook that may change objects (JSONPatch) or refuse requests.', webhookProperties(true), { required: ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'] }));

/** The named schema of a webhook configuration kind. */
export function webhookConfigurationSchema(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration') {
  const webhook = kind === 'ValidatingWebhookConfiguration' ? 'ValidatingWebhook' : 'MutatingWebhook';
  return define(
    v1(kind),
    object(
      `The ${kind === 'ValidatingWebhookConfiguration' ? 'validating' : 'mutating'} admission webhooks of this space.`,
      {
        apiVersion: string('Versioned schema of this representation of the object.'),
        kind: string('REST resource this object represents.'),
        metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
        webhooks: list(ref(v1(webhook)), 'The webhooks, each with its rules.', { listType: 'map', mapKeys: ['name'], mergeKey: 'name', strategy: 'merge' }),
      },
      { 'x-kubernetes-group-version-kind': [{ group: ADMISSION_GROUP, version: 'v1', kind }] },
    ),
  );
}
