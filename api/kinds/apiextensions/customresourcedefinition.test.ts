import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { customResourceDefinitions, storageVersion } from './customresourcedefinition.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from './types.js';

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } } } };
const v1: CustomResourceDefinitionVersion = { name: 'v1', served: true, storage: true, schema };

/** The CronTab CRD of the Kubernetes documentation, with `spec` overrides. */
function crontab(spec: Partial<NonNullable<CustomResourceDefinition['spec']>> = {}, name = 'crontabs.stable.example.com'): CustomResourceDefinition {
  return {
    metadata: { name },
    spec: { group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] }, versions: [v1], ...spec },
  };
}

const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

describe('CustomResourceDefinition', () => {
  it('defaults singular, listKind and conversion, and records the storage version', async () => {
    const { object, errors } = await create(customResourceDefinitions, crontab());
    expect(errors).toEqual([]);
    expect(object.spec?.names).toEqual({ plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] });
    expect(object.spec?.conversion).toEqual({ strategy: 'None' });
    expect(object.status).toEqual({ storedVersions: ['v1'] });
    expect(storageVersion(object)).toBe('v1');
  });

  it.each<[string, CustomResourceDefinition, string[]]>([
    ['a name other than plural.group', crontab({}, 'crontab.stable.example.com'), ['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']],
    [
      'a group without a dot',
      crontab({ group: 'stable' }, 'crontabs.stable'),
      ['spec.group: Invalid value: "stable": should be a domain with at least one dot'],
    ],
    ['an unknown scope', crontab({ scope: 'Space' }), ['spec.scope: Unsupported value: "Space": supported values: "Cluster", "Namespaced"']],
    ['no scope', crontab({ scope: '' }), ['spec.scope: Required value']],
    [
      'two storage versions',
      crontab({ versions: [v1, { ...v1, name: 'v2' }] }),
      [
        `spec.versions: Invalid value: ${JSON.stringify([v1, { ...v1, name: 'v2' }])}: must have exactly one version marked as storage version`,
        `status.storedVersions: Invalid value: ${JSON.stringify({ ...v1, name: 'v2' })}: must have the storage version v2`,
      ],
    ],
    [
      'two versions of one name',
      crontab({ versions: [v1, { ...v1, storage: false }] }),
      [`spec.versions: Invalid value: ${JSON.stringify([v1, { ...v1, storage: false }])}: must contain unique version names`],
    ],
    ['a version name that is no DNS-1035 label', crontab({ versions: [{ ...v1, name: 'V1' }] }), [`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`]],
    ['a version without schema', crontab({ versions: [{ name: 'v1', served: true, storage: true }] }), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']],
    [
      'a schema without types',
      crontab({ versions: [{ ...v1, schema: { openAPIV3Schema: { properties: { spec: {} } } } }] }),
      // Sorted, as kube sorts structural errors.
      ['spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields', 'spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root'],
    ],
    ['a root that is not an object', crontab({ versions: [{ ...v1, schema: { openAPIV3Schema: { type: 'string' } } }] }), ['spec.versions[0].schema.openAPIV3Schema.type: Invalid value: "string": must be object at the root']],
    [
      'a $ref',
      crontab({ versions: [{ ...v1, schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', $ref: '#/x' } } } } }] }),
      ['spec.versions[0].schema.openAPIV3Schema.properties[a].$ref: Forbidden: $ref is not supported'],
    ],
    ['no kind', crontab({ names: { plural: 'crontabs' } }), ['spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']],
    [
      'a plural that is no DNS-1035 label',
      crontab({ names: { plural: 'Crontabs', kind: 'CronTab' } }, 'Crontabs.stable.example.com'),
      [`spec.names.plural: Invalid value: "Crontabs": ${DNS1035}`],
    ],
    ['a short name that is no DNS-1035 label', crontab({ names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['c_t'] } }), [`spec.names.shortNames[0]: Invalid value: "c_t": ${DNS1035}`]],
    ['kind equal to listKind', crontab({ names: { plural: 'crontabs', kind: 'CronTab', listKind: 'CronTab' } }), ['spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same']],
    ['an unknown conversion strategy', crontab({ conversion: { strategy: 'Magic' } }), ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']],
    ['a conversion without strategy', crontab({ conversion: {} }), ['spec.conversion.strategy: Required value']],
    [
      'webhook conversion without a webhook',
      crontab({ conversion: { strategy: 'Webhook' } }),
      ['spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook', 'spec.conversion.conversionReviewVersions: Required value'],
    ],
    [
      'a conversion webhook with both url and service',
      crontab({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://convert.example.com', service: { namespace: 'ns', name: 'conv' } }, conversionReviewVersions: ['v1'] } } }),
      ['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required'],
    ],
    [
      'a conversion webhook over http, with a query',
      crontab({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://convert.example.com/c?x=1' }, conversionReviewVersions: ['v1'] } } }),
      [
        `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
      ],
    ],
    [
      'a conversion webhook service without name',
      crontab({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'ns' } }, conversionReviewVersions: ['v1'] } } }),
      ['spec.conversion.webhookClientConfig.service.name: Required value: service name is required'],
    ],
    [
      'review versions this server does not speak, or twice',
      crontab({ conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://convert.example.com' }, conversionReviewVersions: ['v2', 'v2'] } } }),
      ['spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version', 'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1'],
    ],
    [
      'a webhook with the None strategy',
      crontab({ conversion: { strategy: 'None', webhook: { clientConfig: { url: 'https://convert.example.com' }, conversionReviewVersions: ['v1'] } } }),
      [
        'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
        'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
      ],
    ],
    [
      'preserveUnknownFields',
      crontab({ preserveUnknownFields: true }),
      ['spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'],
    ],
  ])('refuses %s', async (_what, crd, want) => {
    const { errors } = await create(customResourceDefinitions, crd);
    expect(messages(errors)).toEqual(want);
  });

  it('accepts a schema that preserves unknown fields and int-or-string values without types', async () => {
    const open = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { port: { 'x-kubernetes-int-or-string': true } } } };
    expect((await create(customResourceDefinitions, crontab({ versions: [{ ...v1, schema: open }] }))).errors).toEqual([]);
  });

  it('keeps group and plural always, and scope and kind once Established', async () => {
    const { object } = await create(customResourceDefinitions, crontab());
    const renamed: CustomResourceDefinition = { ...object, spec: { ...object.spec, scope: 'Cluster', names: { ...object.spec!.names, kind: 'Tab' } } };
    expect(update(customResourceDefinitions, renamed, object)).toEqual([]);
    const established = { ...object, status: { ...object.status, conditions: [{ type: 'Established', status: 'True' as const }] } };
    expect(messages(update(customResourceDefinitions, renamed, established))).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Tab": field is immutable',
    ]);
    const moved = { ...object, spec: { ...object.spec, group: 'other.example.com' } };
    expect(messages(update(customResourceDefinitions, moved, object))).toContain('spec.group: Invalid value: "other.example.com": field is immutable');
  });

  it('accepts None with an empty webhook, as kube (no client config, no review versions)', async () => {
    expect((await create(customResourceDefinitions, crontab({ conversion: { strategy: 'None', webhook: {} } }))).errors).toEqual([]);
  });

  it('accepts webhook conversion by url or service, and keeps an update of review versions it never spoke', async () => {
    const byUrl = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://convert.example.com/convert', caBundle: 'Y2E=' }, conversionReviewVersions: ['v1', 'v1beta1'] } };
    expect((await create(customResourceDefinitions, crontab({ conversion: byUrl }))).errors).toEqual([]);
    const byService = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'hooks', name: 'conv', path: '/convert', port: 8443 } }, conversionReviewVersions: ['v1'] } };
    const { object, errors } = await create(customResourceDefinitions, crontab({ conversion: byService }));
    expect(errors).toEqual([]);
    const unknownVersions = { ...byService, webhook: { ...byService.webhook, conversionReviewVersions: ['v9'] } };
    const stored = { ...object, spec: { ...object.spec, conversion: unknownVersions } };
    expect(messages(update(customResourceDefinitions, stored, object))).toEqual(['spec.conversion.conversionReviewVersions: Invalid value: ["v9"]: must include at least one of v1, v1beta1']);
    expect(update(customResourceDefinitions, { ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } } }, stored)).toEqual([]);
  });

  it('adds a new storage version to storedVersions on update, keeping the old one', async () => {
    const { object } = await create(customResourceDefinitions, crontab());
    const next = { ...object, spec: { ...object.spec, versions: [{ ...v1, storage: false }, { ...v1, name: 'v2' }] } };
    const updated = structuredClone(next);
    updated.status = structuredClone(object.status);
    customResourceDefinitions.prepareForUpdate!(updated, object);
    expect(updated.status?.storedVersions).toEqual(['v1', 'v2']);
  });

  it('marks a deleted CRD with the cleanup finalizer and Terminating', async () => {
    const { object } = await create(customResourceDefinitions, crontab());
    expect(customResourceDefinitions.holdsDeletion!(object)).toBe(true);
    customResourceDefinitions.markDeleting!(object);
    expect(object.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(object.status?.conditions).toEqual([expect.objectContaining({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending' })]);
  });

  it('prints NAME and CREATED AT, as kube-apiserver for kinds without printers', async () => {
    const { object } = await create(customResourceDefinitions, crontab());
    expect(headers(customResourceDefinitions)).toEqual(['NAME', 'CREATED AT']);
    expect(cells(customResourceDefinitions, object)).toEqual(['crontabs.stable.example.com', '2024-05-01T10:00:00Z']);
    expect(customResourceDefinitions.columns[1]?.type).toBe('date');
    expect(customResourceDefinitions).toMatchObject({ scope: 'space', shortNames: ['crd', 'crds'], categories: ['api-extensions'], status: true });
  });
});
