import { describe, expect, it } from 'vitest';
import { CREATED, cells, create, headers, messages, update } from '../apps/testing.js';
import { persistentVolumes } from './persistent-volume.js';
import type { PersistentVolume, PersistentVolumeSpec } from './types.js';

const pv = (spec: PersistentVolumeSpec): PersistentVolume => ({ metadata: { name: 'pv-1', creationTimestamp: CREATED }, spec });
const nfs: PersistentVolumeSpec = { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteMany'], nfs: { server: 'nfs.example.com', path: '/exports/a' } };

describe('persistent volumes', () => {
  it('defaults the reclaim policy and mode, and starts Pending', async () => {
    const { object, errors } = await create(persistentVolumes, pv(nfs));
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(object.status?.phase).toBe('Pending');
    expect(object.status?.lastPhaseTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it.each<[string, PersistentVolumeSpec, string[]]>([
    ['no source', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }, ['spec: Required value: must specify a volume type']],
    ['two sources', { ...nfs, hostPath: { path: '/data' } }, ['spec.nfs: Forbidden: may not specify more than 1 volume type']],
    ['a source missing a required field', { ...nfs, nfs: { path: '/exports/a' } }, ['spec.nfs.server: Required value']],
    ['a relative NFS path', { ...nfs, nfs: { server: 's', path: 'exports' } }, ['spec.nfs.path: Invalid value: "exports": must be an absolute path']],
    ['capacity other than storage', { ...nfs, capacity: { storage: '1Gi', cpu: '1' } }, ['spec.capacity: Unsupported value: {"storage":"1Gi","cpu":"1"}: supported values: "storage"']],
    ['no capacity', { accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } }, ['spec.capacity: Required value', 'spec.capacity: Unsupported value: {}: supported values: "storage"']],
    ['a local volume without node affinity', { ...nfs, nfs: undefined, local: { path: '/mnt/disk' } }, ['spec.nodeAffinity: Required value: Local volume requires node affinity']],
  ])('%s', async (_, spec, expected) => {
    expect(messages((await create(persistentVolumes, pv(spec))).errors)).toEqual(expected);
  });

  it('keeps its source', async () => {
    const { object: old } = await create(persistentVolumes, pv(nfs));
    const moved = structuredClone(old);
    moved.spec!.nfs = { server: 'other.example.com', path: '/exports/a' };
    expect(messages(update(persistentVolumes, moved, old))).toEqual(['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation']);
  });

  it('renders kubectl’s columns', () => {
    expect(headers(persistentVolumes)).toEqual(['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE']);
    const bound: PersistentVolume = {
      ...pv({ ...nfs, persistentVolumeReclaimPolicy: 'Delete', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'nfs', volumeMode: 'Filesystem' }),
      status: { phase: 'Bound' },
    };
    expect(cells(persistentVolumes, bound)).toEqual(['pv-1', '10Gi', 'RWX', 'Delete', 'Bound', 'default/data', 'nfs', '<unset>', '', '10m', 'Filesystem']);
  });
});
