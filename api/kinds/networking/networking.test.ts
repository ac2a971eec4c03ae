import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, update } from '../apps/testing.js';
import { ingresses, type Ingress } from './ingress.js';
import { ingressClasses, type IngressClass } from './ingressclass.js';
import { networkPolicies, type NetworkPolicy } from './networkpolicy.js';

type PolicySpec = NonNullable<NetworkPolicy['spec']>;
const policy = (spec: PolicySpec): NetworkPolicy => ({ metadata: { name: 'allow-web' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ...spec } });

describe('NetworkPolicy', () => {
  it('defaults policy types from the rules and port protocols to TCP', async () => {
    const ingressOnly = await create(networkPolicies, policy({ ingress: [{ ports: [{ port: 80 }] }] }));
    expect(ingressOnly.errors).toEqual([]);
    expect(ingressOnly.object.spec).toMatchObject({ policyTypes: ['Ingress'], ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }] });
    const both = await create(networkPolicies, policy({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] }));
    expect(both.object.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it.each<[string, PolicySpec, string[]]>([
    ['a peer without selectors or block', { ingress: [{ from: [{}] }] }, ['spec.ingress[0].from[0]: Required value: must specify a peer']],
    [
      'an IP block with a selector',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] },
      ['spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer'],
    ],
    ['a bad CIDR', { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }, ['spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    [
      'an exception outside the block',
      { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '192.168.0.0/16'] } }] }] },
      ['spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`'],
    ],
    ['a port out of range', { ingress: [{ ports: [{ port: 70000 }] }] }, ['spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    [
      'a range on a named port',
      { ingress: [{ ports: [{ port: 'http', endPort: 90 }] }] },
      ['spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric'],
    ],
    ['an unknown protocol', { ingress: [{ ports: [{ protocol: 'ICMP' }] }] }, ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"']],
    ['an unknown policy type', { policyTypes: ['Sideways'] }, ['spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"']],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(networkPolicies, policy(spec))).errors)).toEqual(want);
  });

  it('prints POD-SELECTOR', async () => {
    const { object } = await create(networkPolicies, policy({}));
    expect(headers(networkPolicies)).toEqual(['NAME', 'POD-SELECTOR', 'AGE']);
    expect(cells(networkPolicies, object)).toEqual(['allow-web', 'app=web', '10m']);
    expect(cells(networkPolicies, { ...object, spec: { podSelector: {} } })).toEqual(['allow-web', '<none>', '10m']);
    expect(networkPolicies.shortNames).toEqual(['netpol']);
  });
});

type IngressSpec = NonNullable<Ingress['spec']>;
const backend = { service: { name: 'web', port: { number: 80 } } };
const ingress = (spec: IngressSpec): Ingress => ({ metadata: { name: 'web' }, spec });

describe('Ingress', () => {
  it('starts with an empty load-balancer status', async () => {
    const { object, errors } = await create(ingresses, ingress({ rules: [{ host: 'web.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }));
    expect(errors).toEqual([]);
    expect(object.status).toEqual({ loadBalancer: {} });
  });

  it.each<[string, IngressSpec, string[]]>([
    ['neither rules nor a default backend', {}, ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified']],
    ['a path without a type', { rules: [{ http: { paths: [{ path: '/', backend }] } }] }, ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']],
    ['a relative prefix', { rules: [{ http: { paths: [{ path: 'api', pathType: 'Prefix', backend }] } }] }, ['spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path']],
    ['an IP as host', { rules: [{ host: '10.0.0.1', http: { paths: [{ path: '/', pathType: 'Exact', backend }] } }] }, ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address']],
    ['a backend with both port name and number', { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }, ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']],
    ['a backend without a port', { defaultBackend: { service: { name: 'web' } } }, ['spec.defaultBackend: Required value: port name or number is required']],
    [
      'a backend with service and resource',
      { defaultBackend: { ...backend, resource: { kind: 'Bucket', name: 'static' } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(ingresses, ingress(spec))).errors)).toEqual(want);
  });

  it('accepts wildcard hosts', async () => {
    expect((await create(ingresses, ingress({ rules: [{ host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }))).errors).toEqual([]);
  });

  it('prints CLASS HOSTS ADDRESS PORTS', async () => {
    const rules = ['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com'].map((host) => ({ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }));
    const { object } = await create(ingresses, ingress({ ingressClassName: 'nginx', rules, tls: [{ hosts: ['a.example.com'], secretName: 'a-tls' }] }));
    object.status = { loadBalancer: { ingress: [{ ip: '192.0.2.10' }, { hostname: 'lb.example.net' }] } };
    expect(headers(ingresses)).toEqual(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    expect(cells(ingresses, object)).toEqual(['web', 'nginx', 'a.example.com,b.example.com,c.example.com + 1 more...', '192.0.2.10,lb.example.net', '80, 443', '10m']);
    expect(cells(ingresses, ingress({ defaultBackend: backend }))).toEqual(['web', '<none>', '*', '', '80', '<unknown>']);
  });
});

type ClassSpec = NonNullable<IngressClass['spec']>;
const ingressClass = (spec: ClassSpec): IngressClass => ({ metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx', ...spec } });

describe('IngressClass', () => {
  it('is space-scoped and defaults parameters to cluster scope', async () => {
    const { object, errors } = await create(ingressClasses, ingressClass({ parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } }));
    expect(errors).toEqual([]);
    expect(object.spec?.parameters?.scope).toBe('Cluster');
    expect(ingressClasses.scope).toBe('space');
  });

  it.each<[string, ClassSpec, string[]]>([
    ['a controller without a domain', { controller: 'nginx' }, ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']],
    [
      'namespaced parameters without a namespace',
      { parameters: { kind: 'IngressParameters', name: 'p', scope: 'Namespace' } },
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      'cluster parameters with a namespace',
      { parameters: { kind: 'IngressParameters', name: 'p', scope: 'Cluster', namespace: 'x' } },
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
  ])('refuses %s', async (_what, spec, want) => {
    expect(messages((await create(ingressClasses, ingressClass(spec))).errors)).toEqual(want);
  });

  it('keeps its controller for life, and prints CONTROLLER PARAMETERS', async () => {
    const { object } = await create(ingressClasses, ingressClass({ parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } }));
    expect(messages(update(ingressClasses, { ...object, spec: { ...object.spec, controller: 'example.com/other' } }, object))).toEqual([
      'spec.controller: Invalid value: "example.com/other": field is immutable',
    ]);
    expect(headers(ingressClasses)).toEqual(['NAME', 'CONTROLLER', 'PARAMETERS', 'AGE']);
    expect(cells(ingressClasses, object)).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb', '10m']);
  });
});
