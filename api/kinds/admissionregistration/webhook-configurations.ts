/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration:
 * the admission webhooks of a space. Space-scoped (cluster-scoped in Kubernetes): a space's
 * configurations act on that space's requests only (the dispatcher is
 * `api/admission/webhooks/`). Kubernetes' behaviour: `pkg/apis/admissionregistration/v1/defaults.go`,
 * `pkg/apis/admissionregistration/validation`, `pkg/printers/internalversion` (NAME, WEBHOOKS, AGE).
 */
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { ADMISSION_GROUP, webhookConfigurationSchema, type Webhook, type WebhookConfiguration } from './webhook-types.js';
import { webhookConfigurationValidation } from './webhook-validation.js';

/** v1's defaults for one webhook (SetDefaults_ValidatingWebhook / _MutatingWebhook, _Rule, _ServiceReference). */
function defaultWebhook(hook: Webhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  for (const rule of hook.rules ?? []) rule.scope ??= '*';
  const service = hook.clientConfig?.service;
  if (service) service.port ??= 443;
}

const webhooksColumn: PrinterColumn<WebhookConfiguration> = {
  name: 'Webhooks',
  type: 'integer',
  description: 'The number of webhooks of the configuration.',
  priority: 0,
  cell: (obj) => (obj.webhooks ?? []).length,
};

function defineWebhookConfiguration(kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', resource: string) {
  const mutating = kind === 'MutatingWebhookConfiguration';
  return defineKind<WebhookConfiguration>({
    group: ADMISSION_GROUP,
    version: 'v1',
    kind,
    resource,
    scope: 'space',
    schema: webhookConfigurationSchema(kind),
    tracksGeneration: true,
    defaults: (obj) => {
      for (const hook of obj.webhooks ?? []) defaultWebhook(hook, mutating);
    },
    ...webhookConfigurationValidation(mutating),
    columns: [nameColumn, webhooksColumn as PrinterColumn, ageColumn],
  });
}

export const validatingWebhookConfigurations = defineWebhookConfiguration('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations');
export const mutatingWebhookConfigurations = defineWebhookConfiguration('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations');
