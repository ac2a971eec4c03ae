/**
 * apps/v1 StatefulSet: pods with stable identities and storage. Kubernetes' behaviour:
 * `pkg/apis/apps/v1/defaults.go`, `pkg/apis/apps/validation`, `pkg/registry/apps/statefulset`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { define, described, enumOf, integer, int64, intOrString, list, object, ref, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { validateAnnotations, validateLabels } from '../../validation/labels.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import type { IntOrString, PodTemplateSpec } from '../core/types.js';
import {
  count,
  intOrPercentValue,
  isRecord,
  isUsableSelector,
  selectorString,
  templateColumns,
  validateAlwaysRestart,
  validateAtMost100Percent,
  validateControllerSelector,
  validateNonNegative,
  validatePositiveIntOrPercent,
  validateSelectsTemplate,
} from './workload.js';

interface ClaimTemplate {
  spec?: { volumeMode?: string; [field: string]: unknown };
  status?: { phase?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface StatefulSet extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    volumeClaimTemplates?: ClaimTemplate[];
    serviceName?: string;
    podManagementPolicy?: string;
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString } };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
    ordinals?: { start?: number };
  };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number; [field: string]: unknown };
}

const POD_MANAGEMENT_POLICIES = ['OrderedReady', 'Parallel'];
const UPDATE_STRATEGIES = ['RollingUpdate', 'OnDelete'];
const RETENTION_POLICIES = ['Retain', 'Delete'];

const statefulSetCondition = define(
  'io.k8s.api.apps.v1.StatefulSetCondition',
  object(
    'One observation of a stateful set’s state.',
    {
      type: string('Condition type.'),
      status: string('True, False or Unknown.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Machine-readable reason for the last transition.'),
      message: string('Human-readable details of the last transition.'),
    },
    { required: ['type', 'status'] },
  ),
);

const rollingUpdate = define(
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy',
  object('Parameters of a RollingUpdate strategy.', {
    partition: integer('Ordinal from which pods are updated; lower ordinals keep the old revision. Defaults to 0.'),
    maxUnavailable: intOrString('Pods that may be unavailable during the update: a count or a percentage (rounded up), never 0.'),
  }),
);

const updateStrategy = define(
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy',
  object('How pods are replaced when the template changes.', {
    type: enumOf('RollingUpdate (the default) or OnDelete.', UPDATE_STRATEGIES),
    rollingUpdate: described(rollingUpdate, 'Parameters for type RollingUpdate.'),
  }),
);

const retentionPolicy = define(
  'io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy',
  object('What happens to claims made from volumeClaimTemplates.', {
    whenDeleted: enumOf('Retain (the default) or Delete the claims when the stateful set is deleted.', RETENTION_POLICIES),
    whenScaled: enumOf('Retain (the default) or Delete the claims of pods removed by a scale-down.', RETENTION_POLICIES),
  }),
);

const ordinals = define(
  'io.k8s.api.apps.v1.StatefulSetOrdinals',
  object('How replica indices are numbered.', {
    start: integer('Index of the first replica. Defaults to 0.'),
  }),
);

const spec = define(
  'io.k8s.api.apps.v1.StatefulSetSpec',
  object(
    'The desired state of a stateful set.',
    {
      replicas: integer('Desired number of pods. Defaults to 1.'),
      selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Label query over the pods of this set; must match the template’s labels.'),
      template: described(ref('io.k8s.api.core.v1.PodTemplateSpec'), 'The pods to create; each gets a stable name <set>-<ordinal>. Only restartPolicy Always is allowed.'),
      volumeClaimTemplates: list(ref('io.k8s.api.core.v1.PersistentVolumeClaim'), 'Claims each pod gets, matched to volume mounts by name.', { listType: 'atomic' }),
      serviceName: string('The headless service that gives the pods their network identity.'),
      podManagementPolicy: enumOf('OrderedReady (the default: one pod at a time, in order) or Parallel.', POD_MANAGEMENT_POLICIES),
      updateStrategy: described(updateStrategy, 'How pods are updated when the template changes.'),
      revisionHistoryLimit: integer('Old revisions kept. Defaults to 10.'),
      minReadySeconds: integer('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
      persistentVolumeClaimRetentionPolicy: described(retentionPolicy, 'Lifecycle of the claims made from volumeClaimTemplates.'),
      ordinals: described(ordinals, 'How replica indices are numbered.'),
    },
    { required: ['selector', 'template'] },
  ),
);

const status = define(
  'io.k8s.api.apps.v1.StatefulSetStatus',
  object(
    'The observed state of a stateful set.',
    {
      observedGeneration: int64('The generation the controller last acted on.'),
      replicas: integer('Pods created by the controller.'),
      readyReplicas: integer('Pods with a Ready condition.'),
      currentReplicas: integer('Pods at currentRevision.'),
      updatedReplicas: integer('Pods at updateRevision.'),
      currentRevision: string('Revision of the pods in [0, currentReplicas).'),
      updateRevision: string('Revision of the pods in [replicas-updatedReplicas, replicas).'),
      collisionCount: integer('Hash collisions met while naming the newest ControllerRevision.'),
      conditions: list(statefulSetCondition, 'Latest observations of the stateful set’s state.', { mergeKey: 'type', strategy: 'merge' }),
      availableReplicas: integer('Pods ready for at least minReadySeconds.'),
    },
    { required: ['replicas'] },
  ),
);

export const statefulSetSchema = define(
  'io.k8s.api.apps.v1.StatefulSet',
  object(
    'Pods with stable network identities and per-pod storage.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired identities of the pods in this set.'),
      status: described(status, 'The most recently observed status of the stateful set.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'StatefulSet' }] },
  ),
);

/** PersistentVolumeClaim defaults, as a claim template shows them once stored. */
function defaultClaimTemplate(claim: ClaimTemplate): void {
  if (!isRecord(claim)) return;
  if (!isRecord(claim.spec)) claim.spec = {};
  claim.spec.volumeMode ??= 'Filesystem';
  if (!isRecord(claim.status)) claim.status = {};
  claim.status.phase ||= 'Pending';
}

export function defaultStatefulSet(obj: StatefulSet): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  s.podManagementPolicy ||= 'OrderedReady';
  if (!isRecord(s.updateStrategy)) s.updateStrategy = {};
  const strat = s.updateStrategy;
  if (!strat.type) {
    strat.type = 'RollingUpdate';
    if (!isRecord(strat.rollingUpdate)) strat.rollingUpdate = {};
  }
  if (strat.type === 'RollingUpdate' && isRecord(strat.rollingUpdate)) strat.rollingUpdate.partition ??= 0;
  if (!isRecord(s.persistentVolumeClaimRetentionPolicy)) s.persistentVolumeClaimRetentionPolicy = {};
  s.persistentVolumeClaimRetentionPolicy.whenDeleted ||= 'Retain';
  s.persistentVolumeClaimRetentionPolicy.whenScaled ||= 'Retain';
  s.replicas ??= 1;
  s.revisionHistoryLimit ??= 10;
  // Kubernetes decodes an absent template as an empty one, so its pod defaults always apply.
  defaultPodTemplateSpec((s.template ??= {}));
  if (Array.isArray(s.volumeClaimTemplates)) s.volumeClaimTemplates.forEach(defaultClaimTemplate);
}

function validateUpdateStrategy(strat: NonNullable<StatefulSet['spec']>['updateStrategy']): FieldError[] {
  const path = 'spec.updateStrategy';
  switch (strat?.type ?? '') {
    case '':
      return [fieldErrors.required(path)];
    case 'OnDelete':
      return strat?.rollingUpdate ? [fieldErrors.invalid(`${path}.rollingUpdate`, strat.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      const ru = strat?.rollingUpdate;
      if (!ru) return [];
      const errors = validateNonNegative(ru.partition ?? 0, `${path}.rollingUpdate.partition`);
      if (ru.maxUnavailable != null) {
        const field = `${path}.rollingUpdate.maxUnavailable`;
        errors.push(...validatePositiveIntOrPercent(ru.maxUnavailable, field));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errors.push(fieldErrors.invalid(field, ru.maxUnavailable, 'cannot be 0'));
        errors.push(...validateAtMost100Percent(ru.maxUnavailable, field));
      }
      return errors;
    }
    default:
      return [fieldErrors.invalid(path, strat, `must be '${UPDATE_STRATEGIES[0]}' or '${UPDATE_STRATEGIES[1]}'`)];
  }
}

function validateRetentionPolicy(policy: NonNullable<StatefulSet['spec']>['persistentVolumeClaimRetentionPolicy']): FieldError[] {
  if (!policy) return [];
  const path = 'spec.persistentVolumeClaimRetentionPolicy';
  return (['whenDeleted', 'whenScaled'] as const).flatMap((key) =>
    RETENTION_POLICIES.includes(policy[key] ?? '') ? [] : [fieldErrors.notSupported(`${path}.${key}`, policy[key] ?? '', RETENTION_POLICIES)],
  );
}

export function validateStatefulSet(obj: StatefulSet): FieldError[] {
  const s = obj.spec ?? {};
  const errors: FieldError[] = [];
  const policy = s.podManagementPolicy ?? '';
  if (policy === '') errors.push(fieldErrors.required('spec.podManagementPolicy'));
  else if (!POD_MANAGEMENT_POLICIES.includes(policy)) {
    errors.push(fieldErrors.invalid('spec.podManagementPolicy', policy, `must be '${POD_MANAGEMENT_POLICIES[0]}' or '${POD_MANAGEMENT_POLICIES[1]}'`));
  }
  errors.push(
    ...validateUpdateStrategy(s.updateStrategy),
    ...validateRetentionPolicy(s.persistentVolumeClaimRetentionPolicy),
    ...validateNonNegative(s.replicas, 'spec.replicas'),
    ...validateNonNegative(s.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonNegative(s.ordinals?.start, 'spec.ordinals.start'),
    ...validateControllerSelector(s.selector, 'statefulset'),
  );
  if (!isUsableSelector(s.selector)) errors.push(fieldErrors.invalid('spec.selector', s.selector ?? null));
  else {
    errors.push(
      ...validateSelectsTemplate(s.selector, s.template),
      // Only the template's metadata is checked: volumes may come from claim templates, so pods are checked when made.
      ...validateLabels(s.template?.metadata?.labels, 'spec.template.labels'),
      ...validateAnnotations(s.template?.metadata?.annotations, 'spec.template.annotations'),
    );
  }
  errors.push(...validateAlwaysRestart(s.template, 'StatefulSet'));
  return errors;
}

/** Fields of the spec an update may change; everything else is fixed at creation. */
const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'] as const;

export function validateStatefulSetUpdate(obj: StatefulSet, old: StatefulSet): FieldError[] {
  const fixed = (spec: StatefulSet['spec']): Record<string, unknown> => {
    const rest: Record<string, unknown> = { ...spec };
    for (const key of MUTABLE_SPEC_FIELDS) delete rest[key];
    return rest;
  };
  if (semanticEqual(fixed(obj.spec), fixed(old.spec))) return [];
  return [
    fieldErrors.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

export const statefulSets = defineKind<StatefulSet>({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  resource: 'statefulsets',
  scope: 'namespace',
  shortNames: ['sts'],
  categories: ['all'],
  schema: statefulSetSchema,
  // Pod names are <set>-<ordinal> and hostnames, so a set's name is a DNS label.
  nameRule: 'dns1123-label',
  status: true,
  tracksGeneration: true,
  defaults: defaultStatefulSet,
  prepareForCreate: (obj) => {
    obj.status = { replicas: 0, availableReplicas: 0 };
  },
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
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
    { name: 'Ready', type: 'string', description: 'Ready pods out of desired.', priority: 0, cell: (obj) => `${count(obj.status?.readyReplicas)}/${obj.spec?.replicas ?? 1}` },
    ageColumn,
    ...templateColumns<StatefulSet>((obj) => obj.spec?.template),
  ],
});
