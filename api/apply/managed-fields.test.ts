import { describe, expect, it } from 'vitest';
import type { KubeObject, ManagedFieldsEntry } from '../registry/object.js';
import { decodeManagedFields, encodeManagedFields, managedFieldsFromRequest, managerIdentity } from './managed-fields.js';

const entry = (manager: string, operation: 'Apply' | 'Update', time: string | undefined, extra: Partial<ManagedFieldsEntry> = {}): ManagedFieldsEntry => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  ...(time ? { time } : {}),
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': { 'f:replicas': {} } },
  ...extra,
});

describe('managedFields entries', () => {
  it('identifies managers as Kubernetes does, appliers without their API version', () => {
    expect(managerIdentity({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', subresource: undefined })).toBe('{"manager":"kubectl","operation":"Apply"}');
    expect(managerIdentity({ manager: 'kcm', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status' })).toBe(
      '{"manager":"kcm","operation":"Update","apiVersion":"apps/v1","subresource":"status"}',
    );
  });

  it('sorts by operation (Apply first), time, manager, API version, subresource, and writes fields in Go field order', () => {
    const entries = [
      entry('b', 'Update', '2024-05-01T10:00:00Z'),
      entry('a', 'Update', '2024-05-01T10:00:00Z', { subresource: 'status' }),
      entry('a', 'Update', '2024-05-01T10:00:00Z', { apiVersion: 'apps/v1beta1' }),
      entry('z', 'Update', '2024-05-01T09:00:00Z'),
      entry('y', 'Apply', '2024-05-01T11:00:00Z'),
      entry('x', 'Apply', undefined),
    ];
    const encoded = encodeManagedFields(decodeManagedFields(entries));
    expect(encoded.map((e) => `${e.operation} ${e.manager} ${e.apiVersion} ${e.subresource ?? ''}`.trim())).toEqual([
      'Apply x apps/v1',
      'Apply y apps/v1',
      'Update z apps/v1',
      'Update a apps/v1 status',
      'Update a apps/v1beta1',
      'Update b apps/v1',
    ]);
    expect(Object.keys(encoded[3] ?? {})).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });

  it('writes times to the second in UTC', () => {
    const [encoded] = encodeManagedFields(decodeManagedFields([entry('a', 'Update', '2024-05-01T12:00:00.5+02:00')]));
    expect(encoded?.time).toBe('2024-05-01T10:00:00Z');
  });

  it.each<[string, unknown, string]>([
    ['an unknown operation', { ...entry('a', 'Update', undefined), operation: 'Patch' }, 'operation must be `Apply` or `Update`'],
    ['no API version', { ...entry('a', 'Update', undefined), apiVersion: '' }, 'apiVersion must not be empty'],
    ['no fields type', { ...entry('a', 'Update', undefined), fieldsType: undefined }, 'missing fieldsType in managed fields entry 0'],
    ['another fields type', { ...entry('a', 'Update', undefined), fieldsType: 'FieldsV2' }, 'invalid fieldsType "FieldsV2" in managed fields entry 0'],
    ['malformed fields', { ...entry('a', 'Update', undefined), fieldsV1: { 'f:a': [] } }, 'error decoding versioned set from entry 0'],
  ])('refuses %s', (_, bad, message) => {
    expect(() => decodeManagedFields([bad as ManagedFieldsEntry])).toThrow(message);
  });
});

describe('the entries an update starts from', () => {
  const stored = [entry('kubectl-create', 'Update', '2024-05-01T10:00:00Z')];
  const old: KubeObject = { metadata: { name: 'a', managedFields: stored } };
  const withFields = (managedFields?: ManagedFieldsEntry[]): KubeObject => ({ metadata: { name: 'a', ...(managedFields ? { managedFields } : {}) } });
  const mine = [entry('kubectl', 'Apply', '2024-05-01T11:00:00Z')];

  it.each<[string, KubeObject, string | undefined, ManagedFieldsEntry[]]>([
    ['the request’s valid entries', withFields(mine), undefined, mine],
    ['the stored ones when the request has none', withFields(), undefined, stored],
    ['none on []', withFields([]), undefined, []],
    ['none on [{}]', withFields([{}]), undefined, []],
    ['the stored ones when the request’s are invalid', withFields([{ manager: 'x' }]), undefined, stored],
    ['the stored ones on a subresource', withFields(mine), 'status', stored],
  ])('%s', (_, obj, subresource, expected) => {
    expect(managedFieldsFromRequest(obj, old, subresource)).toEqual(expected);
  });

  it('none when the stored ones are invalid and the request has none', () => {
    expect(managedFieldsFromRequest(withFields(), { metadata: { managedFields: [{ operation: 'Update' }] } })).toEqual([]);
  });
});
