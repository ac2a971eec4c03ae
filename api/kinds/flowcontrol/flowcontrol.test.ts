import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages } from '../apps/testing.js';
import { flowSchemas, type FlowSchema } from './flowschema.js';
import { priorityLevelConfigurations, type PriorityLevelConfiguration } from './prioritylevelconfiguration.js';

const everything = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] };
const fs = (spec: FlowSchema['spec'] = {}): FlowSchema => ({ metadata: { name: 'tenants' }, spec: { priorityLevelConfiguration: { name: 'tenants' }, distinguisherMethod: { type: 'ByUser' }, rules: [everything], ...spec } });
const queued = (queuing: object): PriorityLevelConfiguration => ({ metadata: { name: 'tenants' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 20, limitResponse: { type: 'Queue', queuing } } } });

describe('FlowSchema', () => {
  it('defaults matchingPrecedence to 1000 and prints as kubectl does', async () => {
    const { object, errors } = await create(flowSchemas, fs());
    expect(errors).toEqual([]);
    expect(object.spec?.matchingPrecedence).toBe(1000);
    expect(headers(flowSchemas)).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    expect(cells(flowSchemas, object)).toEqual(['tenants', 'tenants', 1000, 'ByUser', '10m', '?']);
    expect(flowSchemas).toMatchObject({ scope: 'cluster' });
  });

  it.each<[string, FlowSchema['spec'], string[]]>([
    ['a precedence above 10000', { matchingPrecedence: 10001 }, ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']],
    ['an unknown distinguisher', { distinguisherMethod: { type: 'ByTenant' } }, ['spec.distinguisherMethod.type: Unsupported value: "ByTenant": supported values: "ByNamespace", "ByUser"']],
    ['no priority level', { priorityLevelConfiguration: { name: '' } }, ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']],
    ['a rule with no subject and no rules', { rules: [{ subjects: [] }] }, ['spec.rules[0].subjects: Required value: subjects must contain at least one value', 'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty']],
    [
      'a namespaced rule naming no namespace',
      { rules: [{ ...everything, resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }] },
      ['spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace'],
    ],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(flowSchemas, fs(spec))).errors)).toEqual(want);
  });
});

describe('PriorityLevelConfiguration', () => {
  it('defaults the queues as kube v1 does and prints as kubectl does', async () => {
    const { object, errors } = await create(priorityLevelConfigurations, queued({}));
    expect(errors).toEqual([]);
    expect(object.spec?.limited?.limitResponse?.queuing).toEqual({ queues: 64, handSize: 8, queueLengthLimit: 50 });
    expect(headers(priorityLevelConfigurations)).toEqual(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    expect(cells(priorityLevelConfigurations, object)).toEqual(['tenants', 'Limited', 20, 64, 8, 50, '10m']);
    const exempt = await create(priorityLevelConfigurations, { metadata: { name: 'exempt' }, spec: { type: 'Exempt' } });
    expect(cells(priorityLevelConfigurations, exempt.object)).toEqual(['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '10m']);
  });

  it.each<[string, PriorityLevelConfiguration, string[]]>([
    ['a hand larger than the deck', queued({ queues: 4, handSize: 5, queueLengthLimit: 10 }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)']],
    ['a hand needing too much entropy', queued({ queues: 128, handSize: 10, queueLengthLimit: 10 }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 10: required entropy bits of deckSize 128 and handSize 10 should not be greater than 60']],
    ['an unknown type', { metadata: { name: 'x' }, spec: { type: 'Sometimes' } }, ['spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"']],
    ['Limited without limited', { metadata: { name: 'x' }, spec: { type: 'Limited' } }, ['spec.limited: Required value: must not be empty when type is Limited']],
  ])('refuses %s', async (_what, obj, want) => {
    expect(messages((await create(priorityLevelConfigurations, obj)).errors)).toEqual(want);
  });
});
