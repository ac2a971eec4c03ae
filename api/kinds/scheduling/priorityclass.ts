/**
 * scheduling.k8s.io/v1 PriorityClass: a named pod priority. Space-scoped (cluster-scoped in
 * Kubernetes). Kubernetes' behaviour: `pkg/apis/scheduling/v1/defaults.go`, `pkg/apis/scheduling/validation`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, nameColumn } from '../../registry/resource-definition.js';
import { boolean, define, described, enumOf, integer, object, ref, string } from '../../schema/schema.js';
import { validateImmutable } from '../apps/workload.js';

export interface PriorityClass extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const SYSTEM_PREFIX = 'system-';
/** Higher values are reserved for the system classes. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

/** The classes Kubernetes itself defines, the only ones whose names may start with `system-`. */
export const SYSTEM_PRIORITY_CLASSES: ReadonlyArray<{ name: string; value: number }> = [
  { name: 'system-node-critical', value: 2_000_001_000 },
  { name: 'system-cluster-critical', value: 2_000_000_000 },
];

export const priorityClassSchema = define(
  'io.k8s.api.scheduling.v1.PriorityClass',
  object(
    'Maps a class name to a pod priority.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      value: integer('The priority of pods of this class; at most 1000000000 for user classes. Immutable.'),
      globalDefault: boolean('Whether pods naming no class get this one; one class at most.'),
      description: string('When to use this class.'),
      preemptionPolicy: enumOf('PreemptLowerPriority (the default) or Never. Immutable.', PREEMPTION_POLICIES),
    },
    { required: ['value'], 'x-kubernetes-group-version-kind': [{ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' }] },
  ),
);

/** Why a `system-` class is not one of the system's own, or undefined when it is. */
function systemClassProblem(obj: PriorityClass): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === obj.metadata.name);
  if (!known) return `${obj.metadata.name ?? ''} is not a known system priority class`;
  if (known.value !== obj.value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (obj.globalDefault) return `globalDefault of ${known.name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(obj: PriorityClass): FieldError[] {
  const errors: FieldError[] = [];
  if ((obj.metadata.name ?? '').startsWith(SYSTEM_PREFIX)) {
    const problem = systemClassProblem(obj);
    if (problem) errors.push(fieldErrors.forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
  } else if ((obj.value ?? 0) > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(fieldErrors.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = obj.preemptionPolicy;
  if (policy === '') errors.push(fieldErrors.required('preemptionPolicy'));
  else if (policy != null && !PREEMPTION_POLICIES.includes(policy)) errors.push(fieldErrors.notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  return errors;
}

export function validatePriorityClassUpdate(obj: PriorityClass, old: PriorityClass): FieldError[] {
  const errors: FieldError[] = obj.value !== old.value ? [fieldErrors.forbidden('value', 'may not be changed in an update.')] : [];
  return [...errors, ...validateImmutable(obj.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy')];
}

export const priorityClasses = defineKind<PriorityClass>({
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  scope: 'space',
  shortNames: ['pc'],
  schema: priorityClassSchema,
  defaults: (obj) => {
    obj.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
  columns: [
    nameColumn,
    { name: 'Value', type: 'integer', description: 'The priority of pods of the class.', priority: 0, cell: (obj) => obj.value ?? 0 },
    { name: 'Global-Default', type: 'boolean', description: 'Whether pods naming no class get this one.', priority: 0, cell: (obj) => obj.globalDefault ?? false },
    ageColumn,
    { name: 'PreemptionPolicy', type: 'string', description: 'Whether pods of the class may preempt lower-priority pods.', priority: 0, cell: (obj) => obj.preemptionPolicy ?? '' },
  ],
});
