/**
 * storage.k8s.io/v1 StorageClass: a kind of storage that claims ask for and a provisioner makes.
 * Space-scoped (cluster-scoped in Kubernetes). Kubernetes' behaviour: `pkg/apis/storage/v1/defaults.go`,
 * `pkg/apis/storage/validation`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { boolean, define, described, enumOf, list, map, object, ref, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { isValidLabelValue, validateQualifiedName } from '../../validation/labels.js';
import { validateImmutable } from '../apps/workload.js';

interface TopologySelectorTerm {
  matchLabelExpressions?: Array<{ key?: string; values?: string[] }>;
}

export interface StorageClass extends KubeObject {
  provisioner?: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  mountOptions?: string[];
  allowVolumeExpansion?: boolean;
  volumeBindingMode?: string;
  allowedTopologies?: TopologySelectorTerm[];
}

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

/** Annotations that mark the class claims get when they name none. */
export const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export const storageClassSchema = define(
  'io.k8s.api.storage.v1.StorageClass',
  object(
    'A class of storage that claims can ask for and a provisioner can create.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      provisioner: string('The volume plugin or CSI driver that provisions volumes of this class. Immutable.'),
      parameters: map(string('A parameter value.'), 'Provisioner parameters; at most 512, 256 KiB in all. Immutable.'),
      reclaimPolicy: enumOf('What happens to volumes of this class when released: Delete (the default) or Retain. Immutable.', RECLAIM_POLICIES),
      mountOptions: list(string('A mount option.'), 'Mount options of the volumes of this class; not validated.', { listType: 'atomic' }),
      allowVolumeExpansion: boolean('Whether volumes of this class may be expanded.'),
      volumeBindingMode: enumOf('When claims are bound and volumes provisioned: Immediate (the default) or WaitForFirstConsumer.', BINDING_MODES),
      allowedTopologies: list(ref('io.k8s.api.core.v1.TopologySelectorTerm'), 'Where volumes of this class may be provisioned; anywhere when empty.', { listType: 'atomic' }),
    },
    { required: ['provisioner'], 'x-kubernetes-group-version-kind': [{ group: 'storage.k8s.io', version: 'v1', kind: 'StorageClass' }] },
  ),
);

export function defaultStorageClass(obj: StorageClass): void {
  obj.reclaimPolicy ??= 'Delete';
  obj.volumeBindingMode ??= 'Immediate';
}

function validateParameters(params: Record<string, string> | undefined): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETERS) return [fieldErrors.tooLong('parameters', MAX_PARAMETERS)];
  const errors: FieldError[] = entries.filter(([k]) => k === '').map(([k]) => fieldErrors.invalid('parameters', k, 'field can not be empty.'));
  const size = entries.reduce((sum, [k, v]) => sum + k.length + v.length, 0);
  if (size > MAX_PARAMETERS_SIZE) errors.push(fieldErrors.tooLong('parameters', MAX_PARAMETERS_SIZE));
  return errors;
}

/** Each term's expressions: valid keys, at least one valid value, no key twice; no term twice. */
function validateTopologies(terms: TopologySelectorTerm[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen: Array<Record<string, string[]>> = [];
  terms.forEach((term, i) => {
    const byKey: Record<string, string[]> = {};
    (term.matchLabelExpressions ?? []).forEach((expr, j) => {
      const path = `allowedTopologies[${i}].matchLabelExpressions[${j}]`;
      const key = expr.key ?? '';
      errors.push(...validateQualifiedName(key, `${path}.key`));
      const values = expr.values ?? [];
      if (values.length === 0) errors.push(fieldErrors.required(`${path}.values`, 'must specify as least one value'));
      values.forEach((v, k) => errors.push(...isValidLabelValue(v).map((msg) => fieldErrors.invalid(`${path}.values[${k}]`, v, msg))));
      if (Object.hasOwn(byKey, key)) errors.push(fieldErrors.duplicate(`${path}.key`, key));
      byKey[key] = [...values].sort();
    });
    if (seen.some((other) => semanticEqual(other, byKey))) errors.push(fieldErrors.duplicate(`allowedTopologies[${i}].matchLabelExpressions`, ''));
    seen.push(byKey);
  });
  return errors;
}

export function validateStorageClass(obj: StorageClass): FieldError[] {
  const provisioner = obj.provisioner ?? '';
  const errors = provisioner === '' ? [fieldErrors.required('provisioner')] : validateQualifiedName(provisioner.toLowerCase(), 'provisioner');
  errors.push(...validateParameters(obj.parameters));
  if (obj.reclaimPolicy && !RECLAIM_POLICIES.includes(obj.reclaimPolicy)) errors.push(fieldErrors.notSupported('reclaimPolicy', obj.reclaimPolicy, RECLAIM_POLICIES));
  if (obj.volumeBindingMode == null) errors.push(fieldErrors.required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(obj.volumeBindingMode)) errors.push(fieldErrors.notSupported('volumeBindingMode', obj.volumeBindingMode, BINDING_MODES));
  errors.push(...validateTopologies(obj.allowedTopologies ?? []));
  return errors;
}

/** Volumes already made from a class keep what it promised: only expansion and options may change. */
export function validateStorageClassUpdate(obj: StorageClass, old: StorageClass): FieldError[] {
  const errors: FieldError[] = [];
  if (!semanticEqual(obj.parameters, old.parameters)) errors.push(fieldErrors.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (obj.provisioner !== old.provisioner) errors.push(fieldErrors.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (obj.reclaimPolicy !== old.reclaimPolicy) errors.push(fieldErrors.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  return [...errors, ...validateImmutable(obj.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode')];
}

export function isDefaultClass(obj: KubeObject): boolean {
  return DEFAULT_CLASS_ANNOTATIONS.some((key) => obj.metadata.annotations?.[key] === 'true');
}

const storageClassName: PrinterColumn<StorageClass> = {
  ...(nameColumn as PrinterColumn<StorageClass>),
  cell: (obj) => `${obj.metadata.name ?? ''}${isDefaultClass(obj) ? ' (default)' : ''}`,
};

export const storageClasses = defineKind<StorageClass>({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  resource: 'storageclasses',
  scope: 'space',
  shortNames: ['sc'],
  schema: storageClassSchema,
  defaults: defaultStorageClass,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
  columns: [
    storageClassName,
    { name: 'Provisioner', type: 'string', description: 'Who provisions volumes of the class.', priority: 0, cell: (obj) => obj.provisioner ?? '' },
    { name: 'ReclaimPolicy', type: 'string', description: 'What happens to released volumes.', priority: 0, cell: (obj) => obj.reclaimPolicy ?? 'Delete' },
    { name: 'VolumeBindingMode', type: 'string', description: 'When claims are bound.', priority: 0, cell: (obj) => obj.volumeBindingMode ?? 'Immediate' },
    { name: 'AllowVolumeExpansion', type: 'string', description: 'Whether volumes may be expanded.', priority: 0, cell: (obj) => obj.allowVolumeExpansion ?? false },
    ageColumn,
  ],
});
