/**
 * autoscaling/v2 HorizontalPodAutoscaler: scales a scalable object between bounds from metrics.
 * Kubernetes' behaviour: `pkg/apis/autoscaling/v2/defaults.go`, `pkg/apis/autoscaling/validation`,
 * `pkg/registry/autoscaling/horizontalpodautoscaler`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { define, described, enumOf, integer, int64, list, object, quantity, ref, string, type Schema } from '../../schema/schema.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { isValidPathSegmentName } from '../../validation/names.js';
import { isRecord } from '../apps/workload.js';

type Quantity = string | number;

export interface MetricTarget {
  type?: string;
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

interface ObjectReference {
  kind?: string;
  name?: string;
  apiVersion?: string;
}

interface MetricIdentifier {
  name?: string;
  selector?: LabelSelector;
}

export interface MetricSpec {
  type?: string;
  object?: { describedObject?: ObjectReference; target?: MetricTarget; metric?: MetricIdentifier };
  pods?: { metric?: MetricIdentifier; target?: MetricTarget };
  resource?: { name?: string; target?: MetricTarget };
  containerResource?: { name?: string; container?: string; target?: MetricTarget };
  external?: { metric?: MetricIdentifier; target?: MetricTarget };
}

interface MetricValueStatus {
  value?: Quantity;
  averageValue?: Quantity;
  averageUtilization?: number;
}

export interface MetricStatus {
  type?: string;
  object?: { current?: MetricValueStatus };
  pods?: { current?: MetricValueStatus };
  resource?: { current?: MetricValueStatus };
  containerResource?: { current?: MetricValueStatus };
  external?: { current?: MetricValueStatus };
}

export interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: Array<{ type?: string; value?: number; periodSeconds?: number }>;
}

export interface HorizontalPodAutoscaler extends KubeObject {
  spec?: {
    scaleTargetRef?: ObjectReference;
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: MetricSpec[];
    behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules };
  };
  status?: { currentReplicas?: number; desiredReplicas?: number; currentMetrics?: MetricStatus[]; [field: string]: unknown };
}

const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const METRIC_TARGET_TYPES = ['Utilization', 'Value', 'AverageValue'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const SCALING_POLICY_TYPES = ['Percent', 'Pods'];
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const MAX_PERIOD_SECONDS = 1800;
/** The metric an autoscaler without metrics scales on: 80% average CPU utilization. */
const DEFAULT_CPU_UTILIZATION = 80;

// ---- schema -------------------------------------------------------------------------------------

const crossVersionObjectReference = define(
  'io.k8s.api.autoscaling.v2.CrossVersionObjectReference',
  object(
    'Identifies an object in any API version.',
    {
      kind: string('Kind of the referent.'),
      name: string('Name of the referent.'),
      apiVersion: string('API version of the referent.'),
    },
    { required: ['kind', 'name'] },
  ),
);

const metricIdentifier = define(
  'io.k8s.api.autoscaling.v2.MetricIdentifier',
  object(
    'Names a metric, optionally narrowed by a label selector.',
    {
      name: string('Name of the metric.'),
      selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'Extra scoping passed to the metrics server.'),
    },
    { required: ['name'] },
  ),
);

const metricTarget = define(
  'io.k8s.api.autoscaling.v2.MetricTarget',
  object(
    'The value a metric should be kept at.',
    {
      type: enumOf('Utilization, Value or AverageValue.', METRIC_TARGET_TYPES),
      value: quantity('Target value of the metric.'),
      averageValue: quantity('Target average of the metric across the relevant pods.'),
      averageUtilization: integer('Target average utilization, as a percentage of the pods’ requests (resource metrics only).'),
    },
    { required: ['type'] },
  ),
);

const metricValueStatus = define(
  'io.k8s.api.autoscaling.v2.MetricValueStatus',
  object('The current value of a metric.', {
    value: quantity('Current value of the metric.'),
    averageValue: quantity('Current average of the metric across the relevant pods.'),
    averageUtilization: integer('Current average utilization, as a percentage of the pods’ requests.'),
  }),
);

/** A metric source or status schema with its fields all required, as Kubernetes publishes them. */
function metricPart(name: string, description: string, properties: Record<string, Schema>): Schema {
  return define(name, object(description, properties, { required: Object.keys(properties) }));
}

const v2 = (name: string): string => `io.k8s.api.autoscaling.v2.${name}`;
const targetField = described(metricTarget, 'The target value of the metric.');
const metricField = described(metricIdentifier, 'The metric, by name and selector.');
const currentField = described(metricValueStatus, 'The current value of the metric.');
const resourceName = string('Name of the resource, such as cpu or memory.');
const containerName = string('Name of the container in the pods of the scale target.');

const metricSpec = define(
  v2('MetricSpec'),
  object(
    'One metric to scale on: type plus the matching source.',
    {
      type: enumOf('ContainerResource, External, Object, Pods or Resource.', METRIC_SOURCE_TYPES),
      object: described(
        metricPart(v2('ObjectMetricSource'), 'A metric of a single object, such as requests per second on an Ingress.', {
          describedObject: described(crossVersionObjectReference, 'The object the metric describes.'),
          target: targetField,
          metric: metricField,
        }),
        'A metric describing a single object.',
      ),
      pods: described(
        metricPart(v2('PodsMetricSource'), 'A per-pod metric averaged over the scale target’s pods.', { metric: metricField, target: targetField }),
        'A metric of each pod.',
      ),
      resource: described(
        metricPart(v2('ResourceMetricSource'), 'A resource (cpu, memory) of each pod.', { name: resourceName, target: targetField }),
        'A resource metric of each pod.',
      ),
      containerResource: described(
        metricPart(v2('ContainerResourceMetricSource'), 'A resource of one container in each pod.', { name: resourceName, target: targetField, container: containerName }),
        'A resource metric of one container.',
      ),
      external: described(
        metricPart(v2('ExternalMetricSource'), 'A metric from outside the cluster, such as a queue length.', { metric: metricField, target: targetField }),
        'An external metric.',
      ),
    },
    { required: ['type'] },
  ),
);

const metricStatus = define(
  v2('MetricStatus'),
  object(
    'The last read value of one metric.',
    {
      type: enumOf('ContainerResource, External, Object, Pods or Resource.', METRIC_SOURCE_TYPES),
      object: described(
        metricPart(v2('ObjectMetricStatus'), 'Current value of an object metric.', {
          metric: metricField,
          current: currentField,
          describedObject: described(crossVersionObjectReference, 'The object the metric describes.'),
        }),
        'An object metric.',
      ),
      pods: described(metricPart(v2('PodsMetricStatus'), 'Current value of a per-pod metric.', { metric: metricField, current: currentField }), 'A pods metric.'),
      resource: described(metricPart(v2('ResourceMetricStatus'), 'Current value of a resource metric.', { name: resourceName, current: currentField }), 'A resource metric.'),
      containerResource: described(
        metricPart(v2('ContainerResourceMetricStatus'), 'Current value of a container resource metric.', { name: resourceName, current: currentField, container: containerName }),
        'A container resource metric.',
      ),
      external: described(metricPart(v2('ExternalMetricStatus'), 'Current value of an external metric.', { metric: metricField, current: currentField }), 'An external metric.'),
    },
    { required: ['type'] },
  ),
);

const scalingPolicy = define(
  v2('HPAScalingPolicy'),
  object(
    'A limit on how much scaling may happen within a period.',
    {
      type: enumOf('Pods (an absolute count) or Percent (of the current pods).', SCALING_POLICY_TYPES),
      value: integer('The change allowed; greater than zero.'),
      periodSeconds: integer('The window the policy applies to, 1 to 1800 seconds.'),
    },
    { required: ['type', 'value', 'periodSeconds'] },
  ),
);

const scalingRules = define(
  v2('HPAScalingRules'),
  object('Scaling behaviour in one direction.', {
    stabilizationWindowSeconds: integer('Seconds of past recommendations considered, 0 to 3600.'),
    selectPolicy: enumOf('Max (the default), Min or Disabled: which policy wins.', SELECT_POLICIES),
    policies: list(scalingPolicy, 'Limits on the scaling velocity; at least one.', { listType: 'atomic' }),
  }),
);

const behavior = define(
  v2('HorizontalPodAutoscalerBehavior'),
  object('Scaling behaviour up and down.', {
    scaleUp: described(scalingRules, 'Rules for scaling up. By default: 4 pods or 100% per 15 seconds, whichever is more, without stabilization.'),
    scaleDown: described(scalingRules, 'Rules for scaling down. By default: down to minReplicas, with a 300-second stabilization window.'),
  }),
);

const hpaCondition = define(
  v2('HorizontalPodAutoscalerCondition'),
  object(
    'One observation of an autoscaler’s state.',
    {
      type: string('Condition type: ScalingActive, AbleToScale or ScalingLimited.'),
      status: string('True, False or Unknown.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Machine-readable reason for the last transition.'),
      message: string('Human-readable details of the last transition.'),
    },
    { required: ['type', 'status'] },
  ),
);

const spec = define(
  v2('HorizontalPodAutoscalerSpec'),
  object(
    'What to scale, within which bounds, on which metrics.',
    {
      scaleTargetRef: described(crossVersionObjectReference, 'The object to scale; it must serve the scale subresource.'),
      minReplicas: integer('Lower bound on the replica count. Defaults to 1.'),
      maxReplicas: integer('Upper bound on the replica count; not below minReplicas.'),
      metrics: list(metricSpec, 'Metrics to scale on; the largest resulting replica count wins. Defaults to 80% average CPU.', { listType: 'atomic' }),
      behavior: described(behavior, 'Scaling behaviour up and down; defaults apply to each unset direction.'),
    },
    { required: ['scaleTargetRef', 'maxReplicas'] },
  ),
);

const status = define(
  v2('HorizontalPodAutoscalerStatus'),
  object(
    'The observed state of an autoscaler.',
    {
      observedGeneration: int64('The generation the autoscaler last acted on.'),
      lastScaleTime: timeField('When the autoscaler last changed the replica count.'),
      currentReplicas: integer('Replicas last seen by the autoscaler.'),
      desiredReplicas: integer('Replicas last computed by the autoscaler.'),
      currentMetrics: list(metricStatus, 'The last read values of the metrics.', { listType: 'atomic' }),
      conditions: list(hpaCondition, 'Latest observations of the autoscaler’s state.', { mergeKey: 'type', strategy: 'merge' }),
    },
    { required: ['desiredReplicas'] },
  ),
);

export const horizontalPodAutoscalerSchema = define(
  v2('HorizontalPodAutoscaler'),
  object(
    'Scales a workload’s replica count between bounds, following metrics.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the autoscaler.'),
      status: described(status, 'The current state of the autoscaler.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }] },
  ),
);

// ---- defaults -------------------------------------------------------------------------------------

const SCALE_UP_DEFAULTS: Required<ScalingRules> = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};

const SCALE_DOWN_DEFAULTS: Required<ScalingRules> = {
  stabilizationWindowSeconds: 300,
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
};

/** Unset fields of one direction's rules take the direction's defaults. */
function withRuleDefaults(rules: ScalingRules | undefined, defaults: Required<ScalingRules>): ScalingRules {
  const given: ScalingRules = isRecord(rules) ? rules : {};
  return {
    stabilizationWindowSeconds: given.stabilizationWindowSeconds ?? defaults.stabilizationWindowSeconds,
    selectPolicy: given.selectPolicy ?? defaults.selectPolicy,
    policies: given.policies ?? structuredClone(defaults.policies),
  };
}

export function defaultHorizontalPodAutoscaler(obj: HorizontalPodAutoscaler): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  s.minReplicas ??= 1;
  if (!s.metrics || s.metrics.length === 0) {
    s.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  // Behavior is defaulted only when present: its absence means "the controller's defaults".
  if (isRecord(s.behavior)) {
    s.behavior.scaleUp = withRuleDefaults(s.behavior.scaleUp, SCALE_UP_DEFAULTS);
    s.behavior.scaleDown = withRuleDefaults(s.behavior.scaleDown, SCALE_DOWN_DEFAULTS);
  }
}

// ---- validation -----------------------------------------------------------------------------------

/** The sign of a quantity such as `500m`, `-1` or `0.5Gi` (0 for zero or for text that is not one). */
function quantitySign(value: Quantity): number {
  const number = Number(/^[+-]?(\d+\.?\d*|\.\d+)/.exec(String(value).trim())?.[0] ?? 0);
  return Math.sign(number);
}

function validateObjectReference(ref: ObjectReference | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['kind', 'name'] as const) {
    const value = ref?.[key] ?? '';
    if (value === '') errors.push(fieldErrors.required(`${path}.${key}`));
    else errors.push(...isValidPathSegmentName(value).map((msg) => fieldErrors.invalid(`${path}.${key}`, value, msg)));
  }
  return errors;
}

function validateMetricIdentifier(id: MetricIdentifier | undefined, path: string): FieldError[] {
  const name = id?.name ?? '';
  if (name === '') return [fieldErrors.required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldErrors.invalid(`${path}.name`, name, msg));
}

function validateMetricTarget(target: MetricTarget | undefined, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = target?.type ?? '';
  if (type === '') errors.push(fieldErrors.required(`${path}.type`, 'must specify a metric target type'));
  if (!METRIC_TARGET_TYPES.includes(type)) errors.push(fieldErrors.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  if (target?.value != null && quantitySign(target.value) !== 1) errors.push(fieldErrors.invalid(`${path}.value`, target.value, 'must be positive'));
  if (target?.averageValue != null && quantitySign(target.averageValue) !== 1) errors.push(fieldErrors.invalid(`${path}.averageValue`, target.averageValue, 'must be positive'));
  if (target?.averageUtilization != null && target.averageUtilization < 1) {
    errors.push(fieldErrors.invalid(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  }
  return errors;
}

/** Resource metrics aim at a utilization or an average value, not both. */
function validateResourceTarget(target: MetricTarget | undefined, path: string): FieldError[] {
  const errors = validateMetricTarget(target, `${path}.target`);
  if (target?.averageUtilization == null && target?.averageValue == null) {
    errors.push(fieldErrors.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
  }
  if (target?.averageUtilization != null && target.averageValue != null) {
    errors.push(fieldErrors.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errors;
}

const SOURCE_FIELDS = ['object', 'pods', 'resource', 'containerResource', 'external'] as const;

/** The source field that belongs to each metric type. */
const SOURCE_OF_TYPE: Record<string, (typeof SOURCE_FIELDS)[number]> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  ContainerResource: 'containerResource',
  External: 'external',
};

function validateSource(spec: MetricSpec, source: (typeof SOURCE_FIELDS)[number], path: string): FieldError[] {
  switch (source) {
    case 'object': {
      const src = spec.object!;
      const errors = [
        ...validateObjectReference(src.describedObject, `${path}.describedObject`),
        ...validateMetricIdentifier(src.metric, `${path}.metric`),
        ...validateMetricTarget(src.target, `${path}.target`),
      ];
      if (src.target?.value == null && src.target?.averageValue == null) {
        errors.push(fieldErrors.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
      }
      return errors;
    }
    case 'pods': {
      const src = spec.pods!;
      const errors = [...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(src.target, `${path}.target`)];
      if (src.target?.averageValue == null) errors.push(fieldErrors.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
      return errors;
    }
    case 'resource': {
      const src = spec.resource!;
      const errors = src.name ? [] : [fieldErrors.required(`${path}.name`, 'must specify a resource name')];
      return [...errors, ...validateResourceTarget(src.target, path)];
    }
    case 'containerResource': {
      const src = spec.containerResource!;
      const errors = src.name ? [] : [fieldErrors.required(`${path}.name`, 'must specify a resource name')];
      if (!src.container) errors.push(fieldErrors.required(`${path}.container`, 'must specify a container'));
      return [...errors, ...validateResourceTarget(src.target, path)];
    }
    case 'external': {
      const src = spec.external!;
      const errors = [...validateMetricIdentifier(src.metric, `${path}.metric`), ...validateMetricTarget(src.target, `${path}.target`)];
      if (src.target?.value == null && src.target?.averageValue == null) {
        errors.push(fieldErrors.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
      }
      if (src.target?.value != null && src.target.averageValue != null) {
        errors.push(fieldErrors.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
      }
      return errors;
    }
  }
}

function validateMetricSpec(spec: MetricSpec, path: string): FieldError[] {
  const type = spec.type ?? '';
  const errors: FieldError[] = [];
  if (type === '') errors.push(fieldErrors.required(`${path}.type`, 'must specify a metric source type'));
  const expected = SOURCE_OF_TYPE[type];
  if (!expected) errors.push(fieldErrors.notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  const present = SOURCE_FIELDS.filter((f) => spec[f] != null);
  // Only the first source given is checked in depth; extra ones are refused below.
  if (present[0]) errors.push(...validateSource(spec, present[0], `${path}.${present[0]}`));
  if (expected && spec[expected] == null) errors.push(fieldErrors.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (present.length > 1) {
    for (const extra of present.filter((f) => f !== expected)) errors.push(fieldErrors.forbidden(`${path}.${extra}`, 'must populate the given metric source only'));
  }
  return errors;
}

function validateScalingRules(rules: ScalingRules | undefined, path: string): FieldError[] {
  if (!rules) return [];
  const errors: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window != null && window < 0) errors.push(fieldErrors.invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (window != null && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errors.push(fieldErrors.invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy != null && !SELECT_POLICIES.includes(rules.selectPolicy)) {
    errors.push(fieldErrors.notSupported(`${path}.selectPolicy`, rules.selectPolicy, SELECT_POLICIES));
  }
  const policies = rules.policies ?? [];
  if (policies.length === 0) errors.push(fieldErrors.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((policy, i) => {
    const p = `${path}.policies[${i}]`;
    if (!SCALING_POLICY_TYPES.includes(policy.type ?? '')) errors.push(fieldErrors.notSupported(`${p}.type`, policy.type ?? '', SCALING_POLICY_TYPES));
    if ((policy.value ?? 0) <= 0) errors.push(fieldErrors.invalid(`${p}.value`, policy.value ?? 0, 'must be greater than zero'));
    const period = policy.periodSeconds ?? 0;
    if (period <= 0) errors.push(fieldErrors.invalid(`${p}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errors.push(fieldErrors.invalid(`${p}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errors;
}

export function validateHorizontalPodAutoscaler(obj: HorizontalPodAutoscaler): FieldError[] {
  const s = obj.spec ?? {};
  const errors: FieldError[] = [];
  if (s.minReplicas != null && s.minReplicas < 1) errors.push(fieldErrors.invalid('spec.minReplicas', s.minReplicas, 'must be greater than or equal to 1'));
  const max = s.maxReplicas ?? 0;
  if (max < 1) errors.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (s.minReplicas != null && max < s.minReplicas) errors.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  // As in Kubernetes, metrics are checked once the target is valid, and behavior once the metrics are.
  const refErrors = validateObjectReference(s.scaleTargetRef, 'spec.scaleTargetRef');
  if (refErrors.length > 0) return [...errors, ...refErrors];
  const metricErrors = (s.metrics ?? []).flatMap((m, i) => validateMetricSpec(m, `spec.metrics[${i}]`));
  if (metricErrors.length > 0) return [...errors, ...metricErrors];
  return [...errors, ...validateScalingRules(s.behavior?.scaleUp, 'spec.behavior.scaleUp'), ...validateScalingRules(s.behavior?.scaleDown, 'spec.behavior.scaleDown')];
}

// ---- printing -------------------------------------------------------------------------------------

function quantityText(value: Quantity | undefined): string {
  return value == null ? '<unknown>' : String(value);
}

/** One TARGETS entry: `current/target`, with the resource name for resource metrics. */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const target = (spec.type === 'External' ? spec.external : spec.object)?.target;
      const current = (spec.type === 'External' ? status?.external : status?.object)?.current;
      if (target?.averageValue != null) return `${quantityText(current?.averageValue)}/${String(target.averageValue)} (avg)`;
      return `${current ? quantityText(current.value) : '<unknown>'}/${quantityText(target?.value)}`;
    }
    case 'Pods':
      return `${quantityText(status?.pods?.current?.averageValue)}/${quantityText(spec.pods?.target?.averageValue)}`;
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const current = (spec.type === 'Resource' ? status?.resource : status?.containerResource)?.current;
      const target = source?.target;
      if (target?.averageValue != null) return `${source?.name ?? ''}: ${quantityText(current?.averageValue)}/${String(target.averageValue)}`;
      const now = current?.averageUtilization != null ? `${current.averageUtilization}%` : '<unknown>';
      const want = target?.averageUtilization != null ? `${target.averageUtilization}%` : '<auto>';
      return `${source?.name ?? ''}: ${now}/${want}`;
    }
    default:
      return '<unknown type>';
  }
}

/** The TARGETS column: the first two metrics, then a count of the rest. */
export function formatMetrics(obj: HorizontalPodAutoscaler): string {
  const specs = obj.spec?.metrics ?? [];
  if (specs.length === 0) return '<none>';
  const statuses = obj.status?.currentMetrics ?? [];
  const shown = specs.slice(0, 2).map((spec, i) => formatMetric(spec, statuses[i]));
  const text = shown.join(', ');
  return specs.length > 2 ? `${text} + ${specs.length - 2} more...` : text;
}

export const horizontalPodAutoscalers = defineKind<HorizontalPodAutoscaler>({
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  scope: 'namespace',
  shortNames: ['hpa'],
  categories: ['all'],
  schema: horizontalPodAutoscalerSchema,
  status: true,
  defaults: defaultHorizontalPodAutoscaler,
  prepareForCreate: (obj) => {
    obj.status = { desiredReplicas: 0 };
  },
  validate: validateHorizontalPodAutoscaler,
  columns: [
    nameColumn,
    {
      name: 'Reference',
      type: 'string',
      description: 'The object being scaled.',
      priority: 0,
      cell: (obj) => `${obj.spec?.scaleTargetRef?.kind ?? ''}/${obj.spec?.scaleTargetRef?.name ?? ''}`,
    },
    { name: 'Targets', type: 'string', description: 'Current and target values of the metrics.', priority: 0, cell: formatMetrics },
    {
      name: 'MinPods',
      type: 'string',
      description: 'Lower bound on the replica count.',
      priority: 0,
      cell: (obj) => (obj.spec?.minReplicas != null ? String(obj.spec.minReplicas) : '<unset>'),
    },
    { name: 'MaxPods', type: 'string', description: 'Upper bound on the replica count.', priority: 0, cell: (obj) => obj.spec?.maxReplicas ?? 0 },
    { name: 'Replicas', type: 'string', description: 'Replicas last seen by the autoscaler.', priority: 0, cell: (obj) => obj.status?.currentReplicas ?? 0 },
    ageColumn,
  ],
});
