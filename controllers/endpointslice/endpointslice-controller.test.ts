import { describe, expect, it } from 'vitest';
import { testPod, testService } from '../endpoints/testing.js';
import { desiredSlices, MAX_ENDPOINTS_PER_SLICE } from './endpointslice-controller.js';

describe('desiredSlices (the endpointslice controller)', () => {
  const svc = testService({ ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] });

  it('gives each pod IP an endpoint with ready, serving and terminating', () => {
    const [slice, ...rest] = desiredSlices(svc, [testPod('a', '10.244.0.2'), testPod('slow', '10.244.0.3', { ready: false }), testPod('going', '10.244.0.4', { deleting: true }), testPod('done', '10.244.0.5', { phase: 'Failed' })]);
    expect(rest).toEqual([]);
    expect(slice?.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice?.endpoints.map((e) => [e.addresses?.[0], e.conditions])).toEqual([
      ['10.244.0.2', { ready: true, serving: true, terminating: false }],
      ['10.244.0.3', { ready: false, serving: false, terminating: false }],
      ['10.244.0.4', { ready: false, serving: true, terminating: true }],
    ]);
  });

  it('cuts slices at 100 endpoints', () => {
    const pods = Array.from({ length: 250 }, (_, i) => testPod(`p${i}`, `10.244.${Math.floor(i / 200)}.${(i % 200) + 2}`));
    expect(desiredSlices(svc, pods).map((s) => s.endpoints.length)).toEqual([MAX_ENDPOINTS_PER_SLICE, MAX_ENDPOINTS_PER_SLICE, 50]);
  });

  it('keeps one empty placeholder slice when no pod is selected', () => {
    expect(desiredSlices(svc, [])).toEqual([{ ports: [], endpoints: [] }]);
  });
});
