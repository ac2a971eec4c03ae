import { describe, expect, it } from 'vitest';
import { pods } from '../../kinds/core/pod.js';
import { mutatingAdmissionPolicies, type MutatingAdmissionPolicy, type MutatingAdmissionPolicyBinding } from '../../kinds/admissionregistration/mutating-admission-policy.js';
import { defaultMatchResources } from '../../kinds/admissionregistration/policy-types.js';
import type { AdmissionAttributes } from '../../registry/generic-store.js';
import type { KubeObject } from '../../registry/object.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { ApiError } from '../../status.js';
import { mutatingPolicyAdmission } from './mutating-policy-admission.js';
import type { PolicyReaders } from './policy-sources.js';

const podRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] };

function policy(name: string, mutations: NonNullable<MutatingAdmissionPolicy['spec']>['mutations'], extra: Partial<NonNullable<MutatingAdmissionPolicy['spec']>> = {}): MutatingAdmissionPolicy {
  const p: MutatingAdmissionPolicy = { metadata: { name }, spec: { matchConstraints: { resourceRules: [podRule] }, mutations, ...extra } };
  mutatingAdmissionPolicies[0]!.defaults!(p);
  expect(mutatingAdmissionPolicies[0]!.validate!(p)).toEqual([]);
  return p;
}

function binding(policyName: string): MutatingAdmissionPolicyBinding {
  const b: MutatingAdmissionPolicyBinding = { metadata: { name: policyName }, spec: { policyName } };
  defaultMatchResources(b.spec?.matchResources);
  return b;
}

function plugin(spaces: Record<string, { policies: MutatingAdmissionPolicy[]; bindings: MutatingAdmissionPolicyBinding[] }>) {
  const readers: PolicyReaders = {
    namespace: async (_t, name) => ({ metadata: { name } }),
    kindFor: () => undefined,
    get: async () => undefined,
    select: async () => [],
    equivalents: () => [],
  };
  return mutatingPolicyAdmission({ lister: { policies: (t) => spaces[t]?.policies ?? [], bindings: (t) => spaces[t]?.bindings ?? [] }, readers });
}

const pod = (labels?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'shop', ...(labels ? { labels } : {}) }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }) as KubeObject;

const attrs = (tenant: string, object: KubeObject): AdmissionAttributes => ({ operation: 'create', def: pods as ResourceDefinition, tenant, namespace: 'shop', object, old: undefined, user: undefined });

const setTeam = policy('team', [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "Object{metadata: Object.metadata{labels: {'team': 'shop'}}}" } }], {
  matchConditions: [{ name: 'no-team', expression: "!has(object.metadata.labels) || !('team' in object.metadata.labels)" }],
});

describe('MutatingAdmissionPolicy admission', () => {
  it('merges an apply configuration into the object, in its space only', async () => {
    const p = plugin({ t1: { policies: [setTeam], bindings: [binding('team')] } });
    const a = attrs('t1', pod({ app: 'web' }));
    await p.mutate!(a);
    expect(a.object.metadata.labels).toEqual({ app: 'web', team: 'shop' });
    const kept = attrs('t1', pod({ team: 'other' }));
    await p.mutate!(kept);
    expect(kept.object.metadata.labels).toEqual({ team: 'other' });
    const other = attrs('t2', pod());
    await p.mutate!(other);
    expect(other.object.metadata.labels).toBeUndefined();
  });

  it('applies JSON patches a CEL expression builds', async () => {
    const patch = policy('annotate', [
      {
        patchType: 'JSONPatch',
        jsonPatch: { expression: "[JSONPatch{op: 'add', path: '/metadata/annotations', value: {'checked': 'yes'}}, JSONPatch{op: 'replace', path: '/spec/containers/0/image', value: object.spec.containers[0].image + ':1.27'}]" },
      },
    ]);
    const a = attrs('t1', pod());
    await plugin({ t1: { policies: [patch], bindings: [binding('annotate')] } }).mutate!(a);
    expect(a.object.metadata.annotations).toEqual({ checked: 'yes' });
    expect((a.object as unknown as { spec: { containers: Array<{ image: string }> } }).spec.containers[0]!.image).toBe('nginx:1.27');
  });

  it('refuses with the error under failurePolicy Fail, and ignores it under Ignore', async () => {
    const broken = (failurePolicy: string) => policy('broken', [{ patchType: 'JSONPatch', jsonPatch: { expression: "[JSONPatch{op: 'remove', path: '/metadata/labels/none'}]" } }], { failurePolicy });
    try {
      await plugin({ t1: { policies: [broken('Fail')], bindings: [binding('broken')] } }).mutate!(attrs('t1', pod()));
      throw new Error('admitted');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toMatch(/^pods "p" is forbidden: MutatingAdmissionPolicy 'broken' with binding 'broken' denied request: /);
    }
    const a = attrs('t1', pod());
    await plugin({ t1: { policies: [broken('Ignore')], bindings: [binding('broken')] } }).mutate!(a);
    expect(a.object.metadata.labels).toBeUndefined();
  });

  it('runs an IfNeeded policy again after a later policy changed the object', async () => {
    const copy = policy('a-copy', [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: "has(object.metadata.labels) && 'team' in object.metadata.labels ? Object{metadata: Object.metadata{annotations: {'team': object.metadata.labels['team']}}} : Object{}" } }], {
      reinvocationPolicy: 'IfNeeded',
    });
    const a = attrs('t1', pod());
    await plugin({ t1: { policies: [copy, setTeam], bindings: [binding('a-copy'), binding('team')] } }).mutate!(a);
    expect(a.object.metadata.annotations).toEqual({ team: 'shop' });
  });

  it('validates mutations as kube does', () => {
    const p: MutatingAdmissionPolicy = { metadata: { name: 'm' }, spec: { matchConstraints: { resourceRules: [podRule] }, mutations: [{ patchType: 'Merge' }, { patchType: 'JSONPatch' }], reinvocationPolicy: 'Sometimes' } };
    mutatingAdmissionPolicies[0]!.defaults!(p);
    expect(mutatingAdmissionPolicies[0]!.validate!(p).map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.mutations[0].patchType: Unsupported value: "Merge": supported values: "ApplyConfiguration", "JSONPatch"',
      'spec.mutations[1].jsonPatch: Required value: must be specified when patchType is JSONPatch',
      'spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never"',
    ]);
  });
});
