import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../registry/object.js';
import { ResourceRegistry } from '../../registry/registry.js';
import { checkObject } from '../../schema/check-object.js';
import { definitions, refName, resolve, type Schema } from '../../schema/schema.js';
import { CREATED, create } from '../apps/testing.js';
import { coreKinds } from './index.js';

const container = { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] };
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } };

/** A small valid object of every core kind, as a user would write it. */
const samples: Record<string, KubeObject> = {
  tenants: { metadata: { name: 't1' } },
  configmaps: { metadata: { name: 'app-config' }, data: { 'app.properties': 'color=blue' }, binaryData: { 'logo.png': 'aGVsbG8=' } },
  endpoints: {
    metadata: { name: 'web' },
    subsets: [{ addresses: [{ ip: '10.244.0.5', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-1' } }], ports: [{ name: 'http', port: 80 }] }],
  },
  events: {
    metadata: { name: 'web-1.17a8b7c5e1d2f3a4' },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-1', fieldPath: 'spec.containers{web}' },
    reason: 'Pulled',
    message: 'Successfully pulled image "nginx:1.25"',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: CREATED,
    lastTimestamp: CREATED,
    count: 1,
    type: 'Normal',
  },
  limitranges: { metadata: { name: 'limits' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, defaultRequest: { cpu: '100m' } }] } },
  namespaces: { metadata: { name: 'team-a' } },
  nodes: {
    metadata: { name: 'node-1', labels: { 'node-role.kubernetes.io/worker': '' } },
    spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: '2024-05-01T10:00:00Z', lastTransitionTime: '2024-05-01T10:00:00Z' }],
      addresses: [{ type: 'InternalIP', address: '10.0.0.11' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { kubeletVersion: 'v1.33.0', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0', operatingSystem: 'linux', architecture: 'amd64' },
    },
  },
  persistentvolumeclaims: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' } },
  persistentvolumes: { metadata: { name: 'pv-1' }, spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data/pv-1' } } },
  pods: { metadata: { name: 'web' }, spec: { containers: [container] } },
  podtemplates: { metadata: { name: 'web' }, template },
  replicationcontrollers: { metadata: { name: 'web' }, spec: { replicas: 2, template } },
  resourcequotas: { metadata: { name: 'compute' }, spec: { hard: { 'requests.cpu': '4', pods: '10' } } },
  secrets: { metadata: { name: 'creds' }, stringData: { password: 's3cret' } },
  serviceaccounts: { metadata: { name: 'builder' }, secrets: [{ name: 'builder-token' }] },
  services: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } },
};

/** Every `$ref` target inside a schema, without following it. */
function directRefs(schema: Schema | undefined, into: Set<string>): Set<string> {
  if (!schema) return into;
  const name = refName(schema);
  if (name !== undefined) return into.add(name);
  Object.values(schema.properties ?? {}).forEach((s) => directRefs(s, into));
  directRefs(schema.items, into);
  if (typeof schema.additionalProperties === 'object') directRefs(schema.additionalProperties, into);
  [...(schema.allOf ?? []), ...(schema.anyOf ?? [])].forEach((s) => directRefs(s, into));
  return into;
}

describe('coreKinds', () => {
  it('registers every core kind once, with Kubernetes’ names', () => {
    expect(() => new ResourceRegistry(coreKinds)).not.toThrow();
    const summary = coreKinds.map((d) => [d.apiVersion, d.resource, d.kind, d.shortNames.join(',')].join(' '));
    expect(summary).toEqual([
      'v1 configmaps ConfigMap cm',
      'v1 endpoints Endpoints ep',
      'v1 events Event ev',
      'v1 limitranges LimitRange limits',
      'v1 namespaces Namespace ns',
      'v1 nodes Node no',
      'v1 persistentvolumeclaims PersistentVolumeClaim pvc',
      'v1 persistentvolumes PersistentVolume pv',
      'v1 pods Pod po',
      'v1 podtemplates PodTemplate ',
      'v1 replicationcontrollers ReplicationController rc',
      'v1 resourcequotas ResourceQuota quota',
      'v1 secrets Secret ',
      'v1 serviceaccounts ServiceAccount sa',
      'v1 services Service svc',
      'v1 tenants Tenant te',
    ]);
  });

  it('matches Kubernetes on scope, categories, subresources and strategy flags', () => {
    const names = (pick: (d: (typeof coreKinds)[number]) => boolean): string[] => coreKinds.filter(pick).map((d) => d.resource);
    expect(names((d) => d.scope === 'space')).toEqual(['namespaces', 'persistentvolumes']);
    expect(names((d) => d.categories.includes('all'))).toEqual(['pods', 'replicationcontrollers', 'services']);
    expect(names((d) => d.scope === 'cluster')).toEqual(['nodes', 'tenants']);
    expect(names((d) => d.status)).toEqual(['namespaces', 'nodes', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'replicationcontrollers', 'resourcequotas', 'services', 'tenants']);
    expect(names((d) => d.scale !== undefined)).toEqual(['replicationcontrollers']);
    expect(names((d) => d.allowCreateOnUpdate)).toEqual(['endpoints', 'events', 'limitranges', 'services']);
    expect(names((d) => d.returnDeletedObject)).toEqual(['namespaces', 'persistentvolumeclaims', 'persistentvolumes', 'pods', 'serviceaccounts', 'services', 'tenants']);
    expect(names((d) => d.nameRule !== 'dns1123-subdomain').map((r) => `${r}:${coreKinds.find((d) => d.resource === r)!.nameRule}`)).toEqual([
      'events:path-segment',
      'namespaces:dns1123-label',
      'services:dns1123-label',
      'tenants:dns1123-label',
    ]);
    expect(coreKinds.every((d) => d.allowUnconditionalUpdate)).toBe(true);
  });

  it('gives every kind a named schema tagged with its group, version and kind', () => {
    for (const def of coreKinds) {
      const schema = resolve(def.schema);
      expect(schema?.['x-kubernetes-group-version-kind'], def.resource).toEqual([{ group: '', version: 'v1', kind: def.kind }]);
      expect(Object.keys(schema?.properties ?? {}), def.resource).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata']));
    }
  });

  it('defines every schema that any definition refers to', () => {
    const missing: string[] = [];
    for (const [name, schema] of definitions) {
      for (const target of directRefs(schema, new Set())) if (!definitions.has(target)) missing.push(`${name} -> ${target}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(coreKinds.map((def) => [def.resource, def] as const))('accepts a typical %s, defaulted, with no field its schema lacks', async (resource, def) => {
    const { object, errors } = await create(def, samples[resource]!);
    expect(errors).toEqual([]);
    const check = checkObject(object, def.schema);
    expect(check.typeError).toBeUndefined();
    expect(check.unknownFields).toEqual([]);
    expect(def.columns.map((c) => typeof c.cell(object, Date.now()))).not.toContain('undefined');
  });
});
