/**
 * Validation of a PersistentVolumeClaimSpec, wherever a claim is described: PersistentVolumeClaim
 * objects, ephemeral volumes, and (for the apps group) StatefulSet claim templates.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { child, key } from '../../validation/field-path.js';
import { validateLabelSelector } from '../../validation/label-selector.js';
import { isDNS1123Subdomain } from '../../validation/names.js';
import { formatQuantity } from '../../validation/quantity.js';
import { parseQuantityField, validateResourceQuantityValue } from './resource-validation.js';
import type { PersistentVolumeClaimSpec } from './types.js';

/** Access modes, sorted as Kubernetes lists them in "supported values". */
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
export const VOLUME_MODES = ['Block', 'Filesystem'];

/** Known modes; ReadWriteOncePod excludes every other mode. */
export function validateAccessModes(modes: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(fieldErrors.notSupported(path, mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other) errs.push(fieldErrors.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

interface DataSource {
  apiGroup?: string;
  kind?: string;
  name?: string;
}

function validateDataSource(source: DataSource, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!source.name) errs.push(fieldErrors.required(child(path, 'name')));
  if (!source.kind) errs.push(fieldErrors.required(child(path, 'kind')));
  if (!source.apiGroup && source.kind !== 'PersistentVolumeClaim') errs.push(fieldErrors.notSupported(path, source.kind ?? '', ['PersistentVolumeClaim']));
  return errs;
}

export function validateClaimSpec(spec: PersistentVolumeClaimSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const accessModes = spec?.accessModes ?? [];
  if (accessModes.length === 0) errs.push(fieldErrors.required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  errs.push(...validateLabelSelector(spec?.selector, child(path, 'selector')));
  errs.push(...validateAccessModes(accessModes, child(path, 'accessModes')));

  // Kubernetes reports the storage request at `resources[storage]` (sic).
  const storagePath = key(child(path, 'resources'), 'storage');
  const storage = spec?.resources?.requests?.storage;
  if (storage === undefined) {
    errs.push(fieldErrors.required(storagePath));
  } else {
    const q = parseQuantityField(storage, storagePath, errs);
    if (q && q.nanos <= 0n) errs.push(fieldErrors.invalid(storagePath, formatQuantity(q), 'must be greater than zero'));
    else if (q) errs.push(...validateResourceQuantityValue('storage', storage, storagePath));
  }

  for (const field of ['storageClassName', 'volumeAttributesClassName'] as const) {
    const value = spec?.[field];
    if (value) errs.push(...isDNS1123Subdomain(value).map((msg) => fieldErrors.invalid(child(path, field), value, msg)));
  }
  if (spec?.volumeMode !== undefined && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(fieldErrors.notSupported(child(path, 'volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  const raw = spec as { dataSource?: DataSource; dataSourceRef?: DataSource } | undefined;
  if (raw?.dataSource) errs.push(...validateDataSource(raw.dataSource, child(path, 'dataSource')));
  if (raw?.dataSourceRef) errs.push(...validateDataSource(raw.dataSourceRef, child(path, 'dataSourceRef')));
  return errs;
}
