import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { prepareServiceUpdate, services } from './service.js';
import type { Service, ServiceSpec } from './types.js';

const svc = (spec: ServiceSpec, name = 'web'): Service => ({ metadata: { name }, spec });

async function created(input: Service): Promise<Service> {
  const { object, errors } = await create(services, input);
  expect(messages(errors)).toEqual([]);
  return object;
}

/** What the cluster IP admission does after validation. */
function allocated(s: Service, ip = '10.96.0.10'): Service {
  return { ...s, spec: { ...s.spec, clusterIP: ip, clusterIPs: [ip] } };
}

describe('service defaults', () => {
  it('gives a minimal service what a real cluster shows', async () => {
    const { spec, status } = await created(svc({ selector: { app: 'web' }, ports: [{ port: 80 }] }));
    expect(spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
    });
    expect(status).toEqual({ loadBalancer: {} });
  });

  it('fills NodePort and LoadBalancer policies', async () => {
    const { spec } = await created(svc({ type: 'LoadBalancer', ports: [{ port: 443, targetPort: 'https' }] }));
    expect(spec).toMatchObject({ externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true });
    expect(spec?.ports?.[0]?.targetPort).toBe('https');
  });

  it('gives ClientIP affinity a three-hour timeout', async () => {
    const { spec } = await created(svc({ sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }));
    expect(spec?.sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
  });

  it('keeps clusterIP and clusterIPs together, headless included', async () => {
    const headless = await created(svc({ clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] }));
    expect(headless.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    const selectorless = await created(svc({ clusterIP: 'None' }));
    expect(selectorless.spec).toMatchObject({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4'] });
  });

  it('gives an ExternalName service no IP fields', async () => {
    const { spec } = await created(svc({ type: 'ExternalName', externalName: 'db.example.com' }));
    expect(spec).toEqual({ type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
  });
});

describe('service validation', () => {
  it.each<[string, Service, string[]]>([
    ['no ports', svc({ selector: { app: 'web' } }), ['spec.ports: Required value']],
    ['unnamed ports', svc({ ports: [{ port: 80 }, { port: 443 }] }), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    ['a port out of range', svc({ ports: [{ port: 70000 }] }), [
      'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]],
    ['an unknown type', svc({ type: 'Magic', ports: [{ port: 80 }] }), [
      'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]],
    ['a node port on a ClusterIP service', svc({ ports: [{ port: 80, nodePort: 30080 }] }), [
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]],
    ['a name starting with a digit', svc({ ports: [{ port: 80 }] }, '1web'), [
      `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    ]],
    ['an ExternalName without a name', svc({ type: 'ExternalName' }), ['spec.externalName: Required value']],
    ['a duplicate port', svc({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }), ['spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}']],
  ])('%s', async (_, input, expected) => {
    const { errors } = await create(services, input);
    expect(messages(errors)).toEqual(expected);
  });
});

describe('service updates', () => {
  it('keeps the allocated cluster IP when a client leaves it out', async () => {
    const old = allocated(await created(svc({ selector: { app: 'web' }, ports: [{ port: 80 }] })));
    const next = svc({ selector: { app: 'web' }, ports: [{ port: 8080 }] });
    expect(update(services, next, old)).toEqual([]);
  });

  it('refuses a changed cluster IP', async () => {
    const old = allocated(await created(svc({ ports: [{ port: 80 }] })));
    const next = { ...old, spec: { ...old.spec, clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'] } };
    expect(messages(update(services, next, old))).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
  });

  it('reads a changed clusterIP beside unchanged clusterIPs as a change of both, reported at clusterIPs[0]', async () => {
    const old = allocated(await created(svc({ ports: [{ port: 80 }] })));
    const next = { ...old, spec: { ...old.spec, clusterIP: '10.96.0.11' } };
    expect(messages(update(services, next, old))).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
  });

  it('refuses changed clusterIPs beside the old clusterIP at clusterIPs[0], and their mismatch', async () => {
    const old = allocated(await created(svc({ ports: [{ port: 80 }] })));
    const next = { ...old, spec: { ...old.spec, clusterIPs: ['10.96.0.11'] } };
    // Kubernetes lists the update error first; the generic store runs the kind's create checks first.
    expect(messages(update(services, next, old)).sort()).toEqual([
      'spec.clusterIPs: Invalid value: ["10.96.0.11"]: first value must match `clusterIP`',
      'spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set',
    ]);
  });

  it('refuses releasing a secondary cluster IP without SingleStack, and changing the primary family', async () => {
    const old = allocated(await created(svc({ ports: [{ port: 80 }] })));
    const dual = { ...old, spec: { ...old.spec, clusterIPs: ['10.96.0.10', 'fd00::10'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' } };
    const released = { ...dual, spec: { ...dual.spec, clusterIPs: ['10.96.0.10'], ipFamilies: ['IPv4'] } };
    expect(messages(update(services, released, dual))).toEqual([
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary clusterIP",
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary ipFamily",
    ]);
    const family = { ...old, spec: { ...old.spec, ipFamilies: ['IPv6'] } };
    expect(messages(update(services, family, old))).toContain('spec.ipFamilies[0]: Invalid value: ["IPv6"]: may not change once set');
  });

  it('drops the IP fields when turning into an ExternalName service', async () => {
    const old = allocated(await created(svc({ ports: [{ port: 80 }] })));
    const next: Service = { ...structuredClone(old), spec: { ...structuredClone(old.spec), type: 'ExternalName', externalName: 'db.example.com' } };
    expect(update(services, next, old)).toEqual([]);
    prepareServiceUpdate(next, old);
    expect(next.spec).toEqual({ type: 'ExternalName', externalName: 'db.example.com', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' });
  });
});

describe('service columns', () => {
  it('has kubectl’s headers', () => {
    expect(headers(services, true)).toEqual(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']);
  });

  it.each<[string, Service, Array<string | number>]>([
    ['a ClusterIP service', allocated(svc({ type: 'ClusterIP', selector: { app: 'web', tier: 'fe' }, ports: [{ port: 80, protocol: 'TCP' }] })), [
      'ClusterIP', '10.96.0.10', '<none>', '80/TCP', '10m', 'app=web,tier=fe',
    ]],
    ['a NodePort service', allocated(svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, nodePort: 30053, protocol: 'UDP' }] })), [
      'NodePort', '10.96.0.10', '<none>', '80:30080/TCP,53:30053/UDP', '10m', '<none>',
    ]],
    ['a pending load balancer', allocated(svc({ type: 'LoadBalancer', ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }] })), [
      'LoadBalancer', '10.96.0.10', '<pending>', '443:31443/TCP', '10m', '<none>',
    ]],
    ['an ExternalName service', svc({ type: 'ExternalName', externalName: 'db.example.com' }), ['ExternalName', '<none>', 'db.example.com', '<none>', '10m', '<none>']],
  ])('renders %s', (_, s, expected) => {
    s.metadata.creationTimestamp = CREATED;
    expect(cells(services, s).slice(1)).toEqual(expected);
  });

  it('lists load balancer addresses, sorted, before external IPs', () => {
    const s = allocated(svc({ type: 'LoadBalancer', externalIPs: ['192.0.2.9'], ports: [{ port: 80, protocol: 'TCP' }] }));
    s.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }, { hostname: 'lb.example.com' }] } };
    expect(cells(services, s)[3]).toBe('203.0.113.7,lb.example.com,192.0.2.9');
  });
});
