/**
 * The job spec rules Job and CronJob share (a cron job's template must pass them too), after
 * Kubernetes' `pkg/apis/batch/validation` (`validateJobSpec`).
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import { COMPLETION_MODES, EXIT_CODE_OPERATORS, POD_FAILURE_POLICY_ACTIONS, POD_REPLACEMENT_POLICIES } from '../../schema/batch-types.js';
import type { LabelSelector } from '../../validation/label-selector.js';
import { validateQualifiedName } from '../../validation/labels.js';
import { validateDomainPrefixedPath, validateNonNegative } from '../apps/workload.js';
import { validatePodTemplateSpec } from '../core/pod-spec-validation.js';
import type { PodTemplateSpec } from '../core/types.js';

export interface PodFailurePolicyRule {
  action?: string;
  onExitCodes?: { containerName?: string; operator?: string; values?: number[] };
  onPodConditions?: Array<{ type?: string; status?: string }>;
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: { rules?: PodFailurePolicyRule[] };
  successPolicy?: { rules?: Array<{ succeededIndexes?: string; succeededCount?: number }> };
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template?: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
  podReplacementPolicy?: string;
  managedBy?: string;
}

const MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_POD_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_POLICY_RULES = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

function tooMany(field: string, actual: number, max: number): FieldError {
  return fieldErrors.invalid(field, actual, `must have at most ${max} items`);
}

function quotedList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function validateExitCodes(req: NonNullable<PodFailurePolicyRule['onExitCodes']>, path: string, containerNames: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  const operator = req.operator ?? '';
  if (operator === '') errors.push(fieldErrors.required(`${path}.operator`, `valid values: ${quotedList(EXIT_CODE_OPERATORS)}`));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) errors.push(fieldErrors.notSupported(`${path}.operator`, operator, EXIT_CODE_OPERATORS));
  if (req.containerName != null && !containerNames.has(req.containerName)) {
    errors.push(fieldErrors.invalid(`${path}.containerName`, req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = req.values ?? [];
  if (values.length === 0) errors.push(fieldErrors.invalid(`${path}.values`, values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errors.push(tooMany(`${path}.values`, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  values.forEach((value, i) => {
    if (operator === 'In' && value === 0) errors.push(fieldErrors.invalid(`${path}.values[${i}]`, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errors.push(fieldErrors.duplicate(`${path}.values[${i}]`, value));
    seen.add(value);
  });
  if (values.some((v, i) => i > 0 && values[i - 1]! > v)) errors.push(fieldErrors.invalid(`${path}.values`, values, 'must be ordered'));
  return errors;
}

function validatePodFailurePolicy(spec: JobSpec, path: string): FieldError[] {
  const rules = spec.podFailurePolicy?.rules ?? [];
  const errors: FieldError[] = rules.length > MAX_POD_FAILURE_POLICY_RULES ? [tooMany(`${path}.rules`, rules.length, MAX_POD_FAILURE_POLICY_RULES)] : [];
  const podSpec = spec.template?.spec;
  const initContainers = Array.isArray(podSpec?.initContainers) ? (podSpec.initContainers as Array<{ name?: string }>) : [];
  const containerNames = new Set([...(podSpec?.containers ?? []), ...initContainers].map((c) => c.name ?? ''));
  rules.forEach((rule, i) => {
    const rulePath = `${path}.rules[${i}]`;
    const action = rule.action ?? '';
    if (action === '') errors.push(fieldErrors.required(`${rulePath}.action`, `valid values: ${quotedList(POD_FAILURE_POLICY_ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (spec.backoffLimitPerIndex == null) errors.push(fieldErrors.invalid(`${rulePath}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!POD_FAILURE_POLICY_ACTIONS.includes(action)) errors.push(fieldErrors.notSupported(`${rulePath}.action`, action, POD_FAILURE_POLICY_ACTIONS));
    if (rule.onExitCodes) errors.push(...validateExitCodes(rule.onExitCodes, `${rulePath}.onExitCodes`, containerNames));
    const patterns = rule.onPodConditions ?? [];
    if (patterns.length > MAX_POD_CONDITION_PATTERNS) errors.push(tooMany(`${rulePath}.onPodConditions`, patterns.length, MAX_POD_CONDITION_PATTERNS));
    patterns.forEach((pattern, j) => {
      const patternPath = `${rulePath}.onPodConditions[${j}]`;
      errors.push(...validateQualifiedName(pattern.type ?? '', `${patternPath}.type`));
      const status = pattern.status ?? '';
      if (status === '') errors.push(fieldErrors.required(`${patternPath}.status`, `valid values: ${quotedList(CONDITION_STATUSES)}`));
      else if (!CONDITION_STATUSES.includes(status)) errors.push(fieldErrors.notSupported(`${patternPath}.status`, status, CONDITION_STATUSES));
    });
    if (rule.onExitCodes && patterns.length > 0) errors.push(fieldErrors.invalid(rulePath, rule, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!rule.onExitCodes && patterns.length === 0) errors.push(fieldErrors.invalid(rulePath, rule, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errors;
}

function validateSuccessPolicy(spec: JobSpec, path: string): FieldError[] {
  const rules = spec.successPolicy?.rules ?? [];
  const errors: FieldError[] = [];
  if (rules.length === 0) errors.push(fieldErrors.required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errors.push(tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_POLICY_RULES));
  rules.forEach((rule, i) => {
    const rulePath = `${path}.rules[${i}]`;
    if (rule.succeededCount == null && rule.succeededIndexes == null) {
      errors.push(fieldErrors.required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
    }
    if (rule.succeededCount != null) {
      errors.push(...validateNonNegative(rule.succeededCount, `${rulePath}.succeededCount`));
      const completions = spec.completions ?? 0;
      if (rule.succeededCount > completions) {
        errors.push(fieldErrors.invalid(`${rulePath}.succeededCount`, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
      }
    }
  });
  return errors;
}

function validateRestartPolicy(spec: JobSpec, path: string): FieldError[] {
  const field = `${path}.template.spec.restartPolicy`;
  const policy = spec.template?.spec?.restartPolicy ?? '';
  if (policy === 'Always' || policy === '') return [fieldErrors.required(field, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [fieldErrors.notSupported(field, policy, ['OnFailure', 'Never'])];
  if (spec.podFailurePolicy && policy !== 'Never') return [fieldErrors.invalid(field, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/** Everything about a job spec except its selector (generated for jobs, forbidden in cron job templates). */
export function validateJobSpec(spec: JobSpec, path: string): FieldError[] {
  const errors = [
    ...validateNonNegative(spec.parallelism, `${path}.parallelism`),
    ...validateNonNegative(spec.completions, `${path}.completions`),
    ...validateNonNegative(spec.activeDeadlineSeconds, `${path}.activeDeadlineSeconds`),
    ...validateNonNegative(spec.backoffLimit, `${path}.backoffLimit`),
    ...validateNonNegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`),
    ...validateNonNegative(spec.backoffLimitPerIndex, `${path}.backoffLimitPerIndex`),
  ];
  if (spec.maxFailedIndexes != null) {
    errors.push(...validateNonNegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (spec.backoffLimitPerIndex == null) errors.push(fieldErrors.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (spec.managedBy != null) {
    errors.push(...validateDomainPrefixedPath(spec.managedBy, `${path}.managedBy`));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) errors.push(fieldErrors.tooLong(`${path}.managedBy`, MAX_MANAGED_BY_LENGTH));
  }
  const mode = spec.completionMode;
  if (mode != null && !COMPLETION_MODES.includes(mode)) errors.push(fieldErrors.notSupported(`${path}.completionMode`, mode, COMPLETION_MODES));
  if (mode === 'Indexed') {
    if (spec.completions == null) errors.push(fieldErrors.required(`${path}.completions`, 'when completion mode is Indexed'));
    if (spec.parallelism != null && spec.parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
      errors.push(fieldErrors.invalid(`${path}.parallelism`, spec.parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`));
    }
    if (spec.completions != null && spec.maxFailedIndexes != null && spec.maxFailedIndexes > spec.completions) {
      errors.push(fieldErrors.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'must be less than or equal to completions'));
    }
    if (spec.maxFailedIndexes != null && spec.maxFailedIndexes > MAX_FAILED_INDEXES) {
      errors.push(fieldErrors.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
    }
  } else {
    if (spec.backoffLimitPerIndex != null) errors.push(fieldErrors.invalid(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec.maxFailedIndexes != null) errors.push(fieldErrors.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (spec.podFailurePolicy) errors.push(...validatePodFailurePolicy(spec, `${path}.podFailurePolicy`));
  if (spec.successPolicy) {
    if (mode !== 'Indexed') errors.push(fieldErrors.invalid(`${path}.successPolicy`, spec.successPolicy, 'requires indexed completion mode'));
    else errors.push(...validateSuccessPolicy(spec, `${path}.successPolicy`));
  }
  const replacement = spec.podReplacementPolicy;
  if (replacement != null) {
    const allowed = spec.podFailurePolicy ? ['Failed'] : [...POD_REPLACEMENT_POLICIES].sort();
    if (!allowed.includes(replacement)) errors.push(fieldErrors.notSupported(`${path}.podReplacementPolicy`, replacement, allowed));
  }
  errors.push(...validatePodTemplateSpec(spec.template ?? {}, `${path}.template`), ...validateRestartPolicy(spec, path));
  return errors;
}
