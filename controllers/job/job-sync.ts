/**
 * What the Job controller decides for one job, from the job, its pods and the time, with no I/O
 * (kube's `syncJob`): which pods to create and delete, the status to write, which pods' tracking
 * finalizers to remove once that status is stored, and the events to record. job-controller.ts
 * carries the plan out. Kubernetes' behaviour: `pkg/controller/job/job_controller.go`.
 *
 * Counting follows kube's finalizer protocol: every pod is made with `batch.kubernetes.io/job-tracking`;
 * a finished pod still holding it is first written into `status.uncountedTerminatedPods`, then its
 * finalizer goes, and once the pod has no finalizer (or is gone) its uid moves into
 * `succeeded`/`failed`. A pod is thus counted exactly once, even if it is deleted meanwhile.
 *
 * @example
 *   const plan = planJob({ job, pods, now: Date.now(), backoff: { failures: 0, lastFailure: 0 }, backoffBaseMs: 10_000, expectationsSatisfied: true });
 *   plan.create // [{ index: undefined }] for a new one-pod job
 */
import type { Job, JobCondition } from '../../api/kinds/batch/job.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { isPodReady } from '../runtime/pod-state.js';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';
/** kube's `MaxJobPodFailureBackOff`. */
const MAX_BACKOFF_MS = 10 * 60_000;

/** kube's condition reasons and messages. */
export const JOB_REASONS = {
  backoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  suspended: { reason: 'JobSuspended', message: 'Job suspended' },
  resumed: { reason: 'JobResumed', message: 'Job resumed' },
} as const;

export interface JobCondition2 extends JobCondition {
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

export interface JobStatus {
  conditions?: JobCondition2[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  ready?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  [field: string]: unknown;
}

/** Failures since the last success, for the exponential backoff of recreations (kube's backoffRecord). */
export interface BackoffRecord {
  failures: number;
  lastFailure: number;
}

export interface JobSyncInput {
  job: Job;
  /** The pods the job controls (its space, its uid). */
  pods: Pod[];
  now: number;
  backoff: BackoffRecord;
  /** kube's DefaultJobPodFailureBackOff, 10 s. */
  backoffBaseMs: number;
  /** False while pods this controller made or deleted are not yet in the cache: create or delete nothing then. */
  expectationsSatisfied: boolean;
}

export interface PlannedEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

export interface JobPlan {
  /** Pods to create: one entry each, with the completion index of an Indexed job. */
  create: Array<{ index?: number }>;
  delete: Pod[];
  /** The status to write (undefined: unchanged); `active` is adjusted by what create/delete achieve. */
  status?: JobStatus;
  /** Pods whose tracking finalizer goes, after the status is stored. */
  removeFinalizers: Pod[];
  events: PlannedEvent[];
  backoff: BackoffRecord;
  /** Sync again after this long (a deadline, a backoff). */
  requeueAfterMs?: number;
}

const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function hasTrackingFinalizer(pod: Pod): boolean {
  return pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) ?? false;
}

export function conditionTrue(job: { status?: { conditions?: JobCondition2[] } }, type: string): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

export function isJobFinished(job: Job): boolean {
  return conditionTrue(job, 'Complete') || conditionTrue(job, 'Failed');
}

/** The completion index of a pod of an Indexed job, or undefined. */
export function completionIndexOf(pod: Pod): number | undefined {
  const text = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION] ?? pod.metadata.labels?.[COMPLETION_INDEX_LABEL];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/** `1,3-5,7` → the set of indexes; kube's `parseIndexesFromString`. */
export function parseIndexes(text: string | undefined): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',').filter(Boolean)) {
    const [a, b] = part.split('-');
    const from = Number(a);
    const to = b === undefined ? from : Number(b);
    for (let i = from; i <= to; i += 1) out.add(i);
  }
  return out;
}

/** The set as ordered intervals, as kube writes `completedIndexes`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The delay before the next pod may be created after `failures` failures in a row. */
export function backoffDelayMs(failures: number, baseMs: number): number {
  if (failures <= 0) return 0;
  return Math.min(baseMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
}

function setCondition(conditions: JobCondition2[], type: string, status: 'True' | 'False', reason: string, message: string, now: number): JobCondition2[] {
  const existing = conditions.find((c) => c.type === type);
  if (existing && existing.status === status && existing.reason === reason && existing.message === message) return conditions;
  const time = iso(now);
  const next: JobCondition2 = { type, status, lastProbeTime: time, lastTransitionTime: existing?.status === status ? existing.lastTransitionTime ?? time : time, reason, message };
  return existing ? conditions.map((c) => (c === existing ? next : c)) : [...conditions, next];
}

function findCondition(conditions: JobCondition2[], type: string): JobCondition2 | undefined {
  return conditions.find((c) => c.type === type && c.status === 'True');
}

/** The exit code rule of a pod failure policy a failed pod matches, kube's `matchPodFailurePolicy` (exit codes and conditions). */
function matchPodFailurePolicy(job: Job, pod: Pod): { action: string; index: number; container?: string; exitCode?: number } | undefined {
  const rules = job.spec?.podFailurePolicy?.rules ?? [];
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  for (const [index, rule] of rules.entries()) {
    if (rule.onExitCodes) {
      const { containerName, operator, values = [] } = rule.onExitCodes;
      for (const status of statuses) {
        if (containerName && status.name !== containerName) continue;
        const code = status.state?.terminated?.exitCode;
        if (code === undefined || code === 0) continue;
        const matches = operator === 'In' ? values.includes(code) : !values.includes(code);
        if (matches) return { action: rule.action ?? '', index, container: status.name, exitCode: code };
      }
    }
    for (const pattern of rule.onPodConditions ?? []) {
      if ((pod.status?.conditions ?? []).some((c) => c.type === pattern.type && c.status === (pattern.status || 'True'))) return { action: rule.action ?? '', index };
    }
  }
  return undefined;
}

/** Pods to delete when there are too many active: not-ready and newest first, as kube's ActivePods ordering. */
function pickForDeletion(active: Pod[], count: number): Pod[] {
  const rank = (p: Pod) => (isPodReady(p) ? 1 : 0);
  return [...active]
    .sort((a, b) => rank(a) - rank(b) || (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''))
    .slice(0, Math.max(count, 0));
}

export function planJob(input: JobSyncInput): JobPlan {
  const { job, pods, now } = input;
  const spec = job.spec ?? {};
  const plan: JobPlan = { create: [], delete: [], removeFinalizers: [], events: [], backoff: { ...input.backoff } };
  const tracked = pods.filter(hasTrackingFinalizer);
  // A finished or deleted job only lets its pods go.
  if (isJobFinished(job) || job.metadata.deletionTimestamp) {
    plan.removeFinalizers = tracked;
    return plan;
  }
  const old = (job.status ?? {}) as JobStatus;
  const status: JobStatus = structuredClone(old);
  let conditions = [...(status.conditions ?? [])];
  const indexed = spec.completionMode === 'Indexed';
  const completions = spec.completions;
  const parallelism = spec.parallelism ?? 1;
  const suspended = spec.suspend === true;
  const byUid = new Map(pods.map((p) => [p.metadata.uid ?? '', p]));
  const uncountedSucceeded = new Set(old.uncountedTerminatedPods?.succeeded ?? []);
  const uncountedFailed = new Set(old.uncountedTerminatedPods?.failed ?? []);
  let succeeded = old.succeeded ?? 0;
  let failed = old.failed ?? 0;
  const completedIndexes = parseIndexes(old.completedIndexes);

  // 1. Uncounted pods whose finalizer is gone (or who are gone) are counted now.
  for (const uid of [...uncountedSucceeded]) {
    const pod = byUid.get(uid);
    if (!pod || !hasTrackingFinalizer(pod)) {
      uncountedSucceeded.delete(uid);
      succeeded += 1;
    }
  }
  for (const uid of [...uncountedFailed]) {
    const pod = byUid.get(uid);
    if (!pod || !hasTrackingFinalizer(pod)) {
      uncountedFailed.delete(uid);
      failed += 1;
    }
  }

  // 2. Pods that finished since, still holding the finalizer, are written down as uncounted.
  let newFailures = 0;
  let newSuccesses = 0;
  let failJob: { reason: string; message: string } | undefined;
  for (const pod of tracked) {
    const uid = pod.metadata.uid ?? '';
    if (uncountedSucceeded.has(uid) || uncountedFailed.has(uid)) {
      plan.removeFinalizers.push(pod);
      continue;
    }
    const phase = pod.status?.phase;
    if (phase === 'Succeeded') {
      const index = completionIndexOf(pod);
      if (indexed) {
        if (index === undefined || completions == null || index >= completions) {
          plan.removeFinalizers.push(pod); // not one of ours to count
          continue;
        }
        completedIndexes.add(index);
      }
      uncountedSucceeded.add(uid);
      plan.removeFinalizers.push(pod);
      newSuccesses += 1;
    } else if (phase === 'Failed' || pod.metadata.deletionTimestamp) {
      // Pods deleted while running count as failed (kube: orphans never reach Failed), unless
      // they go because the job was suspended.
      if (phase !== 'Failed' && suspended) {
        plan.removeFinalizers.push(pod);
        continue;
      }
      const match = phase === 'Failed' && spec.podFailurePolicy ? matchPodFailurePolicy(job, pod) : undefined;
      if (match?.action === 'Ignore') {
        plan.removeFinalizers.push(pod);
        continue;
      }
      if (match?.action === 'FailJob' && !failJob) {
        failJob = {
          reason: 'PodFailurePolicy',
          message:
            match.container !== undefined
              ? `Container ${match.container} for pod ${pod.metadata.namespace}/${pod.metadata.name} failed with exit code ${match.exitCode} matching FailJob rule at index ${match.index}`
              : `Pod ${pod.metadata.namespace}/${pod.metadata.name} has condition matching FailJob rule at index ${match.index}`,
        };
      }
      uncountedFailed.add(uid);
      plan.removeFinalizers.push(pod);
      newFailures += 1;
    }
  }
  if (newSuccesses > 0) plan.backoff = { failures: 0, lastFailure: plan.backoff.lastFailure };
  if (newFailures > 0) plan.backoff = { failures: plan.backoff.failures + newFailures, lastFailure: now };

  const totalSucceeded = succeeded + uncountedSucceeded.size;
  const totalFailed = failed + uncountedFailed.size;
  let active = pods.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const terminating = pods.filter((p) => p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;

  // 3. Start, suspend and resume.
  const wasSuspended = findCondition(conditions, 'Suspended') !== undefined;
  if (suspended) {
    if (!wasSuspended) {
      conditions = setCondition(conditions, 'Suspended', 'True', JOB_REASONS.suspended.reason, JOB_REASONS.suspended.message, now);
      plan.events.push({ type: 'Normal', reason: 'Suspended', action: 'Suspend', note: 'Job suspended' });
    }
  } else {
    if (wasSuspended) {
      conditions = setCondition(conditions, 'Suspended', 'False', JOB_REASONS.resumed.reason, JOB_REASONS.resumed.message, now);
      plan.events.push({ type: 'Normal', reason: 'Resumed', action: 'Resume', note: 'Job resumed' });
      status.startTime = iso(now);
    }
    status.startTime ??= iso(now);
  }

  // 4. Has the job reached its end?
  let failureTarget = findCondition(conditions, 'FailureTarget');
  let successTarget = findCondition(conditions, 'SuccessCriteriaMet');
  if (!failureTarget && !successTarget) {
    const restarts = spec.template?.spec?.restartPolicy === 'OnFailure' ? active.reduce((n, p) => n + (p.status?.containerStatuses ?? []).reduce((m, c) => m + (c.restartCount ?? 0), 0), 0) : 0;
    const startTime = status.startTime ? Date.parse(status.startTime) : NaN;
    let failure: { reason: string; message: string } | undefined = failJob;
    if (!failure && totalFailed + restarts > (spec.backoffLimit ?? 6)) failure = JOB_REASONS.backoffLimitExceeded;
    if (!failure && !suspended && spec.activeDeadlineSeconds != null && !Number.isNaN(startTime)) {
      const deadline = startTime + spec.activeDeadlineSeconds * 1000;
      if (now >= deadline) failure = JOB_REASONS.deadlineExceeded;
      else plan.requeueAfterMs = deadline - now;
    }
    if (failure) {
      conditions = setCondition(conditions, 'FailureTarget', 'True', failure.reason, failure.message, now);
      failureTarget = findCondition(conditions, 'FailureTarget');
    } else {
      const done = indexed
        ? completions != null && [...completedIndexes].filter((i) => i < completions).length >= completions
        : completions != null
          ? totalSucceeded >= completions
          : totalSucceeded > 0 && active.length === 0;
      if (done) {
        conditions = setCondition(conditions, 'SuccessCriteriaMet', 'True', JOB_REASONS.completionsReached.reason, JOB_REASONS.completionsReached.message, now);
        successTarget = findCondition(conditions, 'SuccessCriteriaMet');
      }
    }
  }

  // 5. Pods: none while the job ends or is suspended, else as many as completions and parallelism want.
  if (input.expectationsSatisfied) {
    if (failureTarget || successTarget || suspended) {
      plan.delete = active;
    } else if (indexed) {
      const byIndex = new Map<number, Pod[]>();
      for (const pod of active) {
        const i = completionIndexOf(pod);
        // Pods of an index already done or out of range, and duplicates, go.
        if (i === undefined || completions == null || i >= completions || completedIndexes.has(i)) plan.delete.push(pod);
        else byIndex.set(i, [...(byIndex.get(i) ?? []), pod]);
      }
      for (const dupes of byIndex.values()) plan.delete.push(...pickForDeletion(dupes, dupes.length - 1));
      const running = active.length - plan.delete.length;
      if (running > parallelism) plan.delete.push(...pickForDeletion(active.filter((p) => !plan.delete.includes(p)), running - parallelism));
      const room = parallelism - running;
      for (let i = 0; room > plan.create.length && completions != null && i < completions; i += 1) {
        if (!completedIndexes.has(i) && !byIndex.has(i)) plan.create.push({ index: i });
      }
    } else {
      const wantActive = completions == null ? (totalSucceeded > 0 ? 0 : parallelism) : Math.max(0, Math.min(parallelism, completions - totalSucceeded));
      if (active.length > wantActive) plan.delete = pickForDeletion(active, active.length - wantActive);
      else for (let i = active.length; i < wantActive; i += 1) plan.create.push({});
    }
    if (plan.create.length > 0) {
      const wait = plan.backoff.lastFailure + backoffDelayMs(plan.backoff.failures, input.backoffBaseMs) - now;
      if (wait > 0) {
        plan.create = [];
        plan.requeueAfterMs = Math.min(plan.requeueAfterMs ?? Infinity, wait);
      }
    }
  }
  active = active.filter((p) => !plan.delete.includes(p));

  // 6. The final condition, once every pod is counted and none is left running or terminating.
  const settled = uncountedSucceeded.size === 0 && uncountedFailed.size === 0 && active.length === 0 && plan.delete.length === 0 && terminating === 0;
  if (settled && failureTarget) {
    conditions = setCondition(conditions, 'Failed', 'True', failureTarget.reason ?? '', failureTarget.message ?? '', now);
    plan.events.push({ type: 'Warning', reason: failureTarget.reason ?? 'Failed', action: 'Fail', note: failureTarget.message ?? '' });
  } else if (settled && successTarget) {
    conditions = setCondition(conditions, 'Complete', 'True', successTarget.reason ?? '', successTarget.message ?? '', now);
    status.completionTime = iso(now);
    plan.events.push({ type: 'Normal', reason: 'Completed', action: 'Complete', note: 'Job completed' });
  }

  status.conditions = conditions.length > 0 ? conditions : undefined;
  if (status.conditions === undefined) delete status.conditions;
  status.active = active.length;
  status.ready = active.filter(isPodReady).length;
  status.terminating = terminating;
  status.succeeded = succeeded;
  status.failed = failed;
  if (indexed) status.completedIndexes = formatIndexes(completedIndexes);
  status.uncountedTerminatedPods = {
    ...(uncountedSucceeded.size > 0 ? { succeeded: [...uncountedSucceeded].sort() } : {}),
    ...(uncountedFailed.size > 0 ? { failed: [...uncountedFailed].sort() } : {}),
  };
  if (JSON.stringify(normalize(status)) !== JSON.stringify(normalize(old))) plan.status = status;
  return plan;
}

/** Zero counts and empty strings are what Go leaves out: compare without them. */
function normalize(status: JobStatus): JobStatus {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(status).sort()) {
    const v = status[key];
    if (v === undefined || v === 0 || v === '' || (key === 'uncountedTerminatedPods' && Object.keys(v as object).length === 0)) continue;
    out[key] = v;
  }
  return out as JobStatus;
}
