/**
 * The `k8s\0` envelope and the JSON mapping, against bytes assembled by hand from Kubernetes'
 * field numbers in the shape client-go writes them (every plain field present, zeros included).
 */
import { describe, expect, it } from 'vitest';
import { decodeObject, decodeWatchFrames, encodeObject, encodeWatchFrame, hasProtobufForm } from './codec.js';
import { ProtobufError } from './protobuf-error.js';
import { clientObjectMeta, envelope, field, mapEntry, message, varintField } from './samples/wire.js';

const PREFIX = Buffer.from('k8s\0', 'latin1');

/** A Container as client-go writes one with only name and image set. */
function clientContainer(name: string, image: string, ...more: Uint8Array[]): Uint8Array {
  return message(field(1, name), field(2, image), field(5, ''), ...more, field(8, message()), field(13, ''), field(14, ''), varintField(16, false), varintField(17, false), varintField(18, false), field(20, ''));
}

describe('decodeObject', () => {
  it('decodes a ConfigMap as kubectl 1.33 sends it into the JSON Go writes for it', () => {
    const body = envelope('v1', 'ConfigMap', message(field(1, clientObjectMeta('cm1', 'ns1')), mapEntry(2, 'a', 'b'), mapEntry(2, 'empty', '')));
    expect(decodeObject(body)).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm1', namespace: 'ns1', creationTimestamp: null }, data: { a: 'b', empty: '' } });
  });

  it('keeps zeros of pointer fields, drops those of omitempty fields, keeps empty structs (kubectl create deployment --replicas=0)', () => {
    const template = message(field(1, clientObjectMeta('', '', mapEntry(11, 'app', 'web'))), field(2, message(field(2, clientContainer('nginx', 'nginx')))));
    const spec = message(varintField(1, 0), field(2, message(mapEntry(1, 'app', 'web'))), field(3, template), field(4, message()), varintField(5, 0), varintField(7, false));
    const body = envelope('apps/v1', 'Deployment', message(field(1, clientObjectMeta('web', 'ns1', mapEntry(11, 'app', 'web'))), field(2, spec), field(3, message(varintField(1, 0), varintField(2, 0)))));
    expect(decodeObject(body)).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', namespace: 'ns1', creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { creationTimestamp: null, labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] } },
        strategy: {},
      },
      status: {},
    });
  });

  it('maps inline structs, IntOrString, bytes and list values', () => {
    const volume = message(field(1, 'config'), field(2, message(field(19, message(field(1, message(field(1, 'shop-config'))), varintField(3, 420))))));
    const port = message(field(1, 'http'), field(2, 'TCP'), varintField(3, 80), field(4, message(varintField(1, 1), varintField(2, 0), field(3, 'web'))), varintField(5, 0));
    expect(decodeObject(envelope('v1', 'Pod', message(field(1, clientObjectMeta('p', 'ns')), field(2, message(field(1, volume))))))).toMatchObject({
      spec: { volumes: [{ name: 'config', configMap: { name: 'shop-config', defaultMode: 420 } }] },
    });
    expect(decodeObject(envelope('v1', 'Service', message(field(2, message(field(1, port))))))).toEqual({ kind: 'Service', apiVersion: 'v1', spec: { ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'web' }] } });
    expect(decodeObject(envelope('v1', 'Secret', message(mapEntry(2, 'pw', Buffer.from('s3cret')), field(3, 'Opaque'))))).toEqual({ kind: 'Secret', apiVersion: 'v1', data: { pw: 'czNjcmV0' }, type: 'Opaque' });
    const extra = mapEntry(5, 'scopes', message(field(1, 'read'), field(1, 'write')));
    expect(decodeObject(envelope('authorization.k8s.io/v1', 'SubjectAccessReview', message(field(2, message(field(3, 'alice'), extra)))))).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: { user: 'alice', extra: { scopes: ['read', 'write'] } },
    });
  });

  it('names fields by their JSON names (IngressClass parameters: aPIGroup is apiGroup)', () => {
    const body = envelope('networking.k8s.io/v1', 'IngressClass', message(field(2, message(field(1, 'nginx.org/ingress'), field(2, message(field(1, 'k8s.example.com'), field(2, 'Params'), field(3, 'p')))))));
    expect(decodeObject(body)).toEqual({ kind: 'IngressClass', apiVersion: 'networking.k8s.io/v1', spec: { controller: 'nginx.org/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } } });
  });

  it('reads our tenant field, numbered 1001, and skips fields it does not know', () => {
    const metadata = message(field(1, 'cm1'), field(1001, 't1'), field(999, 'from a newer Kubernetes'));
    expect(decodeObject(envelope('v1', 'ConfigMap', message(field(1, metadata))))).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm1', tenant: 't1' } });
  });

  it.each([
    ['no prefix', Buffer.from('{"kind":"ConfigMap"}'), /does not start with the protobuf envelope prefix/],
    ['a truncated envelope', Buffer.concat([PREFIX, Buffer.from([0x0a, 0x20, 0x0a])]), /the protobuf envelope is not valid protobuf/],
    ['a kind without a protobuf form', envelope('example.com/v1', 'Widget', message()), /no protobuf form for kind "Widget" in version "example.com\/v1"/],
    ['a nested type as kind', envelope('v1', 'PodSpec', message()), /no protobuf form for kind "PodSpec"/],
    ['a broken object', envelope('v1', 'ConfigMap', Buffer.from([0x0a, 0x05, 0x01])), /the ConfigMap is not valid protobuf/],
    ['a compressed object', Buffer.concat([PREFIX, message(field(1, message(field(1, 'v1'), field(2, 'ConfigMap'))), field(3, 'gzip'))]), /unsupported content encoding "gzip"/],
  ])('refuses %s', (_what, body, error) => {
    expect(() => decodeObject(body)).toThrow(ProtobufError);
    expect(() => decodeObject(body)).toThrow(error);
  });
});

describe('encodeObject', () => {
  it('writes the envelope and the object with Kubernetes field numbers', () => {
    const raw = message(field(1, message(field(1, 'cm1'), field(3, 'ns1'), field(1001, 't1'))), mapEntry(2, 'a', 'b'));
    const expected = Buffer.concat([PREFIX, message(field(1, message(field(1, 'v1'), field(2, 'ConfigMap'))), field(2, raw))]);
    expect(encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', namespace: 'ns1', tenant: 't1' }, data: { a: 'b' } }).equals(expected)).toBe(true);
  });

  it('drops JSON keys protobuf cannot carry', () => {
    const body = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, unknownField: 'x', data: { a: 'b' } });
    expect(decodeObject(body)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
  });

  it.each([
    [{ data: { a: 1 } }, 'data[a]: expected string, got 1'],
    [{ spec: { replicas: 'two' } }, 'spec.replicas: expected int32, got "two"'],
    [{ spec: { template: { spec: { containers: {} } } } }, 'spec.template.spec.containers: expected a list, got {}'],
    [{ metadata: { creationTimestamp: 'yesterday' } }, 'metadata.creationTimestamp: expected an RFC 3339 time, got "yesterday"'],
  ])('refuses %o, naming the field', (object, error) => {
    const kind = 'data' in object ? { apiVersion: 'v1', kind: 'ConfigMap' } : { apiVersion: 'apps/v1', kind: 'Deployment' };
    expect(() => encodeObject({ ...kind, ...object })).toThrow(error);
  });
});

describe('hasProtobufForm', () => {
  it.each([
    ['v1', 'ConfigMap', true],
    ['v1', 'ConfigMapList', true],
    ['apps/v1', 'Deployment', true],
    ['autoscaling/v1', 'Scale', true],
    ['authorization.k8s.io/v1', 'SelfSubjectAccessReview', true],
    ['v1', 'Status', true],
    ['apps/v1', 'Status', true],
    ['meta.k8s.io/v1', 'DeleteOptions', true],
    ['apps/v1', 'ConfigMap', false],
    ['v1', 'PodSpec', false],
    ['v1', 'ObjectMeta', false],
    ['example.com/v1', 'Widget', false],
    ['apps.example.com/v1', 'Deployment', false],
  ])('%s %s: %s', (apiVersion, kind, expected) => {
    expect(hasProtobufForm({ apiVersion, kind })).toBe(expected);
  });
});

describe('watch frames', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', resourceVersion: '7' }, data: { a: 'b' } };
  const status = { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (7)', reason: 'Expired', code: 410 };

  it('is a big-endian length and a bare WatchEvent whose object is a k8s\\0 body', () => {
    const frame = encodeWatchFrame({ type: 'ADDED', object: cm });
    const event = message(field(1, 'ADDED'), field(2, message(field(1, encodeObject(cm)))));
    expect(frame.readUInt32BE(0)).toBe(event.length);
    expect(frame.subarray(4).equals(Buffer.from(event))).toBe(true);
  });

  it('splits a stream back into its events', () => {
    const stream = Buffer.concat([encodeWatchFrame({ type: 'ADDED', object: cm }), encodeWatchFrame({ type: 'ERROR', object: status })]);
    expect(decodeWatchFrames(stream)).toEqual([
      { type: 'ADDED', object: cm },
      { type: 'ERROR', object: status },
    ]);
    expect(() => decodeWatchFrames(stream.subarray(0, stream.length - 1))).toThrow('truncated watch frame');
  });
});
