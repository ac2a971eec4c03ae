/**
 * apps/v1 ReplicaSet: keeps a number of identical pods running. Kubernetes' behaviour:
 * `pkg/apis/apps/v1/defaults.go`, `pkg/apis/apps/validation`, `pkg/registry/apps/replicaset`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { define, described, integer, int64, list, object, ref, string } from '../../schema/schema.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import { validatePodTemplateSpec } from '../core/pod-spec-validation.js';
import type { PodTemplateSpec } from '../core/types.js';
import {
  count,
  isRecord,
  isUsableSelector,
  selectorColumn,
  selectorString,
  templateColumns,
  validateAlwaysRestart,
  validateControllerSelector,
  validateImmutable,
  validateNonNegative,
  validateSelectsTemplate,
} from './workload.js';

export interface ReplicaSet extends KubeObject {
  spec?: { replicas?: number; minReadySeconds?: number; selector?: LabelSelector; template?: PodTemplateSpec };
  status?: { replicas?: number; fullyLabeledReplicas?: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number };
}

const replicaSetCondition = define(
  'io.k8s.api.apps.v1.ReplicaSetCondition',
  object(
    'One observation of a replica set’s state.',
    {
      type: string('Condition type, such as ReplicaFailure.'),
      status: string('True, False or Unknown.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Machine-readable reason for the last transition.'),
      message: string('Human-readable details of the last transition.'),
    },
    { required: ['type', 'status'] },
  ),
);

const spec = define(
  'io.k8s.api.apps.v1.ReplicaSetSpec',
  object(
    'The desired state of a replica set.',
    {
      replicas: integer('Desired number of pods. Defaults to 1.'),
      minReadySeconds: integer('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
      selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Label query over the pods counted as replicas; must match the template’s labels. Immutable.'),
      template: described(ref('io.k8s.api.core.v1.PodTemplateSpec'), 'The pods to create when too few exist.'),
    },
    { required: ['selector'] },
  ),
);

const status = define(
  'io.k8s.api.apps.v1.ReplicaSetStatus',
  object(
    'The observed state of a replica set.',
    {
      replicas: integer('Most recently observed number of pods.'),
      fullyLabeledReplicas: integer('Pods whose labels match the template’s labels.'),
      readyReplicas: integer('Pods with a Ready condition.'),
      availableReplicas: integer('Pods ready for at least minReadySeconds.'),
      observedGeneration: int64('The generation the controller last acted on.'),
      conditions: list(replicaSetCondition, 'Latest observations of the replica set’s state.', { mergeKey: 'type', strategy: 'merge' }),
    },
    { required: ['replicas'] },
  ),
);

export const replicaSetSchema = define(
  'io.k8s.api.apps.v1.ReplicaSet',
  object(
    'Keeps a stable set of identical pods running.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the replica set.'),
      status: described(status, 'The most recently observed status of the replica set.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'ReplicaSet' }] },
  ),
);

export function defaultReplicaSet(obj: ReplicaSet): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  obj.spec.replicas ??= 1;
  // Kubernetes decodes an absent template as an empty one, so its pod defaults always apply.
  defaultPodTemplateSpec((obj.spec.template ??= {}));
}

/**
 * The template rules of replica sets and deployments (Kubernetes' ValidatePodTemplateSpecForReplicaSet):
 * a usable selector must select the template's pods, which must be valid, restart forever and have no deadline.
 */
export function validateReplicaSetTemplate(sel: LabelSelector | undefined, template: PodTemplateSpec | undefined): FieldError[] {
  if (!isUsableSelector(sel)) return [fieldErrors.invalid('spec.selector', sel ?? null, 'invalid label selector')];
  return [...validateSelectsTemplate(sel, template), ...validatePodTemplateSpec(template ?? {}, 'spec.template'), ...validateAlwaysRestart(template, 'ReplicaSet')];
}

export function validateReplicaSet(obj: ReplicaSet): FieldError[] {
  const s = obj.spec ?? {};
  return [
    ...validateNonNegative(s.replicas, 'spec.replicas'),
    ...validateNonNegative(s.minReadySeconds, 'spec.minReadySeconds'),
    // Kubernetes words the empty-selector error for replica sets as it does for deployments.
    ...validateControllerSelector(s.selector, 'deployment'),
    ...validateReplicaSetTemplate(s.selector, s.template),
  ];
}

export function validateReplicaSetUpdate(obj: ReplicaSet, old: ReplicaSet): FieldError[] {
  return validateImmutable(obj.spec?.selector, old.spec?.selector, 'spec.selector');
}

export const replicaSets = defineKind<ReplicaSet>({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  resource: 'replicasets',
  scope: 'namespace',
  shortNames: ['rs'],
  categories: ['all'],
  schema: replicaSetSchema,
  status: true,
  tracksGeneration: true,
  defaults: defaultReplicaSet,
  prepareForCreate: (obj) => {
    obj.status = { replicas: 0 };
  },
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSetUpdate,
  scale: {
    specReplicas: (obj) => obj.spec?.replicas ?? 1,
    setSpecReplicas: (obj, replicas) => {
      obj.spec = { ...obj.spec, replicas };
    },
    statusReplicas: (obj) => obj.status?.replicas ?? 0,
    selector: (obj) => selectorString(obj.spec?.selector),
  },
  columns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: 'Desired number of pods.', priority: 0, cell: (obj) => obj.spec?.replicas ?? 1 },
    { name: 'Current', type: 'integer', description: 'Pods that currently exist.', priority: 0, cell: (obj) => count(obj.status?.replicas) },
    { name: 'Ready', type: 'integer', description: 'Pods with a Ready condition.', priority: 0, cell: (obj) => count(obj.status?.readyReplicas) },
    ageColumn,
    ...templateColumns<ReplicaSet>((obj) => obj.spec?.template),
    selectorColumn<ReplicaSet>((obj) => obj.spec?.selector),
  ],
  selectableFields: { 'status.replicas': (obj) => String(count(obj.status?.replicas)) },
});
