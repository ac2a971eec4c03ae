import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import type { JsonObject } from './json-value.js';
import { ensureNamedFieldsAreMembers, fieldSetOf, ownableFields } from './object-fields.js';
import { statusResetFields } from './reset-fields.js';
import { schemaOf } from './testing.js';

/** FieldsV1 text, keys in the order kube-apiserver writes them. */
const fieldsV1 = (kind: string, obj: JsonObject): string => JSON.stringify(ownableFields(fieldSetOf(obj, schemaOf(kind)), statusResetFields()).toFieldsV1());

describe('the fields an object specifies, as FieldsV1', () => {
  it.each<[string, string, JsonObject, string]>([
    [
      'a deployment: containers by name, ports by (containerPort, protocol) with TCP defaulted, env by name, atomic selector and tolerations',
      'Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { 'example.com/owner': 'team-a' } },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              containers: [
                {
                  name: 'nginx',
                  image: 'nginx:1.25',
                  ports: [{ containerPort: 80 }, { containerPort: 443, name: 'https' }],
                  env: [{ name: 'MODE', value: 'prod' }, { name: 'LOG', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
                },
              ],
              tolerations: [{ key: 'dedicated', operator: 'Exists' }],
            },
          },
        },
      },
      '{"f:metadata":{"f:annotations":{"f:example.com/owner":{}},"f:labels":{"f:app":{}}},' +
        '"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{' +
        '"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},' +
        '"f:env":{"k:{\\"name\\":\\"LOG\\"}":{".":{},"f:name":{},"f:valueFrom":{"f:fieldRef":{}}},"k:{\\"name\\":\\"MODE\\"}":{".":{},"f:name":{},"f:value":{}}},' +
        '"f:image":{},"f:name":{},' +
        '"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}},"k:{\\"containerPort\\":443,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{}}}}},' +
        '"f:tolerations":{}}}}}',
    ],
    [
      'labels, annotations and a data map: every key is a member',
      'ConfigMap',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', labels: { tier: 'db', app: 'web' }, annotations: { note: 'x' } }, data: { b: '2', a: '1' } },
      '{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{"f:note":{}},"f:labels":{"f:app":{},"f:tier":{}}}}',
    ],
    [
      'service ports keyed by (port, protocol), numbers ordered as numbers',
      'Service',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'web' }, ports: [{ port: 8080, targetPort: 80 }, { port: 53, protocol: 'UDP', name: 'dns' }, { port: 53, protocol: 'TCP', name: 'dns-tcp' }] },
      },
      '{"f:spec":{"f:ports":{' +
        '"k:{\\"port\\":53,\\"protocol\\":\\"TCP\\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{}},' +
        '"k:{\\"port\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:name":{},"f:port":{},"f:protocol":{}},' +
        '"k:{\\"port\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}},' +
        '"f:selector":{}}}',
    ],
    [
      'finalizers are a set of values, tolerations an atomic list, an empty struct a member',
      'Pod',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', finalizers: ['example.com/a', 'b.io/x'] },
        spec: { containers: [{ name: 'app', image: 'busybox', resources: {} }], tolerations: [{ key: 'k', operator: 'Exists' }, { key: 'j', operator: 'Exists' }] },
      },
      '{"f:metadata":{"f:finalizers":{"v:\\"b.io/x\\"":{},"v:\\"example.com/a\\"":{}}},' +
        '"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{},"f:resources":{}}},"f:tolerations":{}}}',
    ],
    [
      'set values and key values are written as Go writes JSON (HTML characters escaped)',
      'Pod',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', finalizers: ['a<b&c'] } },
      '{"f:metadata":{"f:finalizers":{"v:\\"a\\\\u003cb\\\\u0026c\\"":{}}}}',
    ],
    [
      'identity, server-set metadata and status are nobody’s',
      'Deployment',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '7', generation: 2, creationTimestamp: null, tenant: 't1', managedFields: [] },
        spec: { paused: true },
        status: { replicas: 1 },
      },
      '{"f:spec":{"f:paused":{}}}',
    ],
  ])('%s', (_, kind, obj, expected) => {
    expect(fieldsV1(kind, obj)).toBe(expected);
  });

  it('owns a duplicated list item whole instead of its fields', () => {
    const pod = { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }, { name: 'b', image: 'z' }] } };
    expect(fieldSetOf(pod, schemaOf('Pod')).toFieldsV1()).toEqual({
      'f:spec': { 'f:containers': { 'k:{"name":"a"}': {}, 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    });
  });

  it('makes struct fields a set passes through members, but not map keys', () => {
    const set = FieldSet.fromFieldsV1({ 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { 'f:image': {} } } } } } });
    expect(ensureNamedFieldsAreMembers(set, schemaOf('Deployment')).toFieldsV1()).toEqual({
      'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { '.': {}, 'f:template': { '.': {}, 'f:spec': { '.': {}, 'f:containers': { '.': {}, 'k:{"name":"a"}': { 'f:image': {} } } } } },
    });
  });
});
