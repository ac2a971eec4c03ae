/**
 * PersistentVolumeClaims (core/v1): a request for storage. A claim starts Pending; once created its
 * spec is fixed, except that the volume name may be set once (binding), the storage request may
 * grow, the storage class may be set where none was, and the attributes class may change.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { coreRef } from '../../schema/core-types.js';
import { semanticEqual } from '../../validation/equality.js';
import { canonicalizeResourceList, canonicalQuantity, quantityNanos } from '../../validation/quantity.js';
import { validateClaimSpec } from './claim-spec-validation.js';
import { column, formatAccessModes } from './table-cells.js';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec } from './types.js';

/** The storage class annotation that predates `spec.storageClassName`, still honoured first. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const IMMUTABLE_SPEC_DETAIL = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** Fills a claim spec's defaults (also used for claim templates): Filesystem mode, canonical quantities. */
export function defaultClaimSpec(spec: PersistentVolumeClaimSpec): void {
  spec.volumeMode ??= 'Filesystem';
  canonicalizeResourceList(spec.resources?.requests);
  canonicalizeResourceList(spec.resources?.limits);
}

function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  defaultClaimSpec((pvc.spec ??= {}));
  if (pvc.status) {
    pvc.status.phase ||= 'Pending';
    canonicalizeResourceList(pvc.status.capacity);
  }
}

function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return validateClaimSpec(pvc.spec, 'spec');
}

/** Whether the storage class may be set now: from none, or from the beta annotation to the same class. */
function storageClassMaySet(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): boolean {
  const next = pvc.spec?.storageClassName;
  if (old.spec?.storageClassName !== undefined || next === undefined) return false;
  const annotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  return annotation === undefined || annotation === next;
}

function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  const spec = pvc.spec ?? {};
  const prev = old.spec ?? {};
  const annotation = pvc.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (annotation !== oldAnnotation && oldAnnotation !== undefined) {
    errs.push(fieldErrors.invalid(`metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]`, annotation ?? '', 'field is immutable'));
  }

  // Compare the specs with what may change taken out: for a bound claim, the storage request
  // and the attributes class.
  const bound = pvc.status?.phase === 'Bound';
  const comparable = (s: PersistentVolumeClaimSpec): PersistentVolumeClaimSpec => {
    const copy = structuredClone(s);
    if (!bound) return copy;
    copy.volumeAttributesClassName = prev.volumeAttributesClassName;
    const requests = copy.resources?.requests;
    const storage = prev.resources?.requests?.storage;
    if (requests && storage === undefined) delete requests.storage;
    else if (requests && storage !== undefined) requests.storage = storage;
    return copy;
  };
  const next = comparable(spec);
  const before = comparable(prev);
  if (!prev.volumeName) before.volumeName = next.volumeName;
  if (storageClassMaySet(pvc, old)) before.storageClassName = next.storageClassName;
  if (!semanticEqual(next, before)) errs.push(fieldErrors.forbidden('spec', IMMUTABLE_SPEC_DETAIL));

  if (quantityNanos(spec.resources?.requests?.storage) < quantityNanos(prev.resources?.requests?.storage)) {
    errs.push(fieldErrors.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  if (prev.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName === undefined) {
    errs.push(fieldErrors.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
  } else if (prev.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName === '') {
    errs.push(fieldErrors.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to an empty string is forbidden'));
  }
  return errs;
}

/** The claim's class: the beta annotation first, then `spec.storageClassName`. */
function claimClass(pvc: PersistentVolumeClaim): string {
  return pvc.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? pvc.spec?.storageClassName ?? '';
}

const persistentVolumeClaimColumns: PrinterColumn<PersistentVolumeClaim>[] = [
  nameColumn as PrinterColumn<PersistentVolumeClaim>,
  column('Status', 'string', 'Pending, Bound or Lost; Terminating while being deleted.', (pvc) =>
    pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? ''),
  ),
  column('Volume', 'string', 'The volume the claim is bound to.', (pvc) => pvc.spec?.volumeName ?? ''),
  column('Capacity', 'string', 'The storage of the bound volume.', (pvc) =>
    pvc.spec?.volumeName ? String(canonicalQuantity(pvc.status?.capacity?.storage ?? 0)) : '',
  ),
  column('Access Modes', 'string', 'The access modes of the bound volume.', (pvc) => (pvc.spec?.volumeName ? formatAccessModes(pvc.status?.accessModes) : '')),
  column('StorageClass', 'string', 'The storage class of the claim.', claimClass),
  column('VolumeAttributesClass', 'string', 'The volume attributes class of the claim.', (pvc) => pvc.spec?.volumeAttributesClassName ?? '<unset>'),
  ageColumn as PrinterColumn<PersistentVolumeClaim>,
  column('VolumeMode', 'string', 'Filesystem or Block.', (pvc) => pvc.spec?.volumeMode ?? '<unset>', 1),
];

export const persistentVolumeClaims = defineKind<PersistentVolumeClaim>({
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  scope: 'namespace',
  shortNames: ['pvc'],
  schema: coreRef('PersistentVolumeClaim'),
  status: true,
  returnDeletedObject: true,
  defaults: defaultPersistentVolumeClaim,
  prepareForCreate: (pvc) => {
    pvc.status = { phase: 'Pending' };
  },
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
  columns: persistentVolumeClaimColumns,
  selectableFields: {
    name: (pvc) => pvc.metadata.name ?? '',
  },
});
