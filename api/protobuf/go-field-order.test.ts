import { describe, expect, it } from 'vitest';
import { inGoFieldOrder } from './go-field-order.js';

/** The JSON text, which (unlike toEqual) sees key order. */
const text = (value: unknown): string => JSON.stringify(inGoFieldOrder(value));

describe('inGoFieldOrder', () => {
  it('puts TypeMeta first, then the fields in Go struct order, map keys sorted', () => {
    const cm = {
      data: { z: '1', a: '2' },
      apiVersion: 'v1',
      metadata: { resourceVersion: '7', labels: { b: '1', a: '2' }, name: 'cm', uid: 'u', namespace: 'ns', creationTimestamp: '2024-05-01T10:00:00Z' },
      kind: 'ConfigMap',
    };
    expect(text(cm)).toBe(
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"ns","uid":"u","resourceVersion":"7","creationTimestamp":"2024-05-01T10:00:00Z","labels":{"a":"2","b":"1"}},"data":{"a":"2","z":"1"}}',
    );
  });

  it('keeps a map key named __proto__ (a valid ConfigMap key) among the sorted keys', () => {
    const cm = JSON.parse('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm"},"data":{"z":"1","__proto__":"x","a":"2"}}') as unknown;
    expect(text(cm)).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm"},"data":{"__proto__":"x","a":"2","z":"1"}}');
  });

  it('leaves out what Go omits: zero or null plain scalars, empty maps; keeps zero optionals, lists and null structs as given', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', generateName: '', annotations: {}, finalizers: [], creationTimestamp: null },
      spec: { hostNetwork: false, priority: 0, nodeName: null, containers: [{ name: 'c', image: 'i', stdin: false }] },
    };
    expect(text(pod)).toBe('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null,"finalizers":[]},"spec":{"containers":[{"name":"c","image":"i"}],"priority":0}}');
  });

  it('flattens inline structs in place and keeps undeclared keys after the declared ones', () => {
    const pod = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', zzz: 1 }, spec: { volumes: [{ emptyDir: {}, name: 'v' }], containers: [] } };
    expect(text(pod)).toBe('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","zzz":1},"spec":{"volumes":[{"name":"v","emptyDir":{}}],"containers":[]}}');
  });

  it('writes the items of a typed list without kind and apiVersion, as Go leaves their TypeMeta empty', () => {
    const list = { apiVersion: 'v1', kind: 'ConfigMapList', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }], metadata: { resourceVersion: '9' } };
    expect(text(list)).toBe('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"a"}}]}');
  });

  it('orders a Status as metav1.Status', () => {
    const status = { code: 404, details: { kind: 'configmaps', name: 'x' }, reason: 'NotFound', message: 'm', status: 'Failure', metadata: {}, apiVersion: 'v1', kind: 'Status' };
    expect(text(status)).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"m","reason":"NotFound","details":{"name":"x","kind":"configmaps"},"code":404}');
  });

  it('keeps well-known types as they are (FieldsV1 in its own order)', () => {
    const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', managedFields: [{ time: 't', manager: 'm', fieldsV1: { 'f:z': {}, 'f:a': {} } }] } };
    expect(text(cm)).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","managedFields":[{"manager":"m","time":"t","fieldsV1":{"f:z":{},"f:a":{}}}]}}');
  });

  it('returns kinds without a protobuf form unchanged', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', spec: { b: 1, a: 2 } };
    expect(inGoFieldOrder(widget)).toBe(widget);
    expect(inGoFieldOrder('text')).toBe('text');
  });
});
