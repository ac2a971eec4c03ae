/**
 * batch/v1 Job: pods that run to completion. The server generates the job's selector and pod
 * labels from its uid unless `manualSelector` is set. Kubernetes' behaviour:
 * `pkg/apis/batch/v1/defaults.go`, `pkg/apis/batch/validation`, `pkg/registry/batch/job/strategy.go`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, humanDuration, nameColumn, type PrinterColumn } from '../../registry/resource-definition.js';
import { jobSpecSchema } from '../../schema/batch-types.js';
import { timeField } from '../../schema/meta.js';
import { define, described, integer, list, object, ref, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { labelSelectorMatches, validateLabelSelector, type LabelSelector } from '../../validation/label-selector.js';
import { isDNS1123Label } from '../../validation/names.js';
import { count, isRecord, isUsableSelector, selectorColumn, templateColumns, validateImmutable, validateSelectsTemplate } from '../apps/workload.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import type { PodTemplateSpec } from '../core/types.js';
import { validateJobSpec, type JobSpec } from './job-spec.js';

export interface JobCondition {
  type?: string;
  status?: string;
}

export interface Job extends KubeObject {
  spec?: JobSpec;
  status?: {
    conditions?: JobCondition[];
    startTime?: string;
    completionTime?: string;
    active?: number;
    succeeded?: number;
    failed?: number;
    [field: string]: unknown;
  };
}

/** Labels the server puts on a job's pods; the unprefixed ones are kept for older clients. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';

const jobCondition = define(
  'io.k8s.api.batch.v1.JobCondition',
  object(
    'One observation of a job’s state.',
    {
      type: string('Condition type: Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.'),
      status: string('True, False or Unknown.'),
      lastProbeTime: timeField('When the condition was last checked.'),
      lastTransitionTime: timeField('When the condition last changed status.'),
      reason: string('Machine-readable reason for the last transition.'),
      message: string('Human-readable details of the last transition.'),
    },
    { required: ['type', 'status'] },
  ),
);

const uncountedTerminatedPods = define(
  'io.k8s.api.batch.v1.UncountedTerminatedPods',
  object('Finished pods the controller has not yet counted.', {
    succeeded: list(string('A pod uid.'), 'Uids of succeeded pods.', { listType: 'set' }),
    failed: list(string('A pod uid.'), 'Uids of failed pods.', { listType: 'set' }),
  }),
);

const status = define(
  'io.k8s.api.batch.v1.JobStatus',
  object('The observed state of a job.', {
    conditions: list(jobCondition, 'Latest observations of the job’s state.', { mergeKey: 'type', strategy: 'merge', listType: 'atomic' }),
    startTime: timeField('When the controller started the job.'),
    completionTime: timeField('When the job completed successfully.'),
    active: integer('Pending and running pods that are not terminating.'),
    succeeded: integer('Pods that reached phase Succeeded.'),
    failed: integer('Pods that reached phase Failed.'),
    terminating: integer('Pods that are terminating.'),
    completedIndexes: string('Completed indexes of an indexed job, as intervals such as "1,3-5,7".'),
    failedIndexes: string('Failed indexes of an indexed job with backoffLimitPerIndex.'),
    uncountedTerminatedPods: described(uncountedTerminatedPods, 'Finished pods not yet counted in the status.'),
    ready: integer('Active pods with a Ready condition.'),
  }),
);

export const jobSchema = define(
  'io.k8s.api.batch.v1.Job',
  object(
    'Pods that run until a number of them succeed.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(jobSpecSchema, 'The desired behaviour of the job.'),
      status: described(status, 'The current status of the job.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'batch', version: 'v1', kind: 'Job' }] },
  ),
);

export function defaultJob(obj: Job): void {
  const s: JobSpec = isRecord(obj.spec) ? obj.spec : (obj.spec = {});
  // A job with neither count set runs one pod once.
  if (s.completions == null && s.parallelism == null) s.completions = 1;
  s.parallelism ??= 1;
  s.backoffLimit ??= s.backoffLimitPerIndex != null ? 2147483647 : 6;
  copyTemplateLabels(obj);
  s.completionMode ??= 'NonIndexed';
  s.suspend ??= false;
  for (const rule of s.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) pattern.status ||= 'True';
  }
  s.podReplacementPolicy ??= s.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  // Kubernetes decodes an absent template as an empty one, so its pod defaults always apply.
  defaultPodTemplateSpec((s.template ??= {}));
}

/** A job without labels of its own takes its pods' labels. */
function copyTemplateLabels(obj: Job): void {
  const labels = obj.spec?.template?.metadata?.labels;
  if (labels && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...labels };
}

/** Gives the pods labels unique to this job (its uid) and selects them by that uid. */
function generateSelector(obj: Job): void {
  const s: JobSpec = isRecord(obj.spec) ? obj.spec : (obj.spec = {});
  const template: PodTemplateSpec = isRecord(s.template) ? s.template : (s.template = {});
  const meta: NonNullable<PodTemplateSpec['metadata']> = isRecord(template.metadata) ? template.metadata : (template.metadata = {});
  const labels: Record<string, string> = (meta.labels ??= {});
  const name = obj.metadata.name ?? '';
  const uid = obj.metadata.uid ?? '';
  // Labels the client set are kept; a conflicting value fails validation.
  labels[LEGACY_JOB_NAME_LABEL] ??= name;
  labels[JOB_NAME_LABEL] ??= name;
  labels[LEGACY_CONTROLLER_UID_LABEL] ??= uid;
  labels[CONTROLLER_UID_LABEL] ??= uid;
  const selector: LabelSelector = isRecord(s.selector) ? s.selector : (s.selector = {});
  const matchLabels: Record<string, string> = (selector.matchLabels ??= {});
  matchLabels[CONTROLLER_UID_LABEL] ??= uid;
}

export function prepareJobForCreate(obj: Job): void {
  if (obj.spec?.manualSelector !== true) generateSelector(obj);
  obj.status = {};
  // Kubernetes defaults labels again when it reads the job back, so they include the generated ones.
  copyTemplateLabels(obj);
}

function validateHasLabel(labels: Record<string, string> | undefined, key: string, expected: string): FieldError[] {
  const field = `spec.template.metadata.labels[${key}]`;
  const actual = labels?.[key];
  if (actual === undefined) return [fieldErrors.required(field, expected)];
  return actual === expected ? [] : [fieldErrors.invalid(field, labels, `must be '${expected}'`)];
}

/** With a generated selector, the pod labels and the selector must be the generated ones. */
function validateGeneratedSelector(obj: Job): FieldError[] {
  const s = obj.spec ?? {};
  if (s.manualSelector === true || !s.selector) return [];
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  const labels = s.template?.metadata?.labels;
  const errors: FieldError[] = uid === '' ? [fieldErrors.required('metadata.uid')] : [];
  const expected: Record<string, string> = {
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
  };
  for (const [key, value] of Object.entries(expected)) errors.push(...validateHasLabel(labels, key, value));
  if (!labelSelectorMatches(s.selector, expected)) errors.push(fieldErrors.invalid('spec.selector', s.selector, '`selector` not auto-generated'));
  return errors;
}

export function validateJob(obj: Job): FieldError[] {
  const s = obj.spec ?? {};
  const errors = [...validateGeneratedSelector(obj), ...validateJobSpec(s, 'spec')];
  errors.push(...(s.selector ? validateLabelSelector(s.selector, 'spec.selector') : [fieldErrors.required('spec.selector')]));
  if (isUsableSelector(s.selector)) errors.push(...validateSelectsTemplate(s.selector, s.template));
  if (s.completionMode === 'Indexed' && s.completions != null && s.completions > 0) {
    // Pods of an indexed job are named <job>-<index>, which must stay a DNS label.
    const hostname = `${obj.metadata.name ?? ''}-${s.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errors.push(fieldErrors.invalid('metadata.name', obj.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errors;
}

/**
 * The old template with the fields a suspended job that never started may still change (where its
 * pods will run, and their labels) taken from the new one, so only the other fields are compared.
 */
function withSchedulingDirectivesOf(old: PodTemplateSpec | undefined, next: PodTemplateSpec | undefined): PodTemplateSpec | undefined {
  if (!old) return old;
  const affinity: Record<string, unknown> = { ...old.spec?.affinity, nodeAffinity: next?.spec?.affinity?.nodeAffinity };
  if (affinity.nodeAffinity === undefined) delete affinity.nodeAffinity;
  return {
    ...old,
    metadata: { ...old.metadata, labels: next?.metadata?.labels, annotations: next?.metadata?.annotations },
    spec: {
      ...old.spec,
      affinity,
      nodeSelector: next?.spec?.nodeSelector,
      tolerations: next?.spec?.tolerations,
      schedulingGates: next?.spec?.schedulingGates,
    },
  };
}

export function validateJobUpdate(obj: Job, old: Job): FieldError[] {
  const s = obj.spec ?? {};
  const o = old.spec ?? {};
  const errors: FieldError[] = [];
  if (s.completionMode !== 'Indexed') {
    errors.push(...validateImmutable(s.completions, o.completions, 'spec.completions'));
  } else if (s.completions != null && !semanticEqual(s.completions, o.completions) && s.completions !== s.parallelism) {
    errors.push(fieldErrors.invalid('spec.completions', s.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  errors.push(...validateImmutable(s.selector, o.selector, 'spec.selector'));
  const suspendedNeverStarted = o.suspend === true && old.status?.startTime == null;
  const oldTemplate = suspendedNeverStarted ? withSchedulingDirectivesOf(o.template, s.template) : o.template;
  errors.push(...validateImmutable(s.template, oldTemplate, 'spec.template'));
  errors.push(
    ...validateImmutable(s.completionMode, o.completionMode, 'spec.completionMode'),
    ...validateImmutable(s.podFailurePolicy, o.podFailurePolicy, 'spec.podFailurePolicy'),
    ...validateImmutable(s.backoffLimitPerIndex, o.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'),
    ...validateImmutable(s.managedBy, o.managedBy, 'spec.managedBy'),
    ...validateImmutable(s.successPolicy, o.successPolicy, 'spec.successPolicy'),
  );
  return errors;
}

function conditionTrue(obj: Job, type: string): boolean {
  return (obj.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** The STATUS column: a finished state wins over a deletion in progress, which wins over the rest. */
export function jobStatus(obj: Job): string {
  if (conditionTrue(obj, 'Complete')) return 'Complete';
  if (conditionTrue(obj, 'Failed')) return 'Failed';
  if (obj.metadata.deletionTimestamp) return 'Terminating';
  if (conditionTrue(obj, 'Suspended')) return 'Suspended';
  if (conditionTrue(obj, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** `succeeded/completions`; without completions, `n/1`, or `n/1 of p` when running in parallel. */
export function jobCompletions(obj: Job): string {
  const succeeded = count(obj.status?.succeeded);
  if (obj.spec?.completions != null) return `${succeeded}/${obj.spec.completions}`;
  const parallelism = obj.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

export function jobDuration(obj: Job, now: number): string {
  const start = obj.status?.startTime ? Date.parse(obj.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = obj.status?.completionTime ? Date.parse(obj.status.completionTime) : now;
  return humanDuration(end - start);
}

const jobColumns: PrinterColumn<Job>[] = [
  nameColumn,
  { name: 'Status', type: 'string', description: 'Status of the job.', priority: 0, cell: jobStatus },
  { name: 'Completions', type: 'string', description: 'Succeeded pods out of the completions needed.', priority: 0, cell: jobCompletions },
  { name: 'Duration', type: 'string', description: 'How long the job ran, or has been running.', priority: 0, cell: jobDuration },
  ageColumn,
  ...templateColumns<Job>((obj) => obj.spec?.template),
  selectorColumn<Job>((obj) => obj.spec?.selector),
];

export const jobs = defineKind<Job>({
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  resource: 'jobs',
  scope: 'namespace',
  categories: ['all'],
  schema: jobSchema,
  status: true,
  tracksGeneration: true,
  defaults: defaultJob,
  prepareForCreate: prepareJobForCreate,
  validate: validateJob,
  validateUpdate: validateJobUpdate,
  // Kubernetes keeps a batch/v1 Job's pods by default, for backward compatibility.
  garbageCollectionPolicy: 'OrphanDependents',
  columns: jobColumns,
  selectableFields: { 'status.successful': (obj) => String(count(obj.status?.succeeded)) },
});
