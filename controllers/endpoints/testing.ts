/** Pods and a Service for the endpoints and endpointslice controllers' tests. */
import type { Pod, Service } from '../../api/kinds/core/types.js';

export function testPod(name: string, ip: string | undefined, extra: { ready?: boolean; deleting?: boolean; phase?: string; port?: { name: string; containerPort: number }; hostname?: string } = {}): Pod {
  return {
    metadata: { name, namespace: 'default', tenant: 't1', uid: `uid-${name}`, labels: { app: 'web' }, ...(extra.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {
      nodeName: 'sim-node-0',
      containers: [{ name: 'c', image: 'nginx', ports: extra.port ? [{ ...extra.port, protocol: 'TCP' }] : [] }],
      ...(extra.hostname ? { hostname: extra.hostname, subdomain: 'web' } : {}),
    } as Pod['spec'],
    status: { phase: extra.phase ?? 'Running', ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}), conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }] },
  };
}

export function testService(spec: Service['spec']): Service {
  return { metadata: { name: 'web', namespace: 'default', tenant: 't1', uid: 'svc-uid' }, spec: { selector: { app: 'web' }, ...spec } };
}
