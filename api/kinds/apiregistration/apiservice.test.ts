import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers } from '../apps/testing.js';
import { apiServices, type APIService } from './apiservice.js';

const aggregated = (extra: Partial<NonNullable<APIService['spec']>> = {}): APIService => ({
  metadata: { name: 'v1beta1.metrics.k8s.io', creationTimestamp: CREATED },
  spec: { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server' }, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true, ...extra },
});

describe('APIService', () => {
  it('defaults the service port and starts aggregated ones with no status, local ones Available', async () => {
    const { object, errors } = await create(apiServices, aggregated());
    expect(errors).toEqual([]);
    expect(object.spec?.service?.port).toBe(443);
    expect(object.status).toEqual({});
    const local = await create(apiServices, { metadata: { name: 'v1.apps' }, spec: { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 } });
    expect(local.object.status?.conditions).toEqual([{ type: 'Available', status: 'True', lastTransitionTime: expect.any(String), reason: 'Local', message: 'Local APIServices are always available' }]);
  });

  it("validates as kube-aggregator does", async () => {
    const { errors } = await create(apiServices, { ...aggregated({ groupPriorityMinimum: 0, versionPriority: 2000, caBundle: 'AAAA' }), metadata: { name: 'v1.metrics.k8s.io' } });
    expect(errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'metadata.name: Invalid value: "v1.metrics.k8s.io": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 2000: must be positive and less than 1000',
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ]);
    const local = await create(apiServices, { metadata: { name: 'v1beta1.' }, spec: { version: 'v1beta1', groupPriorityMinimum: 1, versionPriority: 1, insecureSkipTLSVerify: true } });
    expect(local.errors.map((e) => e.field)).toEqual(['spec.group', 'spec.insecureSkipTLSVerify']);
  });

  it('prints NAME, SERVICE, AVAILABLE and AGE', () => {
    expect(headers(apiServices)).toEqual(['NAME', 'SERVICE', 'AVAILABLE', 'AGE']);
    const unavailable = { ...aggregated(), status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } };
    expect(cells(apiServices, unavailable)).toEqual(['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '10m']);
    expect(cells(apiServices, aggregated())[2]).toBe('Unknown');
  });
});
