/**
 * ReplicationControllers (core/v1): the original way to keep N copies of a pod running. The
 * selector and the object's labels default to the template's labels and replicas to 1; the
 * selector must match the template. Scalable through the `scale` subresource.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn, type ScaleSubresource } from '../../registry/resource-definition.js';
import { CORE_V1, coreField, defineCore, stringMap } from '../../schema/core-types-ref.js';
import '../../schema/core-types.js';
import { defineKindSchema, timeField } from '../../schema/meta.js';
import { int64, integer, list, object, string } from '../../schema/schema.js';
import { child } from '../../validation/field-path.js';
import { labelSelectorMatches } from '../../validation/label-selector.js';
import { defaultPodTemplateSpec } from './pod-spec-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import { column, containerCells, formatLabels } from './table-cells.js';
import type { ReplicationController } from './types.js';

type RCStatus = NonNullable<ReplicationController['status']>;

const NON_NEGATIVE = 'must be greater than or equal to 0';

defineCore(
  'ReplicationControllerSpec',
  object('What a replication controller keeps running.', {
    minReadySeconds: integer('How long a new pod must be ready, without crashing, to count as available. Defaults to 0.'),
    replicas: integer('How many pods to keep running. Defaults to 1.'),
    selector: stringMap('Labels of the pods the controller counts; defaults to the template’s labels.', true),
    template: coreField('PodTemplateSpec', 'The pods to create when there are too few.'),
  }),
);

defineCore(
  'ReplicationControllerCondition',
  object(
    'One aspect of a replication controller’s state.',
    {
      lastTransitionTime: timeField('When the status last changed.'),
      message: string('Details for people.'),
      reason: string('Why the status is what it is, CamelCase.'),
      status: string('True, False or Unknown.'),
      type: string('What the condition is about, e.g. ReplicaFailure.'),
    },
    { required: ['type', 'status'] },
  ),
);

defineCore(
  'ReplicationControllerStatus',
  object(
    'The observed state of a replication controller.',
    {
      availableReplicas: integer('Pods ready for at least minReadySeconds.'),
      conditions: list(coreField('ReplicationControllerCondition', 'One condition.'), 'Current conditions.', { mergeKey: 'type', strategy: 'merge' }),
      fullyLabeledReplicas: integer('Pods whose labels match the template’s.'),
      observedGeneration: int64('The generation the controller last acted on.'),
      readyReplicas: integer('Pods that are ready.'),
      replicas: integer('Pods the controller currently counts.'),
    },
    { required: ['replicas'] },
  ),
);

const replicationControllerSchema = defineKindSchema(
  `${CORE_V1}ReplicationController`,
  { group: '', version: 'v1', kind: 'ReplicationController' },
  'Keeps a number of copies of a pod running.',
  {
    spec: coreField('ReplicationControllerSpec', 'What the controller keeps running.'),
    status: coreField('ReplicationControllerStatus', 'What the controller last observed. Read-only.'),
  },
);

function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  defaultPodTemplateSpec(spec.template);
}

function nonNegative(value: number | undefined, path: string): FieldError[] {
  return value !== undefined && value < 0 ? [fieldErrors.invalid(path, value, NON_NEGATIVE)] : [];
}

function validateTemplate(rc: ReplicationController): FieldError[] {
  const spec = rc.spec ?? {};
  const template = spec.template;
  const path = 'spec.template';
  if (!template) return [fieldErrors.required(path)];
  const errs: FieldError[] = [];
  const selector = spec.selector ?? {};
  if (Object.keys(selector).length > 0 && !labelSelectorMatches({ matchLabels: selector }, template.metadata?.labels)) {
    errs.push(fieldErrors.invalid(child(path, 'metadata', 'labels'), template.metadata?.labels ?? {}, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldErrors.notSupported(child(path, 'spec', 'restartPolicy'), restartPolicy, ['Always']));
  const deadline = template.spec?.activeDeadlineSeconds;
  if (deadline !== undefined) {
    errs.push(fieldErrors.invalid(child(path, 'spec', 'activeDeadlineSeconds'), deadline, 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/** Counts a controller reports must be non-negative and consistent with each other. */
function validateStatus(status: RCStatus | undefined): FieldError[] {
  if (!status) return [];
  const errs: FieldError[] = [];
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const;
  for (const field of counts) errs.push(...nonNegative(status[field], `status.${field}`));
  const replicas = status.replicas ?? 0;
  for (const field of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    const value = status[field] ?? 0;
    if (value > replicas) errs.push(fieldErrors.invalid(`status.${field}`, value, 'cannot be greater than status.replicas'));
  }
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)) {
    errs.push(fieldErrors.invalid('status.availableReplicas', status.availableReplicas ?? 0, 'cannot be greater than readyReplicas'));
  }
  return errs;
}

function validateReplicationController(rc: ReplicationController): FieldError[] {
  const spec = rc.spec ?? {};
  const errs = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  if (Object.keys(spec.selector ?? {}).length === 0) errs.push(fieldErrors.required('spec.selector'));
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errs.push(...validateTemplate(rc));
  errs.push(...validateStatus(rc.status));
  return errs;
}

/** The selector as `key=value` pairs sorted by key, as label selectors print. */
function selectorString(selector: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(selector ?? {})
    .sort()
    .map((k) => `${k}=${selector![k]}`)
    .join(',');
}

const scale: ScaleSubresource<ReplicationController> = {
  specReplicas: (rc) => rc.spec?.replicas ?? 0,
  setSpecReplicas: (rc, replicas) => {
    rc.spec = { ...rc.spec, replicas };
  },
  statusReplicas: (rc) => rc.status?.replicas ?? 0,
  selector: (rc) => selectorString(rc.spec?.selector),
};

const replicationControllerColumns: PrinterColumn<ReplicationController>[] = [
  nameColumn as PrinterColumn<ReplicationController>,
  column('Desired', 'integer', 'How many pods the controller should keep running.', (rc) => rc.spec?.replicas ?? 0),
  column('Current', 'integer', 'How many pods the controller counts now.', (rc) => rc.status?.replicas ?? 0),
  column('Ready', 'integer', 'How many of them are ready.', (rc) => rc.status?.readyReplicas ?? 0),
  ageColumn as PrinterColumn<ReplicationController>,
  column('Containers', 'string', 'Names of the template’s containers.', (rc) => containerCells(rc.spec?.template?.spec?.containers).names, 1),
  column('Images', 'string', 'Images of the template’s containers.', (rc) => containerCells(rc.spec?.template?.spec?.containers).images, 1),
  column('Selector', 'string', 'Labels of the pods the controller counts.', (rc) => formatLabels(rc.spec?.selector), 1),
];

export const replicationControllers = defineKind<ReplicationController>({
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  scope: 'namespace',
  shortNames: ['rc'],
  categories: ['all'],
  schema: replicationControllerSchema,
  status: true,
  tracksGeneration: true,
  scale,
  defaults: defaultReplicationController,
  prepareForCreate: (rc) => {
    rc.status = { replicas: 0 };
  },
  validate: validateReplicationController,
  // Kubernetes keeps a v1 ReplicationController's pods by default, as before server-side garbage collection.
  garbageCollectionPolicy: 'OrphanDependents',
  columns: replicationControllerColumns,
  selectableFields: {
    'status.replicas': (rc) => String(rc.status?.replicas ?? 0),
  },
});
