/**
 * batch/v1 CronJob: creates a Job from a template on a cron schedule. Kubernetes' behaviour:
 * `pkg/apis/batch/v1/defaults.go`, `pkg/apis/batch/validation`, `pkg/registry/batch/cronjob`.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, humanAge, nameColumn } from '../../registry/resource-definition.js';
import { jobTemplateSpecSchema } from '../../schema/batch-types.js';
import { timeField } from '../../schema/meta.js';
import { boolean, define, described, enumOf, integer, int64, list, object, ref, string } from '../../schema/schema.js';
import { maxLenError } from '../../validation/names.js';
import { isRecord, selectorColumn, templateColumns, validateNonNegative } from '../apps/workload.js';
import { defaultPodTemplateSpec } from '../core/pod-spec-defaults.js';
import { cronScheduleError } from './cron-schedule.js';
import { validateJobSpec, type JobSpec } from './job-spec.js';

export interface CronJob extends KubeObject {
  spec?: {
    schedule?: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    jobTemplate?: { metadata?: Record<string, unknown>; spec?: JobSpec };
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
  };
  status?: { active?: unknown[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

/** The controller names jobs `<cronjob>-<11-character timestamp>`, and job names are DNS-1035 labels. */
const MAX_CRONJOB_NAME_LENGTH = 63 - 11;

const spec = define(
  'io.k8s.api.batch.v1.CronJobSpec',
  object(
    'When and what a cron job runs.',
    {
      schedule: string('The schedule in cron format, e.g. "*/5 * * * *".'),
      timeZone: string('IANA time zone of the schedule, e.g. "Europe/Paris"; the controller manager’s zone when unset.'),
      startingDeadlineSeconds: int64('Seconds after a missed start time during which the job may still start.'),
      concurrencyPolicy: enumOf('Allow (the default), Forbid or Replace: what to do when the previous run has not finished.', CONCURRENCY_POLICIES),
      suspend: boolean('Whether later runs are held off. Defaults to false.'),
      jobTemplate: described(jobTemplateSpecSchema, 'The job to create at each scheduled time.'),
      successfulJobsHistoryLimit: integer('Finished successful jobs kept. Defaults to 3.'),
      failedJobsHistoryLimit: integer('Failed jobs kept. Defaults to 1.'),
    },
    { required: ['schedule', 'jobTemplate'] },
  ),
);

const status = define(
  'io.k8s.api.batch.v1.CronJobStatus',
  object('The observed state of a cron job.', {
    active: list(ref('io.k8s.api.core.v1.ObjectReference'), 'The jobs currently running.', { listType: 'atomic' }),
    lastScheduleTime: timeField('When a job was last scheduled.'),
    lastSuccessfulTime: timeField('When a job last completed successfully.'),
  }),
);

export const cronJobSchema = define(
  'io.k8s.api.batch.v1.CronJob',
  object(
    'Runs a job on a schedule.',
    {
      apiVersion: string('Versioned schema of this representation of the object.'),
      kind: string('REST resource this object represents.'),
      metadata: described(ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'Standard object metadata.'),
      spec: described(spec, 'The desired behaviour of the cron job, including its schedule.'),
      status: described(status, 'The current status of the cron job.'),
    },
    { 'x-kubernetes-group-version-kind': [{ group: 'batch', version: 'v1', kind: 'CronJob' }] },
  ),
);

export function defaultCronJob(obj: CronJob): void {
  if (!isRecord(obj.spec)) obj.spec = {};
  const s = obj.spec;
  s.concurrencyPolicy ||= 'Allow';
  s.suspend ??= false;
  s.successfulJobsHistoryLimit ??= 3;
  s.failedJobsHistoryLimit ??= 1;
  // Only the pod template is defaulted: job defaults apply to the jobs created from it.
  const jobTemplate = (s.jobTemplate ??= {});
  defaultPodTemplateSpec(((jobTemplate.spec ??= {}).template ??= {}));
}

/** Characters of one path part of an IANA zone name; digits and '+' are tolerated for legacy names. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function validateTimeZone(zone: string | undefined, field: string): FieldError[] {
  if (zone == null) return [];
  if (zone === '') return [fieldErrors.invalid(field, zone, 'timeZone must be nil or non-empty string')];
  const malformed = zone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part));
  if (malformed) return [fieldErrors.invalid(field, zone, `unknown time zone ${zone}`)];
  if (zone.toLowerCase() === 'local') return [fieldErrors.invalid(field, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  return isKnownTimeZone(zone) ? [] : [fieldErrors.invalid(field, zone, `unknown time zone ${zone}`)];
}

function validateSchedule(schedule: string | undefined): FieldError[] {
  const field = 'spec.schedule';
  if (!schedule) return [fieldErrors.required(field)];
  const errors: FieldError[] = [];
  const problem = cronScheduleError(schedule);
  if (problem) errors.push(fieldErrors.invalid(field, schedule, problem));
  if (schedule.includes('TZ')) {
    errors.push(fieldErrors.invalid(field, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errors;
}

/** A cron job's job template: a valid job spec whose selector the server will generate. */
function validateJobTemplate(template: NonNullable<CronJob['spec']>['jobTemplate']): FieldError[] {
  const jobSpec = template?.spec ?? {};
  const errors = validateJobSpec(jobSpec, 'spec.jobTemplate.spec');
  if (jobSpec.selector) errors.push(fieldErrors.invalid('spec.jobTemplate.spec.selector', jobSpec.selector, '`selector` will be auto-generated'));
  if (jobSpec.manualSelector === true) errors.push(fieldErrors.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return errors;
}

/**
 * Kubernetes tolerates a `TZ=` schedule and an unknown zone that were stored before those rules
 * existed; nothing stored here predates them, so create and update check the same way.
 */
export function validateCronJob(obj: CronJob): FieldError[] {
  const s = obj.spec ?? {};
  const errors = [
    ...validateSchedule(s.schedule),
    ...validateNonNegative(s.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'),
    ...validateTimeZone(s.timeZone, 'spec.timeZone'),
  ];
  const policy = s.concurrencyPolicy ?? '';
  if (policy === '') errors.push(fieldErrors.required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errors.push(fieldErrors.notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  errors.push(
    ...validateJobTemplate(s.jobTemplate),
    ...validateNonNegative(s.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'),
    ...validateNonNegative(s.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'),
  );
  // Names cannot change, so this create-time rule holds on update too.
  const name = obj.metadata.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) errors.push(fieldErrors.invalid('metadata.name', name, maxLenError(MAX_CRONJOB_NAME_LENGTH)));
  return errors;
}

export const cronJobs = defineKind<CronJob>({
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  resource: 'cronjobs',
  scope: 'namespace',
  shortNames: ['cj'],
  categories: ['all'],
  schema: cronJobSchema,
  status: true,
  tracksGeneration: true,
  defaults: defaultCronJob,
  prepareForCreate: (obj) => {
    obj.status = {};
  },
  validate: validateCronJob,
  columns: [
    nameColumn,
    { name: 'Schedule', type: 'string', description: 'The cron schedule.', priority: 0, cell: (obj) => obj.spec?.schedule ?? '' },
    { name: 'Timezone', type: 'string', description: 'The time zone of the schedule.', priority: 0, cell: (obj) => obj.spec?.timeZone ?? '<none>' },
    { name: 'Suspend', type: 'boolean', description: 'Whether later runs are held off.', priority: 0, cell: (obj) => obj.spec?.suspend ?? false },
    { name: 'Active', type: 'integer', description: 'Jobs currently running.', priority: 0, cell: (obj) => obj.status?.active?.length ?? 0 },
    {
      name: 'Last Schedule',
      type: 'string',
      description: 'When a job was last scheduled.',
      priority: 0,
      cell: (obj, now) => (obj.status?.lastScheduleTime ? humanAge(obj.status.lastScheduleTime, now) : '<none>'),
    },
    ageColumn,
    ...templateColumns<CronJob>((obj) => obj.spec?.jobTemplate?.spec?.template),
    selectorColumn<CronJob>((obj) => obj.spec?.jobTemplate?.spec?.selector),
  ],
});
