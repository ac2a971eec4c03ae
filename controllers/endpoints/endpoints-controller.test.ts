import { describe, expect, it } from 'vitest';
import { endpointSubsets } from './endpoints-controller.js';
import { selects, targetPort } from './service-pods.js';
import { testPod, testService } from './testing.js';

describe('endpointSubsets (the endpoints controller)', () => {
  it('lists ready pods as addresses and unready ones as notReadyAddresses, sorted, skipping pods without IP, finished or terminating', () => {
    const pods = [
      testPod('b', '10.244.0.3'),
      testPod('a', '10.244.0.2'),
      testPod('slow', '10.244.0.4', { ready: false }),
      testPod('new', undefined),
      testPod('done', '10.244.0.5', { phase: 'Succeeded' }),
      testPod('going', '10.244.0.6', { deleting: true }),
    ];
    const subsets = endpointSubsets(testService({ ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] }), pods);
    expect(subsets).toEqual([
      {
        addresses: [
          { ip: '10.244.0.2', nodeName: 'sim-node-0', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } },
          { ip: '10.244.0.3', nodeName: 'sim-node-0', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' } },
        ],
        notReadyAddresses: [{ ip: '10.244.0.4', nodeName: 'sim-node-0', targetRef: { kind: 'Pod', namespace: 'default', name: 'slow', uid: 'uid-slow' } }],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);
  });

  it('publishes not-ready pods as ready with publishNotReadyAddresses', () => {
    const subsets = endpointSubsets(testService({ publishNotReadyAddresses: true, ports: [{ port: 80, protocol: 'TCP' }] }), [testPod('slow', '10.244.0.4', { ready: false })]);
    expect(subsets[0]?.addresses?.map((a) => a.ip)).toEqual(['10.244.0.4']);
    expect(subsets[0]?.notReadyAddresses).toBeUndefined();
  });

  it('resolves named target ports per pod, grouping pods by the ports they resolve', () => {
    const svc = testService({ ports: [{ port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const subsets = endpointSubsets(svc, [testPod('a', '10.244.0.2', { port: { name: 'web', containerPort: 8080 } }), testPod('b', '10.244.0.3', { port: { name: 'web', containerPort: 9090 } }), testPod('c', '10.244.0.4')]);
    expect(subsets.map((s) => [s.ports?.[0]?.port, s.addresses?.map((a) => a.ip)])).toEqual([
      [8080, ['10.244.0.2']],
      [9090, ['10.244.0.3']],
    ]);
  });

  it('gives a headless service without ports its addresses, with hostnames for its subdomain', () => {
    const subsets = endpointSubsets(testService({ clusterIP: 'None' }), [testPod('a', '10.244.0.2', { hostname: 'a-0' })]);
    expect(subsets).toEqual([{ addresses: [{ ip: '10.244.0.2', hostname: 'a-0', nodeName: 'sim-node-0', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } }] }]);
  });

  it('matches selectors and ports as Kubernetes', () => {
    expect(selects({ app: 'web' }, { app: 'web', x: 'y' })).toBe(true);
    expect(selects({ app: 'web' }, { app: 'db' })).toBe(false);
    expect(selects({}, { app: 'web' })).toBe(false);
    expect(targetPort(testPod('a', '1.2.3.4'), { port: 80 })).toBe(80);
    expect(targetPort(testPod('a', '1.2.3.4'), { port: 80, targetPort: '8080' })).toBe(8080);
    expect(targetPort(testPod('a', '1.2.3.4'), { port: 80, targetPort: 'missing' })).toBeUndefined();
  });
});
