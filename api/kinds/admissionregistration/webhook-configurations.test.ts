import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import type { WebhookConfiguration } from './webhook-types.js';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhook-configurations.js';

const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'deny.example.com',
  clientConfig: { url: 'https://127.0.0.1:8443/validate' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const configuration = (...webhooks: Array<Record<string, unknown>>): WebhookConfiguration => ({ metadata: { name: 'c' }, webhooks });

describe('webhook configurations', () => {
  it("fills kube's v1 defaults", async () => {
    const { object, errors } = await create(mutatingWebhookConfigurations, configuration(hook({ clientConfig: { service: { namespace: 'hooks', name: 'webhook' } } })));
    expect(errors).toEqual([]);
    expect(object.webhooks![0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
      rules: [{ scope: '*' }],
      clientConfig: { service: { port: 443 } },
    });
    const validating = (await create(validatingWebhookConfigurations, configuration(hook()))).object.webhooks![0]!;
    expect(validating.reinvocationPolicy).toBeUndefined();
  });

  it("shows NAME, WEBHOOKS, AGE", async () => {
    const { object } = await create(validatingWebhookConfigurations, configuration(hook(), hook({ name: 'other.example.com' })));
    expect(headers(validatingWebhookConfigurations)).toEqual(['NAME', 'WEBHOOKS', 'AGE']);
    expect(cells(validatingWebhookConfigurations, object)).toEqual(['c', 2, '10m']);
  });

  it("refuses what kube-apiserver refuses, with its messages", async () => {
    const { errors } = await create(
      validatingWebhookConfigurations,
      configuration(
        hook({ name: 'short', sideEffects: undefined, timeoutSeconds: 31, failurePolicy: 'Maybe', admissionReviewVersions: [] }),
        hook({ clientConfig: { url: 'http://user@host/x?q=1#f' }, rules: [{ operations: ['*', 'CREATE'], apiGroups: [], apiVersions: ['v1'], resources: ['*/*', 'pods'], scope: 'Everywhere' }] }),
        hook({ clientConfig: {}, sideEffects: 'Some', matchConditions: [{ name: 'c', expression: 'object.x +' }, { name: 'c', expression: '1' }] }),
        hook({ name: 'svc.example.com', clientConfig: { service: { name: 'w', namespace: 'n', port: 0, path: 'a//b' } } }),
      ),
    );
    expect(messages(errors)).toEqual([
      'webhooks[0].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[1].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      'webhooks[1].rules[0].apiGroups: Required value',
      'webhooks[1].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources',
      'webhooks[1].rules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      'webhooks[1].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[1].clientConfig.url: Invalid value: "user": user information is not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'webhooks[1].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
      'webhooks[2].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[2].clientConfig: Required value: exactly one of url or service is required',
      expect.stringMatching(/^webhooks\[2\]\.matchConditions\[0\]\.expression: Invalid value: "object\.x \+": compilation failed: ERROR: <input>:1:10: Syntax error: /),
      'webhooks[2].matchConditions[1].expression: Invalid value: "1": must evaluate to bool',
      'webhooks[2].matchConditions[1].name: Duplicate value: "c"',
      'webhooks[2].name: Duplicate value: "deny.example.com"',
      'webhooks[3].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'webhooks[3].clientConfig.service.path: Invalid value: "a//b": must start with a \'/\'',
      'webhooks[3].clientConfig.service.path: Invalid value: "a//b": segment[0] may not be empty',
      'webhooks[3].clientConfig.service.path: Invalid value: "a//b": segment[1] may not be empty',
    ]);
  });

  it('keeps an old object writable: what it already broke is tolerated on update', async () => {
    const old = (await create(validatingWebhookConfigurations, configuration(hook()))).object;
    const stored: WebhookConfiguration = { ...old, webhooks: [{ ...old.webhooks![0]!, sideEffects: 'Unknown' }] };
    expect(update(validatingWebhookConfigurations, stored, stored)).toEqual([]);
    const fresh = (await create(validatingWebhookConfigurations, configuration(hook()))).object;
    expect(messages(update(validatingWebhookConfigurations, stored, fresh))).toEqual(['webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"']);
  });
});
