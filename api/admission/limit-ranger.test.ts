import { describe, expect, it } from 'vitest';
import { persistentVolumeClaims } from '../kinds/core/persistent-volume-claim.js';
import { pods } from '../kinds/core/pod.js';
import type { LimitRange, Pod } from '../kinds/core/types.js';
import { ApiError } from '../status.js';
import type { AdmissionAttributes } from '../registry/generic-store.js';
import type { KubeObject } from '../registry/object.js';
import { limitRanger } from './limit-ranger.js';
import type { ResourceDefinition } from '../registry/resource-definition.js';

const range = (limits: NonNullable<LimitRange['spec']>['limits']): LimitRange => ({ metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } });
const attrs = (object: KubeObject, def: ResourceDefinition = pods as ResourceDefinition, operation: 'create' | 'update' = 'create'): AdmissionAttributes => ({
  operation, def, tenant: 't1', namespace: 'ns', object, old: undefined, user: undefined,
});
const pod = (containers: NonNullable<Pod['spec']>['containers'], initContainers?: NonNullable<Pod['spec']>['initContainers']): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers, ...(initContainers ? { initContainers } : {}) },
});

async function refusal(plugin: ReturnType<typeof limitRanger>, a: AdmissionAttributes): Promise<string> {
  try {
    await plugin.admit(a);
  } catch (err) {
    if (err instanceof ApiError) return err.message;
    throw err;
  }
  throw new Error('admitted');
}

describe('LimitRanger', () => {
  it('fills defaults into containers and init containers and says so as kube does', async () => {
    const plugin = limitRanger(() => [range([{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } }])]);
    const p = pod([{ name: 'c', image: 'nginx', resources: { limits: { memory: '128Mi' } } }], [{ name: 'i', image: 'busybox' }]);
    await plugin.mutate!(attrs(p));
    expect(p.spec!.containers![0]!.resources).toEqual({ limits: { memory: '128Mi', cpu: '500m' }, requests: { cpu: '100m' } });
    expect(p.spec!.initContainers![0]!.resources).toEqual({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m' } });
    expect(p.metadata.annotations?.['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container c; cpu limit for container c; cpu request for init container i; cpu, memory limit for init container i',
    );
    await plugin.admit(attrs(p));
  });

  it('refuses containers past max, under min or over the ratio, every reason at once', async () => {
    const plugin = limitRanger(() => [range([{ type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m' }, maxLimitRequestRatio: { cpu: '4' } }])]);
    const p = pod([{ name: 'c', image: 'nginx', resources: { limits: { cpu: '2', memory: '2Gi' }, requests: { cpu: '50m' } } }]);
    expect(await refusal(plugin, attrs(p))).toBe(
      'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, cpu max limit to request ratio per Container is 4, but provided ratio is 40.000000]',
    );
    const none = pod([{ name: 'c', image: 'nginx' }]);
    expect(await refusal(limitRanger(() => [range([{ type: 'Container', max: { cpu: '1' } }])]), attrs(none))).toBe('pods "p" is forbidden: maximum cpu usage per Container is 1.  No limit is specified');
  });

  it('bounds a pod’s total and a claim’s request', async () => {
    const plugin = limitRanger(() => [range([{ type: 'Pod', max: { cpu: '1' } }, { type: 'PersistentVolumeClaim', max: { storage: '1Gi' }, min: { storage: '100Mi' } }])]);
    const p = pod([
      { name: 'a', image: 'nginx', resources: { limits: { cpu: '600m' } } },
      { name: 'b', image: 'nginx', resources: { limits: { cpu: '600m' } } },
    ]);
    expect(await refusal(plugin, attrs(p))).toBe('pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
    const claim = { metadata: { name: 'c', namespace: 'ns' }, spec: { resources: { requests: { storage: '2Gi' } } } };
    expect(await refusal(plugin, attrs(claim, persistentVolumeClaims as ResourceDefinition, 'update'))).toBe('persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 2Gi');
  });

  it('leaves pod updates alone', async () => {
    const plugin = limitRanger(() => [range([{ type: 'Container', max: { cpu: '1' } }])]);
    await plugin.admit(attrs(pod([{ name: "c", image: "nginx" }]), pods as ResourceDefinition, 'update'));
  });
});
