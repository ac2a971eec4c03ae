/**
 * What the CronJob controller decides for one cron job, with no I/O (kube's `syncCronJob`,
 * `cleanupFinishedJobs` and their schedule helpers in `pkg/controller/cronjob`): the active list
 * and last times from its jobs, the job to create for the most recent missed schedule (if its
 * deadline, concurrency policy and suspension allow), the jobs to delete (Replace, history
 * limits), the events, and when to look again. The time comes in as `now`, so tests move it.
 *
 * @example
 *   const plan = planCronJob({ cronJob, jobs, now, defaultTimeZone: 'UTC' });
 *   plan.create?.metadata.name // 'hello-29400000' (the scheduled time in minutes)
 */
import type { CronJob } from '../../api/kinds/batch/cronjob.js';
import type { Job } from '../../api/kinds/batch/job.js';
import type { ObjectReference } from '../../api/kinds/core/types.js';
import { newControllerRef } from '../runtime/owner-references.js';
import { conditionTrue } from '../job/job-sync.js';
import { parseCron, wallClock, type CronSchedule } from './cron.js';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** kube's nextScheduleDelta: wake a little after the scheduled time. */
const NEXT_SCHEDULE_DELTA_MS = 100;

export interface CronJobSyncInput {
  cronJob: CronJob;
  /** The jobs the cron job controls (its space, its uid). */
  jobs: Job[];
  now: number;
  /** The zone of a cron job without `spec.timeZone` (the controller manager's). */
  defaultTimeZone: string;
}

export interface CronJobEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

export interface CronJobPlan {
  status?: NonNullable<CronJob['status']>;
  /** The job to create, already named and owned. */
  create?: Job;
  /** Jobs to delete (background propagation), each with the event to record once deleted. */
  delete: Job[];
  events: CronJobEvent[];
  requeueAfterMs?: number;
}

type ActiveRef = ObjectReference & { uid?: string; name?: string; namespace?: string; kind?: string; apiVersion?: string; resourceVersion?: string };

const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The scheduled time in the zone, RFC 3339 with the zone's offset, as Go's `t.In(loc).Format(time.RFC3339)`. */
export function rfc3339InZone(ms: number, timeZone: string): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return rfc3339(ms);
  const w = wallClock(ms, timeZone);
  const offsetMin = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000) / 60_000);
  const pad = (n: number, len = 2) => String(n).padStart(len, '0');
  const date = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  if (offsetMin === 0) return `${date}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${date}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Go's RFC1123Z, as kube's MissSchedule event prints the time. */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/** `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function jobNameFor(cronJob: CronJob, scheduledMs: number): string {
  return `${cronJob.metadata.name}-${Math.floor(scheduledMs / 60_000)}`;
}

export function timeZoneOf(cronJob: CronJob, defaultTimeZone: string): string {
  return cronJob.spec?.timeZone ?? defaultTimeZone;
}

/**
 * kube's `mostRecentScheduleTime`: from the last schedule (or creation, or now − startingDeadlineSeconds),
 * the latest firing not after `now`, and whether more than 100 were missed.
 */
export function mostRecentScheduleTime(
  cronJob: CronJob,
  now: number,
  schedule: CronSchedule,
  timeZone: string,
  includeStartingDeadline: boolean,
): { earliest: number; mostRecent?: number; tooMany: boolean } {
  let earliest = Date.parse(cronJob.status?.lastScheduleTime ?? cronJob.metadata.creationTimestamp ?? '') || now;
  const deadline = cronJob.spec?.startingDeadlineSeconds;
  if (includeStartingDeadline && deadline != null) earliest = Math.max(earliest, now - deadline * 1000);
  const t1 = schedule.next(earliest, timeZone);
  if (now < t1) return { earliest, tooMany: false };
  const t2 = schedule.next(t1, timeZone);
  if (now < t2) return { earliest, mostRecent: t1, tooMany: false };
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) return { earliest, tooMany: false };
  const missed = Math.floor(Math.floor((now - t1) / 1000) / between) + 1;
  let mostRecent: number | undefined;
  const potentialEarliest = t1 + (missed - 2) * between * 1000;
  for (let t = schedule.next(potentialEarliest, timeZone); t <= now; t = schedule.next(t, timeZone)) mostRecent = t;
  return { earliest, mostRecent, tooMany: missed > 100 };
}

/** How long until the next firing (plus kube's 100 ms), from the last schedule. */
export function nextScheduleDelay(cronJob: CronJob, now: number, schedule: CronSchedule, timeZone: string): number {
  const { earliest, mostRecent } = mostRecentScheduleTime(cronJob, now, schedule, timeZone, false);
  return schedule.next(mostRecent ?? earliest, timeZone) + NEXT_SCHEDULE_DELTA_MS - now;
}

export function jobFinishedType(job: Job): 'Complete' | 'Failed' | undefined {
  if (conditionTrue(job, 'Complete')) return 'Complete';
  if (conditionTrue(job, 'Failed')) return 'Failed';
  return undefined;
}

/** The time a job was scheduled for, from the annotation (or, for older jobs, its name). */
function scheduledTimeOf(job: Job, cronJob: CronJob): number | undefined {
  const annotated = Date.parse(job.metadata.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION] ?? '');
  if (!Number.isNaN(annotated)) return annotated;
  const suffix = (job.metadata.name ?? '').slice((cronJob.metadata.name ?? '').length + 1);
  return /^\d+$/.test(suffix) ? Number(suffix) * 60_000 : undefined;
}

function refOf(job: Job): ActiveRef {
  return { kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion };
}

/** The job a cron job makes for a scheduled time (kube's getJobFromTemplate2). */
export function jobFromTemplate(cronJob: CronJob, scheduledMs: number, timeZoneForAnnotation: string): Job {
  const template = cronJob.spec?.jobTemplate ?? {};
  const meta = (template.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cronJob, scheduledMs),
      namespace: cronJob.metadata.namespace,
      labels: { ...meta.labels },
      annotations: { ...meta.annotations, [SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339InZone(scheduledMs, timeZoneForAnnotation) },
      ownerReferences: [newControllerRef(cronJob, 'batch/v1', 'CronJob')],
    },
    spec: structuredClone(template.spec ?? {}),
  };
}

/** Finished jobs past the history limit, oldest start first (kube's removeOldestJobs). */
function overLimit(finished: Job[], limit: number | undefined): Job[] {
  if (limit == null || finished.length <= limit) return [];
  const start = (j: Job) => (j.status?.startTime ? Date.parse(j.status.startTime) : Infinity);
  const sorted = [...finished].sort((a, b) => start(a) - start(b) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  return sorted.slice(0, finished.length - limit);
}

export function planCronJob(input: CronJobSyncInput): CronJobPlan {
  const { cronJob, jobs, now } = input;
  const spec = cronJob.spec ?? {};
  const plan: CronJobPlan = { delete: [], events: [] };
  const old = cronJob.status ?? {};
  const status: NonNullable<CronJob['status']> = structuredClone(old);
  let active = [...((status.active ?? []) as ActiveRef[])];
  const byUid = new Map(jobs.map((j) => [j.metadata.uid ?? '', j]));

  // 1. The active list and last times, from the jobs themselves.
  for (const job of jobs) {
    const inActive = active.some((r) => r.uid === job.metadata.uid);
    const finished = jobFinishedType(job);
    if (!inActive && !finished) {
      const scheduled = scheduledTimeOf(job, cronJob);
      if (scheduled !== undefined && (!status.lastScheduleTime || scheduled > Date.parse(status.lastScheduleTime))) status.lastScheduleTime = rfc3339(scheduled);
      active.push(refOf(job));
      plan.events.push({ type: 'Warning', reason: 'UnexpectedJob', action: 'Adopt', note: `Saw a job that the controller did not create or forgot: ${job.metadata.name}` });
    } else if (inActive && finished) {
      active = active.filter((r) => r.uid !== job.metadata.uid);
      plan.events.push({ type: 'Normal', reason: 'SawCompletedJob', action: 'Observe', note: `Saw completed job: ${job.metadata.name}, condition: ${finished}` });
    }
    if (finished === 'Complete' && job.status?.completionTime) {
      if (!status.lastSuccessfulTime || Date.parse(job.status.completionTime) > Date.parse(status.lastSuccessfulTime)) status.lastSuccessfulTime = job.status.completionTime;
    }
  }
  for (const ref of active.filter((r) => !byUid.has(r.uid ?? ''))) {
    plan.events.push({ type: 'Normal', reason: 'MissingJob', action: 'Observe', note: `Active job went missing: ${ref.name}` });
  }
  active = active.filter((r) => byUid.has(r.uid ?? ''));

  // 2. History limits (also while suspended, as kube's cleanupFinishedJobs).
  const deleting = new Set<Job>([
    ...overLimit(jobs.filter((j) => jobFinishedType(j) === 'Complete'), spec.successfulJobsHistoryLimit),
    ...overLimit(jobs.filter((j) => jobFinishedType(j) === 'Failed'), spec.failedJobsHistoryLimit),
  ]);

  const finish = (): CronJobPlan => {
    plan.delete.push(...deleting);
    active = active.filter((r) => ![...deleting].some((j) => j.metadata.uid === r.uid));
    status.active = active.length > 0 ? active : undefined;
    if (status.active === undefined) delete status.active;
    if (JSON.stringify(status) !== JSON.stringify(old)) plan.status = status;
    return plan;
  };

  if (cronJob.metadata.deletionTimestamp || spec.suspend) return finish();
  let schedule: CronSchedule;
  try {
    schedule = parseCron(spec.schedule ?? '');
  } catch (err) {
    plan.events.push({ type: 'Warning', reason: 'UnparseableSchedule', action: 'Schedule', note: `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${(err as Error).message}` });
    return finish();
  }
  const zone = timeZoneOf(cronJob, input.defaultTimeZone);
  const scheduleStatus = { ...cronJob, status: { ...status, active } } as CronJob;
  const { mostRecent, tooMany } = mostRecentScheduleTime(scheduleStatus, now, schedule, zone, true);
  const requeueNext = () => {
    plan.requeueAfterMs = Math.max(nextScheduleDelay({ ...cronJob, status } as CronJob, now, schedule, zone), 0);
  };
  if (mostRecent === undefined || mostRecent > now) {
    requeueNext();
    return finish();
  }
  if (tooMany) {
    plan.events.push({ type: 'Warning', reason: 'TooManyMissedTimes', action: 'Schedule', note: 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew' });
  }
  const deadline = spec.startingDeadlineSeconds;
  if (deadline != null && mostRecent + deadline * 1000 < now) {
    plan.events.push({ type: 'Warning', reason: 'MissSchedule', action: 'Schedule', note: `Missed scheduled time to start a job: ${rfc1123z(mostRecent)}` });
    requeueNext();
    return finish();
  }
  const name = jobNameFor(cronJob, mostRecent);
  if (active.some((r) => r.name === name) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === Math.floor(mostRecent / 1000) * 1000)) {
    requeueNext();
    return finish();
  }
  const policy = spec.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && active.length > 0) {
    plan.events.push({ type: 'Normal', reason: 'JobAlreadyActive', action: 'Schedule', note: 'Not starting job because prior execution is running and concurrency policy is Forbid' });
    requeueNext();
    return finish();
  }
  if (policy === 'Replace') {
    for (const ref of active) {
      const job = byUid.get(ref.uid ?? '');
      if (job) deleting.add(job);
    }
  }
  // kube annotates with the zone of spec.timeZone, and UTC when it names none (time.LoadLocation("")).
  plan.create = jobFromTemplate(cronJob, mostRecent, spec.timeZone ?? 'UTC');
  status.lastScheduleTime = rfc3339(mostRecent);
  requeueNext();
  return finish();
}
