/**
 * Validation of a pod's volumes: names, exactly one source each, and the checks of the common
 * sources (host paths, Secrets, ConfigMaps, the downward API, projections, claims). Fields a
 * source's schema marks required are checked for every source, exotic ones included.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { CORE_V1 } from '../../schema/core-types.js';
import { definitions, resolve } from '../../schema/schema.js';
import { child, index } from '../../validation/field-path.js';
import { validateLabels, validateAnnotations } from '../../validation/labels.js';
import { isDNS1123Label } from '../../validation/names.js';
import { quantityNanos } from '../../validation/quantity.js';
import { validateClaimSpec } from './claim-spec-validation.js';
import type { KeyToPath, PersistentVolumeClaimSpec, Volume } from './types.js';

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** Volume sources in the order Kubernetes checks them (the second one found is the one reported). */
const VOLUME_SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
] as const;

/** A path inside a volume: relative and never climbing out. */
export function validateLocalDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldErrors.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

export function validatePathNoBacksteps(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [fieldErrors.invalid(path, target, "must not contain '..'")] : [];
}

function validateLocalNonReservedPath(target: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldErrors.invalid(path, target, "must not start with '..'"));
  return errs;
}

function validateFileMode(mode: number | undefined, path: string): FieldError[] {
  return mode !== undefined && (mode < 0 || mode > 0o777) ? [fieldErrors.invalid(path, mode, FILE_MODE_ERROR)] : [];
}

function validateKeyToPath(item: KeyToPath, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!item.key) errs.push(fieldErrors.required(child(path, 'key')));
  if (!item.path) errs.push(fieldErrors.required(child(path, 'path')));
  errs.push(...validateLocalNonReservedPath(item.path ?? '', child(path, 'path')));
  errs.push(...validateFileMode(item.mode, child(path, 'mode')));
  return errs;
}

function validateItems(items: KeyToPath[] | undefined, path: string): FieldError[] {
  return (items ?? []).flatMap((item, i) => validateKeyToPath(item, index(child(path, 'items'), i)));
}

/** Fields the source's schema requires, reported as Kubernetes reports missing fields. */
function validateRequiredFields(source: string, value: Record<string, unknown>, path: string): FieldError[] {
  const volumeSchema = definitions.get(`${CORE_V1}Volume`);
  const schema = resolve(volumeSchema?.properties?.[source]);
  return (schema?.required ?? []).filter((field) => value[field] === undefined || value[field] === '').map((field) => fieldErrors.required(child(path, field)));
}

interface DownwardFile {
  fieldRef?: unknown;
  mode?: number;
  path?: string;
  resourceFieldRef?: unknown;
}

function validateDownwardFiles(items: DownwardFile[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (items ?? []).forEach((item, i) => {
    const p = index(child(path, 'items'), i);
    if (!item.path) errs.push(fieldErrors.required(child(p, 'path')));
    errs.push(...validateLocalNonReservedPath(item.path ?? '', child(p, 'path')));
    errs.push(...validateFileMode(item.mode, child(p, 'mode')));
    if (item.fieldRef && item.resourceFieldRef) errs.push(fieldErrors.invalid(p, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
    else if (!item.fieldRef && !item.resourceFieldRef) errs.push(fieldErrors.required(p, 'one of fieldRef and resourceFieldRef is required'));
  });
  return errs;
}

interface Projection {
  configMap?: { name?: string; items?: KeyToPath[] };
  secret?: { name?: string; items?: KeyToPath[] };
  downwardAPI?: { items?: DownwardFile[] };
  serviceAccountToken?: { expirationSeconds?: number; path?: string };
  clusterTrustBundle?: { path?: string };
}

function validateProjections(sources: Projection[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (sources ?? []).forEach((source, i) => {
    const p = index(child(path, 'sources'), i);
    const kinds = Object.keys(source).filter((k) => source[k as keyof Projection] !== undefined);
    for (const extra of kinds.slice(1)) errs.push(fieldErrors.forbidden(child(p, extra), 'may not specify more than 1 volume type per source'));
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = source[kind];
      if (!ref) continue;
      if (!ref.name) errs.push(fieldErrors.required(child(p, kind, 'name')));
      errs.push(...validateItems(ref.items, child(p, kind)));
    }
    if (source.downwardAPI) errs.push(...validateDownwardFiles(source.downwardAPI.items, child(p, 'downwardAPI')));
    const token = source.serviceAccountToken;
    if (token) {
      const tp = child(p, 'serviceAccountToken');
      const seconds = token.expirationSeconds ?? 0;
      if (seconds < 600) errs.push(fieldErrors.invalid(child(tp, 'expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
      else if (seconds > 2 ** 32) errs.push(fieldErrors.invalid(child(tp, 'expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
      if (!token.path) errs.push(fieldErrors.required(child(tp, 'path')));
      else errs.push(...validateLocalNonReservedPath(token.path, child(tp, 'path')));
    }
  });
  return errs;
}

interface ClaimTemplate {
  metadata?: Record<string, unknown> & { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: PersistentVolumeClaimSpec;
}

/** An ephemeral volume's claim template: only labels and annotations in its metadata. */
function validateClaimTemplate(template: ClaimTemplate | undefined, path: string): FieldError[] {
  if (!template) return [fieldErrors.required(child(path, 'volumeClaimTemplate'))];
  const tp = child(path, 'volumeClaimTemplate');
  const meta = template.metadata ?? {};
  const errs = [...validateLabels(meta.labels, child(tp, 'metadata', 'labels')), ...validateAnnotations(meta.annotations, child(tp, 'metadata', 'annotations'))];
  for (const field of Object.keys(meta)) {
    if (field !== 'labels' && field !== 'annotations') errs.push(fieldErrors.forbidden(child(tp, 'metadata', field), 'cannot be set'));
  }
  errs.push(...validateClaimSpec(template.spec, child(tp, 'spec')));
  return errs;
}

function validateSource(volume: Volume, source: string, path: string): FieldError[] {
  const value = (volume[source] ?? {}) as Record<string, unknown>;
  const errs = validateRequiredFields(source, value, path);
  switch (source) {
    case 'emptyDir':
      if (quantityNanos(volume.emptyDir?.sizeLimit) < 0n) errs.push(fieldErrors.forbidden(child(path, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
      break;
    case 'hostPath': {
      const hostPath = volume.hostPath?.path ?? '';
      if (hostPath) errs.push(...validatePathNoBacksteps(hostPath, child(path, 'path')));
      const type = volume.hostPath?.type;
      if (type !== undefined && !HOST_PATH_TYPES.includes(type)) errs.push(fieldErrors.notSupported(child(path, 'type'), type, HOST_PATH_TYPES));
      break;
    }
    case 'secret':
      if (!volume.secret?.secretName) errs.push(fieldErrors.required(child(path, 'secretName')));
      errs.push(...validateFileMode(volume.secret?.defaultMode, child(path, 'defaultMode')), ...validateItems(volume.secret?.items, path));
      break;
    case 'configMap':
      if (!volume.configMap?.name) errs.push(fieldErrors.required(child(path, 'name')));
      errs.push(...validateFileMode(volume.configMap?.defaultMode, child(path, 'defaultMode')), ...validateItems(volume.configMap?.items, path));
      break;
    case 'downwardAPI':
      errs.push(...validateFileMode(volume.downwardAPI?.defaultMode, child(path, 'defaultMode')));
      errs.push(...validateDownwardFiles(volume.downwardAPI?.items as DownwardFile[] | undefined, path));
      break;
    case 'projected':
      errs.push(...validateFileMode(volume.projected?.defaultMode, child(path, 'defaultMode')));
      errs.push(...validateProjections(volume.projected?.sources as Projection[] | undefined, path));
      break;
    case 'nfs': {
      const nfsPath = (value.path as string | undefined) ?? '';
      if (nfsPath && !nfsPath.startsWith('/')) errs.push(fieldErrors.invalid(child(path, 'path'), nfsPath, 'must be an absolute path'));
      break;
    }
    case 'ephemeral':
      errs.push(...validateClaimTemplate(volume.ephemeral?.volumeClaimTemplate as ClaimTemplate | undefined, path));
      break;
  }
  return errs;
}

/** The sources set on a volume, in Kubernetes' checking order. */
function volumeSources(volume: Volume): string[] {
  return VOLUME_SOURCES.filter((s) => volume[s] !== undefined && volume[s] !== null);
}

/**
 * A pod's volumes. Returns the errors and the volumes that are valid by name, which container
 * mounts must refer to.
 */
export function validateVolumes(volumes: readonly Volume[] | undefined, path: string): { errs: FieldError[]; valid: Map<string, Volume> } {
  const errs: FieldError[] = [];
  const valid = new Map<string, Volume>();
  (volumes ?? []).forEach((volume, i) => {
    const p = index(path, i);
    const sources = volumeSources(volume);
    const own: FieldError[] = [];
    sources.forEach((source, n) => {
      if (n > 0) own.push(fieldErrors.forbidden(child(p, source), 'may not specify more than 1 volume type'));
      else own.push(...validateSource(volume, source, child(p, source)));
    });
    if (sources.length === 0) own.push(fieldErrors.required(p, 'must specify a volume type'));
    const name = volume.name ?? '';
    if (!name) own.push(fieldErrors.required(child(p, 'name')));
    else own.push(...isDNS1123Label(name).map((msg) => fieldErrors.invalid(child(p, 'name'), name, msg)));
    if (valid.has(name)) own.push(fieldErrors.duplicate(child(p, 'name'), name));
    if (own.length === 0) valid.set(name, volume);
    errs.push(...own);
  });
  return { errs, valid };
}
