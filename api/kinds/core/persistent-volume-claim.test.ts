import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { persistentVolumeClaims } from './persistent-volume-claim.js';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from './types.js';

const pvc = (spec: PersistentVolumeClaimSpec): PersistentVolumeClaim => ({ metadata: { name: 'data', creationTimestamp: CREATED }, spec });
const basic: PersistentVolumeClaimSpec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } }, storageClassName: 'standard' };

describe('persistent volume claims', () => {
  it('starts Pending, in Filesystem mode, with canonical quantities', async () => {
    const { object, errors } = await create(persistentVolumeClaims, pvc(basic));
    expect(errors).toEqual([]);
    expect(object.spec).toEqual({ ...basic, resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' });
    expect(object.status).toEqual({ phase: 'Pending' });
  });

  it.each<[string, PersistentVolumeClaimSpec, string[]]>([
    ['no access modes', { resources: { requests: { storage: '1Gi' } } }, ['spec.accessModes: Required value: at least 1 access mode is required']],
    ['no storage request', { accessModes: ['ReadWriteOnce'] }, ['spec.resources[storage]: Required value']],
    ['an unknown access mode', { ...basic, accessModes: ['ReadWriteSometimes'] }, [
      'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]],
  ])('%s', async (_, spec, expected) => {
    expect(messages((await create(persistentVolumeClaims, pvc(spec))).errors)).toEqual(expected);
  });

  it('keeps the spec of a pending claim, but lets the volume name be set once', async () => {
    const { object: old } = await create(persistentVolumeClaims, pvc(basic));
    const bigger = structuredClone(old);
    bigger.spec!.resources!.requests!.storage = '2Gi';
    expect(messages(update(persistentVolumeClaims, bigger, old))).toEqual([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
    const bound = structuredClone(old);
    bound.spec!.volumeName = 'pv-1';
    expect(update(persistentVolumeClaims, bound, old)).toEqual([]);
  });

  it('lets a bound claim grow but not shrink', async () => {
    const { object } = await create(persistentVolumeClaims, pvc(basic));
    const old: PersistentVolumeClaim = { ...object, spec: { ...object.spec, volumeName: 'pv-1' }, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
    const grown = structuredClone(old);
    grown.spec!.resources!.requests!.storage = '2Gi';
    expect(update(persistentVolumeClaims, grown, old)).toEqual([]);
    const shrunk = structuredClone(old);
    shrunk.spec!.resources!.requests!.storage = '512Mi';
    expect(messages(update(persistentVolumeClaims, shrunk, old))).toEqual(['spec.resources.requests.storage: Forbidden: field can not be less than previous value']);
  });

  it('renders kubectl’s columns', () => {
    expect(headers(persistentVolumeClaims, true)).toEqual(['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE', 'VOLUMEMODE']);
    const pending = { ...pvc({ ...basic, volumeMode: 'Filesystem' }), status: { phase: 'Pending' } };
    expect(cells(persistentVolumeClaims, pending)).toEqual(['data', 'Pending', '', '', '', 'standard', '<unset>', '10m', 'Filesystem']);
    const bound = { ...pvc({ ...basic, volumeName: 'pv-1' }), status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'] } };
    expect(cells(persistentVolumeClaims, bound).slice(1, 5)).toEqual(['Bound', 'pv-1', '10Gi', 'RWO,ROX']);
  });
});
