/**
 * apps/v1 Deployment: declarative rollouts of a pod template through ReplicaSets. Kubernetes'
 * behaviour: `pkg/apis/apps/v1/defaults.go`, `pkg/apis/apps/validation`, `pkg/registry/apps/deployment`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { boolean, define, described, enumOf, integer, int64, intOrString, list, object, ref, string } from '../../schema/schema.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import type { IntOrString, PodTemplateSpec } from '../core/types.js';
import { validateReplicaSetTemplate } from './replicaset.js';
import {
  count,
  intOrPercentValue,
  isRecord,
  selectorColumn,
  selectorString,
  templateColumns,
  validateAtMost100Percent,
  validateControllerSelector,
  validateImmutable,
  validateNonNegative,
  validatePositiveIntOrPercent,
} from './workload.js';

export interface Deployment extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    collisionCount?: number;
  };
}

const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];

const deploymentCondition = define(
  'io.k8s.api.apps.v1.DeploymentCondition',
  object(
    'One observation of a deployment’s state.',
    {
      type: string('Condition type: Available, Progressing or ReplicaFailure.'),
      status: string('True, False or Unknown.'),
      lastUpdateTime: timeField('When the condition was last updated.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Machine-readable reason for the last transition.'),
      message: string('Human-readable details of the last transition.'),
    },
    { required: ['type', 'status'] },
  ),
);

const rollingUpdate = define(
  'io.k8s.api.apps.v1.RollingUpdateDeployment',
  object('How fast a rolling update replaces pods.', {
    maxUnavailable: intOrString('Pods that may be unavailable during the update: a count or a percentage of desired pods (rounded down). Defaults to 25%.'),
    maxSurge: intOrString('Pods that may exist above the desired count during the update: a count or a percentage (rounded up). Defaults to 25%.'),
  }),
);

const strategy = define(
  'io.k8s.api.apps.v1.DeploymentStrategy',
  object('How existing pods are replaced by new ones.', {
    type: enumOf('Recreate or RollingUpdate (the default).', STRATEGY_TYPES),
    rollingUpdate: described(rollingUpdate, 'Rolling update parameters; only with type RollingUpdate.'),
  }),
);

const spec = define(
  'io.k8s.api.apps.v1.DeploymentSpec',
  object(
    'The desired state of a deployment.',
    {
      replicas: integer('Desired number of pods. Defaults to 1.'),
      selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Label query over the pods of this deployment; must match the template’s labels. Immutable.'),
      template: described(ref('io.k8s.api.core.v1.PodTemplateSpec'), 'The pods to create. Only restartPolicy Always is allowed.'),
      strategy: described(strategy, 'How to replace existing pods with new ones.', { 'x-kubernetes-patch-strategy': 'retainKeys' }),
      minReadySeconds: integer('Seconds a new pod must be ready, without crashing, before it counts as available. Defaults to 0.'),
      revisionHistoryLimit: integer('Old ReplicaSets kept for rollback. Defaults to 10.'),
      paused: boolean('Whether the rollout is paused.'),
      progressDeadlineSeconds: integer('Seconds a rollout may make no progress before it is reported as failed. Defaults to 600.'),
    },
    { required: ['selector', 'template'] },
  ),
);

const status = define(
  'io.k8s.api.apps.v1.DeploymentStatus',
  object('The observed state of a deployment.', {
    observedGeneration: int64('The generation the controller last acted on.'),
    replicas: integer('Non-terminated pods targeted by this deployment.'),
    updatedReplicas: integer('Non-terminated pods that run the current template.'),
    readyReplicas: integer('Targeted pods with a Ready condition.'),
    availableReplicas: integer('Targeted pods ready for at least minReadySeconds.'),
    unavailableReplicas: integer('Pods still needed for the deployment to be fully available.'),
    conditions: list(deploymentCondition, 'Latest observations of the deployment’s state.', { mergeKey: 'type', strategy: 'merge' }),
    collisionCount: integer('Hash collisions met while naming the newest ReplicaSet.'),
  }),
);

export const deploymentSchema = define(
  'io.k8s.api.apps.v1.Deployment',
  object(
    'Declarative updates for pods and ReplicaSets.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the deployment.'),
      status: described(status, 'The most recently observed status of the deployment.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'apps', version: 'v1', kind: 'Deployment' }] },
  ),
);

export function defaultDeployment(obj: Deployment): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  s.replicas ??= 1;
  if (!isRecord(s.strategy)) s.strategy = {};
  s.strategy.type ||= 'RollingUpdate';
  if (s.strategy.type === 'RollingUpdate') {
    if (!isRecord(s.strategy.rollingUpdate)) s.strategy.rollingUpdate = {};
    s.strategy.rollingUpdate.maxUnavailable ??= '25%';
    s.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  s.revisionHistoryLimit ??= 10;
  s.progressDeadlineSeconds ??= 600;
  // Kubernetes decodes an absent template as an empty one, so its pod defaults always apply.
  defaultPodTemplateSpec((s.template ??= {}));
}

function validateStrategy(strat: NonNullable<Deployment['spec']>['strategy']): FieldError[] {
  const type = strat?.type ?? '';
  const ru = strat?.rollingUpdate;
  if (type === 'Recreate') {
    return ru ? [fieldErrors.forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type !== 'RollingUpdate') return [fieldErrors.notSupported('spec.strategy', strat ?? {}, STRATEGY_TYPES)];
  if (!ru) return [fieldErrors.required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil')];
  const path = 'spec.strategy.rollingUpdate';
  const errors = [...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`), ...validatePositiveIntOrPercent(ru.maxSurge, `${path}.maxSurge`)];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errors.push(fieldErrors.invalid(`${path}.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errors.push(...validateAtMost100Percent(ru.maxUnavailable, `${path}.maxUnavailable`));
  return errors;
}

export function validateDeployment(obj: Deployment): FieldError[] {
  const s = obj.spec ?? {};
  const errors = [
    ...validateNonNegative(s.replicas, 'spec.replicas'),
    ...validateControllerSelector(s.selector, 'deployment'),
    ...validateReplicaSetTemplate(s.selector, s.template),
    ...validateStrategy(s.strategy),
    ...validateNonNegative(s.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonNegative(s.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
  if (s.progressDeadlineSeconds != null) {
    errors.push(...validateNonNegative(s.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (s.progressDeadlineSeconds <= (s.minReadySeconds ?? 0)) {
      errors.push(fieldErrors.invalid('spec.progressDeadlineSeconds', s.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errors;
}

/** apps/v1 made the selector immutable (extensions/v1beta1 let it change). */
export function validateDeploymentUpdate(obj: Deployment, old: Deployment): FieldError[] {
  return validateImmutable(obj.spec?.selector, old.spec?.selector, 'spec.selector');
}

export const deployments = defineKind<Deployment>({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  resource: 'deployments',
  scope: 'namespace',
  shortNames: ['deploy'],
  categories: ['all'],
  schema: deploymentSchema,
  status: true,
  tracksGeneration: true,
  defaults: defaultDeployment,
  prepareForCreate: (obj) => {
    obj.status = {};
  },
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
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
    {
      name: 'Ready',
      type: 'string',
      description: 'Ready pods out of desired.',
      priority: 0,
      cell: (obj) => `${count(obj.status?.readyReplicas)}/${obj.spec?.replicas ?? 1}`,
    },
    { name: 'Up-to-date', type: 'string', description: 'Pods that run the current template.', priority: 0, cell: (obj) => count(obj.status?.updatedReplicas) },
    { name: 'Available', type: 'string', description: 'Pods available to serve.', priority: 0, cell: (obj) => count(obj.status?.availableReplicas) },
    ageColumn,
    ...templateColumns<Deployment>((obj) => obj.spec?.template),
    selectorColumn<Deployment>((obj) => obj.spec?.selector, selectorString),
  ],
});
