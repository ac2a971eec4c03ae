import { describe, expect, it } from 'vitest';
import { NOW } from '../apps/testing.js';
import type { ResourceDefinition } from '../../registry/resource-definition.js';
import { heldRuleSets } from './cel-rules.js';
import { CustomResourceKinds, defaultDeprecationWarning, simpleJsonPath } from './custom-resource.js';
import type { CustomResourceDefinition } from './types.js';

const shared = new CustomResourceKinds();
const customResourceKinds = (c: CustomResourceDefinition) => shared.of(c);
const customResourceKind = (c: CustomResourceDefinition) => customResourceKinds(c)[0];

function crd(tenant: string, over: Partial<NonNullable<CustomResourceDefinition['spec']>> = {}, established = true): CustomResourceDefinition {
  const names = { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] };
  return {
    metadata: { name: 'crontabs.stable.example.com', tenant, uid: `uid-${tenant}` },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names,
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } } } } }],
      ...over,
    },
    status: { acceptedNames: names, storedVersions: ['v1'], conditions: established ? [{ type: 'Established', status: 'True' }] : [] },
  };
}

describe('customResourceKind', () => {
  it('serves an Established CRD’s storage version under its accepted names', () => {
    const def = customResourceKind(crd('t1'))!;
    expect(def).toMatchObject({ group: 'stable.example.com', version: 'v1', apiVersion: 'stable.example.com/v1', kind: 'CronTab', listKind: 'CronTabList', resource: 'crontabs', scope: 'namespace', shortNames: ['ct'], status: false });
    expect(def.schema.properties?.['spec']).toEqual({ type: 'object', properties: { cronSpec: { type: 'string' } } });
    expect(def.schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
    expect(def.columns.map((c) => [c.name, c.type])).toEqual([['Name', 'string'], ['Age', 'date']]);
    expect(def.columns[1]!.cell({ metadata: { creationTimestamp: new Date(NOW - 600_000).toISOString() } }, NOW)).toBe('10m');
  });

  it('converts through the CRD’s webhook, resolving its service in the space of the CRD serving the objects', async () => {
    const asked: string[] = [];
    const kinds = new CustomResourceKinds(undefined, async (tenant) => {
      asked.push(tenant);
      return { error: 'dial tcp: lookup conv.hooks.svc: no such host' };
    });
    const v1 = { name: 'v1', served: true, storage: true };
    const conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'hooks', name: 'conv' } }, conversionReviewVersions: ['v1'] } };
    const [stored, served] = kinds.of(crd('t1', { versions: [v1, { ...v1, name: 'v2', storage: false }], conversion }));
    expect(kinds.of(crd('system', { versions: [v1, { ...v1, name: 'v2', storage: false }], conversion }))[1]).toBe(served);
    expect(stored!.converter).toBe(served!.converter);
    const object = (tenant: string) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', tenant } });
    for (const tenant of ['t1', 't2']) {
      await expect(served!.converter!.convert([object(tenant)], 'stable.example.com/v2', tenant, false)).rejects.toThrow(
        'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://conv.hooks.svc:443?timeout=30s": dial tcp: lookup conv.hooks.svc: no such host',
      );
    }
    // t1's objects reach t1's CRD's service; t2 has no CRD of that name, so it is served the system's.
    expect(asked).toEqual(['t1', 'system']);
    expect(customResourceKind(crd('t1'))!.converter).toBeUndefined();
  });

  it('serves nothing before Established', () => {
    expect(customResourceKind(crd('t1', {}, false))).toBeUndefined();
  });

  it('shares one definition between identical CRDs of different spaces, and not between different ones', () => {
    expect(customResourceKind(crd('t1'))).toBe(customResourceKind(crd('t2')));
    expect(customResourceKind(crd('t3', { scope: 'Cluster' }))).not.toBe(customResourceKind(crd('t1')));
    expect(customResourceKind(crd('t3', { scope: 'Cluster' }))?.scope).toBe('space');
  });

  it('renders additional printer columns from their JSON paths', () => {
    const versions = [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }, { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 }] }];
    const def = customResourceKind(crd('t1', { versions }))!;
    expect(def.status).toBe(true);
    expect(def.columns.map((c) => [c.name, c.priority])).toEqual([['Name', 0], ['Spec', 0], ['Replicas', 1]]);
    expect(def.columns.map((c) => c.cell({ metadata: { name: 'x' }, spec: { cronSpec: '* * * * */5', replicas: 3 } } as never, NOW))).toEqual(['x', '* * * * */5', 3]);
    expect(simpleJsonPath({ status: { items: ['a', 'b'] } }, '.status.items[1]')).toBe('b');
  });

  it('serves every served version, the storage version first, each stored in the storage version and named by its own', () => {
    const schema = { openAPIV3Schema: { type: 'object' } };
    const versions = [
      { name: 'v1beta1', served: true, storage: false, deprecated: true, schema },
      { name: 'v1', served: true, storage: true, schema, subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } } },
      { name: 'v1alpha1', served: false, storage: false, schema },
      { name: 'v2alpha1', served: true, storage: false, deprecated: true, deprecationWarning: 'v2alpha1 goes away in 2027', schema, selectableFields: [{ jsonPath: '.spec.color' }] },
    ];
    const kinds = customResourceKinds(crd('t1', { versions }));
    expect(kinds.map((k) => [k.apiVersion, k.storage.apiVersion, k.deprecationWarning])).toEqual([
      ['stable.example.com/v1', 'stable.example.com/v1', undefined],
      ['stable.example.com/v1beta1', 'stable.example.com/v1', 'stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab'],
      ['stable.example.com/v2alpha1', 'stable.example.com/v1', 'v2alpha1 goes away in 2027'],
    ]);
    const scale = kinds[0]!.scale!;
    const obj = { metadata: {}, status: { replicas: 2, selector: 'app=x' } };
    scale.setSpecReplicas(obj, 4);
    expect([scale.specReplicas(obj), scale.statusReplicas(obj), scale.selector(obj)]).toEqual([4, 2, 'app=x']);
    expect(kinds[1]!.scale).toBeUndefined();
    expect(kinds[2]!.selectableFields['spec.color']!({ metadata: {}, spec: { color: 'red' } } as never)).toBe('red');
  });

  it('names the best newer version a deprecated one should give way to, as kube-apiserver', () => {
    const spec = (versions: Array<{ name: string; served: boolean; deprecated?: boolean }>) => ({ group: 'g.io', names: { kind: 'K' }, versions });
    expect(defaultDeprecationWarning('v1beta1', spec([{ name: 'v1beta1', served: true, deprecated: true }]))).toBe('g.io/v1beta1 K is deprecated');
    expect(defaultDeprecationWarning('v1beta1', spec([{ name: 'v1beta1', served: true }, { name: 'v1beta2', served: true }, { name: 'v1', served: true }, { name: 'v2', served: false }]))).toBe(
      'g.io/v1beta1 K is deprecated; use g.io/v1 K',
    );
    expect(defaultDeprecationWarning('v1', spec([{ name: 'v1', served: true }, { name: 'v1beta2', served: true }, { name: 'v2', served: true, deprecated: true }]))).toBe('g.io/v1 K is deprecated');
  });
});

describe('CustomResourceKinds', () => {
  const NAME = 'crontabs.stable.example.com';
  const ruled = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'has(self.cronSpec)' }], properties: { cronSpec: { type: 'string' } } } } } };
  const withRule = (tenant: string) => crd(tenant, { versions: [{ name: 'v1', served: true, storage: true, schema: ruled }] });

  it('keeps compiled kinds and their CEL rules while a CRD uses them, and drops them with the last', () => {
    const retired: Array<readonly ResourceDefinition[]> = [];
    const kinds = new CustomResourceKinds((defs) => retired.push(defs));
    const rulesBefore = heldRuleSets();
    const t1 = kinds.of(withRule('t1'));
    expect(kinds.of(withRule('t2'))).toBe(t1);
    expect(kinds.of(withRule('t2'))).toBe(t1);
    expect([kinds.size, heldRuleSets()]).toEqual([1, rulesBefore + 1]);

    kinds.release('t1', NAME);
    expect([retired, kinds.size]).toEqual([[], 1]);
    // t2 changes its CRD: it moves to the new kinds, and the old ones, used by nobody, go.
    const plain = kinds.of(crd('t2'));
    expect(retired).toEqual([t1]);
    expect([kinds.size, heldRuleSets()]).toEqual([1, rulesBefore]);

    kinds.release('t2', NAME);
    expect(retired).toEqual([t1, plain]);
    expect(kinds.size).toBe(0);
    // A CRD released twice, or never used, changes nothing.
    kinds.release('t2', NAME);
    expect(retired).toHaveLength(2);
  });

  it('drops the kinds of a CRD that serves nothing any more', () => {
    const retired: Array<readonly ResourceDefinition[]> = [];
    const kinds = new CustomResourceKinds((defs) => retired.push(defs));
    const served = kinds.of(crd('t1'));
    expect(kinds.of(crd('t1', {}, false))).toEqual([]);
    expect(retired).toEqual([served]);
    expect(kinds.size).toBe(0);
  });
});
