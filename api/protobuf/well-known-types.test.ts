import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration, wellKnownTypes } from './well-known-types.js';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
function wellKnown(name: string) {
  const type = wellKnownTypes.get(name);
  if (!type) throw new Error(`no well-known type ${name}`);
  return type;
}

describe('metav1.Time', () => {
  const time = wellKnown(`${META}.Time`);

  it.each([
    [{ seconds: 1700000000, nanos: 0 }, '2023-11-14T22:13:20Z'],
    [{ seconds: 1700000000, nanos: 999_999_999 }, '2023-11-14T22:13:20Z'],
    [{ seconds: 0 }, '1970-01-01T00:00:00Z'],
    [{ seconds: -62135596800 }, '0001-01-01T00:00:00Z'],
    [{}, null],
  ])('%o is %o in JSON', (message, json) => {
    expect(time.toJson(message)).toBe(json);
  });

  it.each([
    ['2023-11-14T22:13:20Z', { seconds: 1700000000, nanos: 0 }],
    ['2023-11-14T23:13:20+01:00', { seconds: 1700000000, nanos: 0 }],
    ['2023-11-14T22:13:20.5Z', { seconds: 1700000000, nanos: 500_000_000 }],
    [null, {}],
  ])('%o encodes as %o', (json, message) => {
    expect(time.fromJson(json, 'metadata.creationTimestamp')).toEqual(message);
  });

  it.each(['yesterday', '2023-11-14 22:13:20', 1700000000])('refuses %o with the field path', (json) => {
    expect(() => time.fromJson(json, 'metadata.creationTimestamp')).toThrow(/^metadata\.creationTimestamp: expected an RFC 3339 time/);
  });

  it('is nullable (a zero time), unlike the other types', () => {
    expect(time.nullable).toBe(true);
    expect(wellKnown(`${META}.Duration`).nullable).toBe(false);
  });
});

describe('metav1.MicroTime', () => {
  const microTime = wellKnown(`${META}.MicroTime`);

  it('always writes six fraction digits, as Go RFC3339Micro does', () => {
    expect(microTime.toJson({ seconds: 1700000000, nanos: 123_456_789 })).toBe('2023-11-14T22:13:20.123456Z');
    expect(microTime.toJson({ seconds: 1700000000 })).toBe('2023-11-14T22:13:20.000000Z');
    expect(microTime.toJson({})).toBeNull();
  });

  it('keeps the microseconds it is given', () => {
    expect(microTime.fromJson('2023-11-14T22:13:20.000001Z', 'eventTime')).toEqual({ seconds: 1700000000, nanos: 1000 });
  });
});

describe('metav1.Duration', () => {
  it.each([
    [0n, '0s'],
    [100n, '100ns'],
    [1_500n, '1.5µs'],
    [500_000_000n, '500ms'],
    [1_000_500_000n, '1.0005s'],
    [90_000_000_000n, '1m30s'],
    [3_600_000_000_000n, '1h0m0s'],
    [5_423_500_000_000n, '1h30m23.5s'],
    [-2_000_000_000n, '-2s'],
  ])('%d ns is %s, both ways', (nanos, text) => {
    expect(formatGoDuration(nanos)).toBe(text);
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it.each([
    ['1h30m', 5_400_000_000_000n],
    ['.5s', 500_000_000n],
    ['2us', 2_000n],
    ['1m0.25s', 60_250_000_000n],
    ['0', 0n],
  ])('parses %s', (text, nanos) => {
    expect(parseGoDuration(text)).toBe(nanos);
  });

  it.each(['', '10', '1d', 'm', '1h-2m'])('refuses %o', (text) => {
    expect(() => parseGoDuration(text)).toThrow(/not a Go duration/);
  });

  it('maps the message field', () => {
    const duration = wellKnown(`${META}.Duration`);
    expect(duration.toJson({ duration: 90_000_000_000 })).toBe('1m30s');
    expect(duration.fromJson('1m30s', 'x')).toEqual({ duration: '90000000000' });
  });
});

describe('intstr.IntOrString', () => {
  const intOrString = wellKnown('k8s.io.apimachinery.pkg.util.intstr.IntOrString');

  it.each([
    [{ type: 0, intVal: 8080, strVal: '' }, 8080],
    [{ type: 1, intVal: 0, strVal: 'http' }, 'http'],
    [{ type: 1, strVal: '25%' }, '25%'],
    // Go writes an unset IntOrString as type 0, intVal 0: JSON 0.
    [{}, 0],
  ])('%o is %o', (message, json) => {
    expect(intOrString.toJson(message)).toBe(json);
  });

  it('encodes numbers and strings, and nothing else', () => {
    expect(intOrString.fromJson(80, 'p')).toEqual({ type: 0, intVal: 80 });
    expect(intOrString.fromJson('http', 'p')).toEqual({ type: 1, strVal: 'http' });
    expect(() => intOrString.fromJson(1.5, 'spec.ports[0].targetPort')).toThrow('spec.ports[0].targetPort: expected an integer or a string, got 1.5');
  });
});

describe('resource.Quantity', () => {
  const quantity = wellKnown('k8s.io.apimachinery.pkg.api.resource.Quantity');

  it('is its string; an unset one is "0", as Go writes it', () => {
    expect(quantity.toJson({ string: '250m' })).toBe('250m');
    expect(quantity.toJson({})).toBe('0');
    expect(quantity.fromJson('1Gi', 'x')).toEqual({ string: '1Gi' });
    // YAML may give a bare number.
    expect(quantity.fromJson(2, 'x')).toEqual({ string: '2' });
    expect(quantity.fromJson(0.5, 'x')).toEqual({ string: '500m' });
  });
});

describe('FieldsV1 and RawExtension', () => {
  const fieldsV1 = wellKnown(`${META}.FieldsV1`);
  const rawExtension = wellKnown('k8s.io.apimachinery.pkg.runtime.RawExtension');

  it('carry JSON in their bytes', () => {
    const fields = { 'f:data': { '.': {}, 'f:a': {} } };
    const encoded = fieldsV1.fromJson(fields, 'x');
    expect(Buffer.from(encoded['Raw'] as Uint8Array).toString()).toBe('{"f:data":{".":{},"f:a":{}}}');
    expect(fieldsV1.toJson(encoded)).toEqual(fields);
    expect(rawExtension.toJson(rawExtension.fromJson({ spec: { replicas: 2 } }, 'data'))).toEqual({ spec: { replicas: 2 } });
  });

  it('an empty RawExtension is null, as Go writes it', () => {
    expect(rawExtension.toJson({})).toBeNull();
    expect(rawExtension.fromJson(null, 'data')).toEqual({});
  });

  it('refuses bytes that are not JSON, and a protobuf object outside a watch event', () => {
    expect(() => rawExtension.toJson({ raw: Buffer.from('{not json') })).toThrow('RawExtension does not hold JSON');
    expect(() => rawExtension.toJson({ raw: Buffer.from('k8s\0rest', 'latin1') })).toThrow('only allowed in a watch event');
  });
});
