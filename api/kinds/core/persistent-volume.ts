/**
 * PersistentVolumes (core/v1), space-scoped: a piece of storage with exactly one source (NFS, a
 * host path, a CSI volume, ...), a capacity and access modes. It starts Pending; its source never
 * changes. Each phase change is stamped with `lastPhaseTransitionTime`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { nowTimestamp } from '../../registry/generic-store.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { CORE_V1, coreField } from '../../schema/core-types.js';
import { defineKindSchema } from '../../schema/meta.js';
import { definitions, resolve } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { child, key } from '../../validation/field-path.js';
import { isDNS1123Subdomain } from '../../validation/names.js';
import { canonicalizeResourceList, canonicalQuantity } from '../../validation/quantity.js';
import { validateAccessModes, VOLUME_MODES } from './claim-spec-validation.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from './persistent-volume-claim.js';
import { validateNodeSelector } from './pod-spec-validation.js';
import { parseQuantityField, validateResourceQuantityValue } from './resource-validation.js';
import { column, formatAccessModes } from './table-cells.js';
import { validatePathNoBacksteps } from './volume-validation.js';
import type { PersistentVolume, PersistentVolumeSpec } from './types.js';

/** Volume sources of a PersistentVolume, in the order Kubernetes checks them. */
const PERSISTENT_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

const persistentVolumeSchema = defineKindSchema(
  `${CORE_V1}PersistentVolume`,
  { group: '', version: 'v1', kind: 'PersistentVolume' },
  'A piece of storage in the cluster, provisioned by an administrator or a storage class.',
  {
    spec: coreField('PersistentVolumeSpec', 'The volume’s source, capacity and access modes.'),
    status: coreField('PersistentVolumeStatus', 'Where the volume is in its lifecycle. Read-only.'),
  },
);

function defaultPersistentVolume(pv: PersistentVolume): void {
  const spec = (pv.spec ??= {});
  spec.persistentVolumeReclaimPolicy ||= 'Retain';
  spec.volumeMode ??= 'Filesystem';
  canonicalizeResourceList(spec.capacity);
  const hostPath = spec.hostPath as { type?: string } | undefined;
  if (hostPath) hostPath.type ??= '';
  if (pv.status) pv.status.phase ||= 'Pending';
}

function sourcesOf(spec: PersistentVolumeSpec): string[] {
  return PERSISTENT_VOLUME_SOURCES.filter((s) => spec[s] !== undefined && spec[s] !== null);
}

/** Fields the source's schema requires. */
function validateRequiredFields(source: string, value: Record<string, unknown>, path: string): FieldError[] {
  const schema = resolve(definitions.get(`${CORE_V1}PersistentVolumeSpec`)?.properties?.[source]);
  return (schema?.required ?? []).filter((field) => value[field] === undefined || value[field] === '').map((field) => fieldErrors.required(child(path, field)));
}

function validateSource(spec: PersistentVolumeSpec, source: string, path: string): FieldError[] {
  const value = (spec[source] ?? {}) as Record<string, unknown>;
  const errs = validateRequiredFields(source, value, path);
  const text = (field: string): string => (typeof value[field] === 'string' ? (value[field] as string) : '');
  switch (source) {
    case 'hostPath': {
      if (text('path')) errs.push(...validatePathNoBacksteps(text('path'), child(path, 'path')));
      const type = value.type as string | undefined;
      if (type !== undefined && !HOST_PATH_TYPES.includes(type)) errs.push(fieldErrors.notSupported(child(path, 'type'), type, HOST_PATH_TYPES));
      break;
    }
    case 'nfs':
      if (text('path') && !text('path').startsWith('/')) errs.push(fieldErrors.invalid(child(path, 'path'), text('path'), 'must be an absolute path'));
      break;
    case 'local':
      if (text('path')) errs.push(...validatePathNoBacksteps(text('path'), child(path, 'path')));
      if (!spec.nodeAffinity) errs.push(fieldErrors.required('spec.nodeAffinity', 'Local volume requires node affinity'));
      break;
  }
  return errs;
}

function validateCapacity(capacity: Record<string, string | number> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const names = Object.keys(capacity ?? {});
  if (names.length === 0) errs.push(fieldErrors.required('spec.capacity'));
  if (!names.includes('storage') || names.length > 1) errs.push(fieldErrors.notSupported('spec.capacity', capacity ?? {}, ['storage']));
  for (const name of names.sort()) {
    const path = key('spec.capacity', name);
    const q = parseQuantityField(capacity![name]!, path, errs);
    if (q && q.nanos < 0n) errs.push(fieldErrors.invalid(path, capacity![name], 'must be greater than or equal to 0'));
    else if (q) errs.push(...validateResourceQuantityValue(name, capacity![name]!, path));
  }
  return errs;
}

function validateClassName(value: string | undefined, path: string): FieldError[] {
  return value ? isDNS1123Subdomain(value).map((m) => fieldErrors.invalid(path, value, m)) : [];
}

function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const spec = pv.spec ?? {};
  const accessModes = spec.accessModes ?? [];
  const errs: FieldError[] = [];
  if (accessModes.length === 0) errs.push(fieldErrors.required('spec.accessModes'));
  errs.push(...validateAccessModes(accessModes, 'spec.accessModes'));
  errs.push(...validateCapacity(spec.capacity));
  errs.push(...validateClassName(spec.storageClassName, 'spec.storageClassName'));
  if (spec.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldErrors.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  if (spec.volumeAttributesClassName !== undefined) {
    if (spec.volumeAttributesClassName === '') errs.push(fieldErrors.required('spec.volumeAttributesClassName', 'an empty string is disallowed'));
    errs.push(...validateClassName(spec.volumeAttributesClassName, 'spec.volumeAttributesClassName'));
    if (!spec.csi) errs.push(fieldErrors.required('spec.csi', 'has to be specified when using volumeAttributesClassName'));
  }
  if (spec.nodeAffinity) {
    if (spec.nodeAffinity.required) errs.push(...validateNodeSelector(spec.nodeAffinity.required, 'spec.nodeAffinity.required'));
    else errs.push(fieldErrors.required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  const sources = sourcesOf(spec);
  sources.forEach((source, n) => {
    const path = child('spec', source);
    if (n > 0) errs.push(fieldErrors.forbidden(path, 'may not specify more than 1 volume type'));
    else errs.push(...validateSource(spec, source, path));
  });
  if (sources.length === 0) errs.push(fieldErrors.required('spec', 'must specify a volume type'));
  const hostPath = (spec.hostPath as { path?: string } | undefined)?.path;
  if (hostPath !== undefined && /^\/+$/.test(hostPath) && spec.persistentVolumeReclaimPolicy === 'Recycle') {
    errs.push(fieldErrors.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const policy = spec.persistentVolumeReclaimPolicy;
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(fieldErrors.notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  return errs;
}

/** The source fields of a spec, for comparing sources across an update. */
function sourceOf(spec: PersistentVolumeSpec): Record<string, unknown> {
  return Object.fromEntries(PERSISTENT_VOLUME_SOURCES.map((s) => [s, spec[s]]));
}

function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const spec = pv.spec ?? {};
  const prev = old.spec ?? {};
  const errs: FieldError[] = [];
  const next = sourceOf(spec);
  // A CSI volume may gain its expansion secret once.
  const csi = spec.csi as { controllerExpandSecretRef?: unknown } | undefined;
  const oldCsi = prev.csi as { controllerExpandSecretRef?: unknown } | undefined;
  if (csi && oldCsi && oldCsi.controllerExpandSecretRef === undefined) next.csi = { ...csi, controllerExpandSecretRef: undefined };
  if (!semanticEqual(next, sourceOf(prev))) errs.push(fieldErrors.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if (spec.volumeMode !== prev.volumeMode) errs.push(fieldErrors.immutable('volumeMode', spec.volumeMode ?? null));
  if (prev.nodeAffinity && !semanticEqual(spec.nodeAffinity, prev.nodeAffinity)) errs.push(fieldErrors.immutable('nodeAffinity', spec.nodeAffinity ?? null));
  return errs;
}

/** A phase change is stamped with the time, unless the writer stamped it. */
function stampPhaseTransition(pv: PersistentVolume, old: PersistentVolume): void {
  const status = pv.status;
  if (!status || status.phase === old.status?.phase) return;
  if (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === old.status?.lastPhaseTransitionTime) {
    status.lastPhaseTransitionTime = nowTimestamp();
  }
}

/** The volume's class: the beta annotation first, then `spec.storageClassName`. */
function volumeClass(pv: PersistentVolume): string {
  return pv.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? pv.spec?.storageClassName ?? '';
}

const persistentVolumeColumns: PrinterColumn<PersistentVolume>[] = [
  nameColumn as PrinterColumn<PersistentVolume>,
  column('Capacity', 'string', 'The storage of the volume.', (pv) => String(canonicalQuantity(pv.spec?.capacity?.storage ?? 0))),
  column('Access Modes', 'string', 'How the volume can be mounted.', (pv) => formatAccessModes(pv.spec?.accessModes)),
  column('Reclaim Policy', 'string', 'What happens to the volume when its claim goes: Retain, Delete or Recycle.', (pv) => pv.spec?.persistentVolumeReclaimPolicy ?? ''),
  column('Status', 'string', 'Pending, Available, Bound, Released or Failed; Terminating while being deleted.', (pv) =>
    pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? ''),
  ),
  column('Claim', 'string', 'The claim bound to the volume, as namespace/name.', (pv) => (pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '')),
  column('StorageClass', 'string', 'The storage class of the volume.', volumeClass),
  column('VolumeAttributesClass', 'string', 'The volume attributes class of the volume.', (pv) => pv.spec?.volumeAttributesClassName ?? '<unset>'),
  column('Reason', 'string', 'Why the volume failed, if it did.', (pv) => pv.status?.reason ?? ''),
  ageColumn as PrinterColumn<PersistentVolume>,
  column('VolumeMode', 'string', 'Filesystem or Block.', (pv) => pv.spec?.volumeMode ?? '<unset>', 1),
];

export const persistentVolumes = defineKind<PersistentVolume>({
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  scope: 'space',
  shortNames: ['pv'],
  schema: persistentVolumeSchema,
  status: true,
  returnDeletedObject: true,
  defaults: defaultPersistentVolume,
  prepareForCreate: (pv) => {
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: nowTimestamp() };
  },
  prepareForUpdate: stampPhaseTransition,
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
  columns: persistentVolumeColumns,
  selectableFields: {
    name: (pv) => pv.metadata.name ?? '',
  },
});
