/**
 * policy/v1 PodDisruptionBudget: how many of a set of pods voluntary disruptions (evictions) may
 * take down at once. Kubernetes' behaviour: `pkg/apis/policy/validation`, `pkg/registry/policy/poddisruptionbudget`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { timeField } from '../../schema/meta.js';
import { define, described, enumOf, integer, int64, intOrString, list, map, object, ref, string } from '../../schema/schema.js';
import { validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { count, validateAtMost100Percent, validatePositiveIntOrPercent } from '../apps/workload.js';
import type { IntOrString } from '../core/types.js';

export interface PodDisruptionBudget extends KubeObject {
  spec?: {
    minAvailable?: IntOrString;
    selector?: LabelSelector;
    maxUnavailable?: IntOrString;
    unhealthyPodEvictionPolicy?: string;
  };
  status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number; [field: string]: unknown };
}

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

const spec = define(
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec',
  object('The pods a budget protects and how many must stay up.', {
    minAvailable: intOrString('Pods (a count or a percentage) that must still be available after an eviction.'),
    selector: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector'), 'The pods the budget covers; an empty selector covers the whole namespace, an absent one no pod.', {
      'x-kubernetes-patch-strategy': 'replace',
    }),
    maxUnavailable: intOrString('Pods (a count or a percentage) that may be unavailable after an eviction; excludes minAvailable.'),
    unhealthyPodEvictionPolicy: enumOf('When running but unhealthy pods may be evicted: IfHealthyBudget (the default) or AlwaysAllow.', EVICTION_POLICIES),
  }),
);

const status = define(
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus',
  object(
    'The observed state of a budget.',
    {
      observedGeneration: int64('The generation the disruption controller last acted on.'),
      disruptedPods: map(timeField('When the eviction was processed.'), 'Pods being evicted, not yet seen deleted by the controller.'),
      disruptionsAllowed: integer('Disruptions allowed right now.'),
      currentHealthy: integer('Healthy pods now.'),
      desiredHealthy: integer('Healthy pods wanted at least.'),
      expectedPods: integer('Pods the budget counts.'),
      conditions: list(ref('io.k8s.apimachinery.pkg.apis.meta.v1.Condition'), 'Latest observations, such as DisruptionAllowed.', { mergeKey: 'type', strategy: 'merge' }),
    },
    { required: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] },
  ),
);

export const podDisruptionBudgetSchema = define(
  'io.k8s.api.policy.v1.PodDisruptionBudget',
  object(
    'The most disruption voluntary evictions may cause to a set of pods.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired budget.'),
      status: described(status, 'The most recently observed status of the budget.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' }] },
  ),
);

export function validatePodDisruptionBudget(obj: PodDisruptionBudget): FieldError[] {
  const s = obj.spec ?? {};
  const errors: FieldError[] = [];
  if (s.minAvailable != null && s.maxUnavailable != null) errors.push(fieldErrors.invalid('spec', s, 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable'] as const) {
    if (s[key] != null) errors.push(...validatePositiveIntOrPercent(s[key], `spec.${key}`), ...validateAtMost100Percent(s[key], `spec.${key}`));
  }
  errors.push(...validateLabelSelector(s.selector, 'spec.selector'));
  const policy = s.unhealthyPodEvictionPolicy;
  if (policy != null && !EVICTION_POLICIES.includes(policy)) errors.push(fieldErrors.notSupported('spec.unhealthyPodEvictionPolicy', policy, EVICTION_POLICIES));
  return errors;
}

/** A bound as kubectl shows it, `N/A` when unset. */
function boundText(value: IntOrString | undefined): string {
  return value != null ? String(value) : 'N/A';
}

export const podDisruptionBudgets = defineKind<PodDisruptionBudget>({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  scope: 'namespace',
  shortNames: ['pdb'],
  schema: podDisruptionBudgetSchema,
  status: true,
  tracksGeneration: true,
  // Kubernetes: status updates of a budget are only allowed at the version read, so every PUT needs one.
  allowUnconditionalUpdate: false,
  prepareForCreate: (obj) => {
    obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  },
  validate: validatePodDisruptionBudget,
  columns: [
    nameColumn,
    { name: 'Min Available', type: 'string', description: 'Pods that must stay available.', priority: 0, cell: (obj) => boundText(obj.spec?.minAvailable) },
    { name: 'Max Unavailable', type: 'string', description: 'Pods that may be unavailable.', priority: 0, cell: (obj) => boundText(obj.spec?.maxUnavailable) },
    { name: 'Allowed Disruptions', type: 'integer', description: 'Disruptions allowed right now.', priority: 0, cell: (obj) => count(obj.status?.disruptionsAllowed) },
    ageColumn,
  ],
});
