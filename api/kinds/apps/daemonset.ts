/**
 * apps/v1 DaemonSet: one pod per eligible node. Kubernetes' behaviour:
 * `pkg/apis/apps/v1/defaults.go`, `pkg/apis/apps/validation`, `pkg/registry/apps/daemonset`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { define, described, enumOf, integer, int64, intOrString, list, object, ref, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import { validatePodTemplateSpec } from '../core/pod-spec-validation.js';
import { formatLabels } from '../core/table-cells.js';
import type { IntOrString, PodTemplateSpec } from '../core/types.js';
import {
  count,
  intOrPercentValue,
  isEmptySelector,
  isRecord,
  isUsableSelector,
  selectorColumn,
  templateColumns,
  validateAlwaysRestart,
  validateAtMost100Percent,
  validateImmutable,
  validateNonNegative,
  validatePositiveIntOrPercent,
  validateSelectsTemplate,
} from './workload.js';

export interface DaemonSet extends KubeObject {
  spec?: {
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled?: number;
    numberMisscheduled?: number;
    desiredNumberScheduled?: number;
    numberReady?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    [field: string]: unknown;
  };
}

const UPDATE_STRATEGIES = ['RollingUpdate', 'OnDelete'];

/** apps/v1 carries the internal template generation in this annotation; kubectl rollout reads it. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

const daemonSetCondition = define(
  'io.k8s.api.apps.v1.DaemonSetCondition',
  object(
    'One observation of a daemon set’s state.',
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
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet',
  object('How fast a rolling update replaces daemon pods.', {
    maxUnavailable: intOrString('Nodes whose daemon pod may be down during the update: a count or a percentage (rounded up). Defaults to 1.'),
    maxSurge: intOrString('Nodes that may run an updated pod next to the old one: a count or a percentage (rounded up). Defaults to 0.'),
  }),
);

const updateStrategy = define(
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy',
  object('How daemon pods are replaced when the template changes.', {
    type: enumOf('RollingUpdate (the default) or OnDelete.', UPDATE_STRATEGIES),
    rollingUpdate: described(rollingUpdate, 'Parameters for type RollingUpdate.'),
  }),
);

const spec = define(
  'io.k8s.api.apps.v1.DaemonSetSpec',
  object(
    'The desired state of a daemon set.',
    {
      selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Label query over the daemon pods; must match the template’s labels. Immutable.'),
      template: described(ref('io.k8s.api.core.v1.PodTemplateSpec'), 'The pod to run on every eligible node. Only restartPolicy Always is allowed.'),
      updateStrategy: described(updateStrategy, 'How daemon pods are updated.'),
      minReadySeconds: integer('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
      revisionHistoryLimit: integer('Old revisions kept for rollback. Defaults to 10.'),
    },
    { required: ['selector', 'template'] },
  ),
);

const status = define(
  'io.k8s.api.apps.v1.DaemonSetStatus',
  object(
    'The observed state of a daemon set.',
    {
      currentNumberScheduled: integer('Nodes running at least one daemon pod that should run it.'),
      numberMisscheduled: integer('Nodes running a daemon pod that should not run it.'),
      desiredNumberScheduled: integer('Nodes that should run the daemon pod.'),
      numberReady: integer('Nodes whose daemon pod has a Ready condition.'),
      observedGeneration: int64('The generation the controller last acted on.'),
      updatedNumberScheduled: integer('Nodes running the current template.'),
      numberAvailable: integer('Nodes whose daemon pod is available.'),
      numberUnavailable: integer('Nodes whose daemon pod is not available.'),
      collisionCount: integer('Hash collisions met while naming the newest ControllerRevision.'),
      conditions: list(daemonSetCondition, 'Latest observations of the daemon set’s state.', { mergeKey: 'type', strategy: 'merge' }),
    },
    { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'] },
  ),
);

export const daemonSetSchema = define(
  'io.k8s.api.apps.v1.DaemonSet',
  object(
    'Runs a copy of a pod on every eligible node.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the daemon set.'),
      status: described(status, 'The most recently observed status of the daemon set.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'DaemonSet' }] },
  ),
);

export function defaultDaemonSet(obj: DaemonSet): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  if (!isRecord(s.updateStrategy)) s.updateStrategy = {};
  s.updateStrategy.type ||= 'RollingUpdate';
  if (s.updateStrategy.type === 'RollingUpdate') {
    if (!isRecord(s.updateStrategy.rollingUpdate)) s.updateStrategy.rollingUpdate = {};
    s.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    s.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  s.revisionHistoryLimit ??= 10;
  // Kubernetes decodes an absent template as an empty one, so its pod defaults always apply.
  defaultPodTemplateSpec((s.template ??= {}));
}

function validateUpdateStrategy(strat: NonNullable<DaemonSet['spec']>['updateStrategy']): FieldError[] {
  const path = 'spec.updateStrategy';
  const type = strat?.type ?? '';
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') return [fieldErrors.notSupported(path, strat ?? {}, UPDATE_STRATEGIES)];
  const ru = strat?.rollingUpdate;
  if (!ru) return [fieldErrors.required(`${path}.rollingUpdate`)];
  const unavailable = `${path}.rollingUpdate.maxUnavailable`;
  const surge = `${path}.rollingUpdate.maxSurge`;
  const errors = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, unavailable),
    ...validatePositiveIntOrPercent(ru.maxSurge, surge),
    ...validateAtMost100Percent(ru.maxUnavailable, unavailable),
    ...validateAtMost100Percent(ru.maxSurge, surge),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errors.push(fieldErrors.invalid(surge, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errors.push(fieldErrors.required(unavailable, 'cannot be 0 when maxSurge is 0'));
  return errors;
}

export function validateDaemonSet(obj: DaemonSet): FieldError[] {
  const s = obj.spec ?? {};
  // Kubernetes does not report an absent selector here: the template mismatch says it all.
  const errors = validateLabelSelector(s.selector, 'spec.selector');
  if (isUsableSelector(s.selector)) errors.push(...validateSelectsTemplate(s.selector, s.template));
  if (s.selector && isEmptySelector(s.selector)) errors.push(fieldErrors.invalid('spec.selector', s.selector, 'empty selector is invalid for daemonset'));
  return [
    ...errors,
    ...validatePodTemplateSpec(s.template ?? {}, 'spec.template'),
    ...validateAlwaysRestart(s.template, 'DaemonSet'),
    ...validateNonNegative(s.minReadySeconds, 'spec.minReadySeconds'),
    ...validateUpdateStrategy(s.updateStrategy),
    ...validateNonNegative(s.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

export function validateDaemonSetUpdate(obj: DaemonSet, old: DaemonSet): FieldError[] {
  return validateImmutable(obj.spec?.selector, old.spec?.selector, 'spec.selector');
}

function templateGeneration(obj: DaemonSet): number {
  return Number(obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION] ?? '0') || 0;
}

function setTemplateGeneration(obj: DaemonSet, generation: number): void {
  obj.metadata.annotations = { ...obj.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

const nodeSelectorColumn: PrinterColumn<DaemonSet> = {
  name: 'Node Selector',
  type: 'string',
  description: 'Node labels a node needs to run the daemon pod.',
  priority: 0,
  cell: (obj) => formatLabels(obj.spec?.template?.spec?.nodeSelector),
};

export const daemonSets = defineKind<DaemonSet>({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  resource: 'daemonsets',
  scope: 'namespace',
  shortNames: ['ds'],
  categories: ['all'],
  schema: daemonSetSchema,
  status: true,
  tracksGeneration: true,
  defaults: defaultDaemonSet,
  prepareForCreate: (obj) => {
    obj.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    setTemplateGeneration(obj, 1);
  },
  // The template generation is the server's: kept on update, bumped when the template changes.
  prepareForUpdate: (obj, old) => {
    const changed = !semanticEqual(obj.spec?.template, old.spec?.template);
    setTemplateGeneration(obj, templateGeneration(old) + (changed ? 1 : 0));
  },
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
  columns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: 'Nodes that should run the daemon pod.', priority: 0, cell: (obj) => count(obj.status?.desiredNumberScheduled) },
    { name: 'Current', type: 'integer', description: 'Nodes running the daemon pod.', priority: 0, cell: (obj) => count(obj.status?.currentNumberScheduled) },
    { name: 'Ready', type: 'integer', description: 'Nodes whose daemon pod is ready.', priority: 0, cell: (obj) => count(obj.status?.numberReady) },
    { name: 'Up-to-date', type: 'integer', description: 'Nodes running the current template.', priority: 0, cell: (obj) => count(obj.status?.updatedNumberScheduled) },
    { name: 'Available', type: 'integer', description: 'Nodes whose daemon pod is available.', priority: 0, cell: (obj) => count(obj.status?.numberAvailable) },
    nodeSelectorColumn,
    ageColumn,
    ...templateColumns<DaemonSet>((obj) => obj.spec?.template),
    selectorColumn<DaemonSet>((obj) => obj.spec?.selector),
  ],
});
