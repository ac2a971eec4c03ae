import { describe, expect, it } from 'vitest';
import { coreKinds } from '../kinds/core/index.js';
import { canonicalizeDecoded, checkObject } from './check-object.js';

const kind = (resource: string) => coreKinds.find((def) => def.resource === resource)!.schema;
const pod = (container: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', ...container }] } });
const rc = (container: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'rc' },
  spec: { template: { spec: { containers: [{ name: 'c', image: 'i', ...container }] } } },
});
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

describe('checkObject: Quantity and IntOrString as Go decodes them', () => {
  it.each([
    ['a fractional cpu limit', 'pods', pod({ resources: { limits: { cpu: 0.5 } } })],
    ['an integer memory request', 'pods', pod({ resources: { requests: { memory: 1024 } } })],
    ['a fractional cpu limit in a ReplicationController', 'replicationcontrollers', rc({ resources: { limits: { cpu: 1.5 } } })],
    ['an emptyDir size limit as a number', 'pods', { ...pod({}), spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', emptyDir: { sizeLimit: 1e9 } }] } }],
    ['a quantity as a string', 'pods', pod({ resources: { limits: { cpu: '500m' } } })],
    ['a named port', 'pods', pod({ livenessProbe: { tcpSocket: { port: 'http' } } })],
    ['an integer port', 'pods', pod({ livenessProbe: { tcpSocket: { port: 8080 } } })],
  ])('accepts %s', (_name, resource, object) => {
    expect(checkObject(object, kind(resource)).typeError).toBeUndefined();
  });

  it.each([
    ['a boolean quantity', 'pods', pod({ resources: { limits: { cpu: true } } }), QUANTITY_ERROR],
    ['an object for a quantity', 'pods', pod({ resources: { limits: { cpu: { a: 1 } } } }), QUANTITY_ERROR],
    ['a fractional IntOrString', 'pods', pod({ livenessProbe: { tcpSocket: { port: 1.5 } } }), 'json: cannot unmarshal number 1.5 into Go struct field TCPSocketAction.spec.containers.livenessProbe.tcpSocket.port of type int32'],
    ['an IntOrString beyond int32', 'pods', pod({ livenessProbe: { tcpSocket: { port: 2 ** 31 } } }), 'json: cannot unmarshal number 2147483648 into Go struct field TCPSocketAction.spec.containers.livenessProbe.tcpSocket.port of type int32'],
    ['a boolean IntOrString', 'pods', pod({ livenessProbe: { tcpSocket: { port: true } } }), 'json: cannot unmarshal bool into Go struct field TCPSocketAction.spec.containers.livenessProbe.tcpSocket.port of type int32'],
    ['a fractional int32', 'pods', pod({ ports: [{ containerPort: 80.5 }] }), 'json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['a string for an int32', 'pods', pod({ ports: [{ containerPort: '80' }] }), 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
  ])('refuses %s with Go’s wording', (_name, resource, object, message) => {
    expect(checkObject(object, kind(resource)).typeError).toBe(message);
  });
});

describe('checkObject: fields and struct types named as Go’s decoder names them', () => {
  it.each([
    ['a string for metadata', 'pods', { ...pod({}), metadata: 'x' }, 'json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta'],
    ['a number for a pod spec', 'pods', { ...pod({}), spec: 5 }, 'json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec'],
    ['a list for a security context', 'pods', pod({ securityContext: [] }), 'json: cannot unmarshal array into Go struct field Container.spec.containers.securityContext of type v1.SecurityContext'],
    ['an object for the container list', 'pods', { ...pod({}), spec: { containers: {} } }, 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container'],
    ['a number for a label value (no map key in the path)', 'pods', { ...pod({}), metadata: { name: 'p', labels: { a: 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['a string for labels', 'pods', { ...pod({}), metadata: { name: 'p', labels: 'x' } }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
  ])('%s', (_name, resource, object, message) => {
    expect(checkObject(object, kind(resource)).typeError).toBe(message);
  });
});

describe('canonicalizeDecoded: nulls as Go decodes them', () => {
  it('makes a null label value, list item or quantity its zero value, and leaves null fields as they are', () => {
    const object = { ...pod({ args: ['a', null], resources: { limits: { cpu: null } } }), metadata: { name: 'p', labels: { a: null }, annotations: null } };
    const check = checkObject(object, kind('pods'));
    expect(check.typeError).toBeUndefined();
    canonicalizeDecoded(check);
    expect(object.metadata).toEqual({ name: 'p', labels: { a: '' }, annotations: null });
    expect(object.spec.containers[0]).toMatchObject({ args: ['a', ''], resources: { limits: { cpu: '0' } } });
  });
});

describe('canonicalizeDecoded', () => {
  it('writes every Quantity of a Pod in its canonical form, wherever it sits', () => {
    const object = {
      ...pod({ resources: { limits: { cpu: 0.5, memory: '1024Mi' }, requests: { cpu: 1 } }, env: [{ name: 'E', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: 0.001 } } }] }),
    };
    (object.spec as Record<string, unknown>).volumes = [{ name: 'v', emptyDir: { sizeLimit: 1.5e9 } }];
    const check = checkObject(object, kind('pods'));
    canonicalizeDecoded(check);
    expect(object.spec.containers[0]).toMatchObject({ resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1' } }, env: [{ valueFrom: { resourceFieldRef: { divisor: '1m' } } }] });
    expect((object.spec as Record<string, unknown>).volumes).toEqual([{ name: 'v', emptyDir: { sizeLimit: '1500M' } }]);
  });

  it('leaves a malformed quantity for validation to refuse', () => {
    const object = pod({ resources: { limits: { cpu: 'lots' } } });
    canonicalizeDecoded(checkObject(object, kind('pods')));
    expect(object.spec.containers[0]).toMatchObject({ resources: { limits: { cpu: 'lots' } } });
  });
});
