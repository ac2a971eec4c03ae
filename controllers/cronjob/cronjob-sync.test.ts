/**
 * The CronJob controller's decisions over an injected time: when a job is made and how it is
 * named and annotated, missed schedules and startingDeadlineSeconds, concurrency policies,
 * suspension, history limits and the active list.
 */
import { describe, expect, it } from 'vitest';
import type { CronJob } from '../../api/kinds/batch/cronjob.js';
import type { Job } from '../../api/kinds/batch/job.js';
import { jobNameFor, mostRecentScheduleTime, planCronJob, rfc3339InZone } from './cronjob-sync.js';
import { parseCron } from './cron.js';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const MIN = 60_000;

function cronJob(spec: Partial<NonNullable<CronJob['spec']>> = {}, status: CronJob['status'] = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', tenant: 't1', uid: 'cj-uid', creationTimestamp: '2026-01-01T09:59:30Z' },
    spec: {
      schedule: '*/1 * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: { app: 'hello' } }, spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } },
      ...spec,
    },
    status,
  };
}

function childJob(name: string, opts: { finished?: 'Complete' | 'Failed'; start?: string; completion?: string; uid?: string } = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default', tenant: 't1', uid: opts.uid ?? `${name}-uid`, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'cj-uid', controller: true }] },
    status: {
      startTime: opts.start,
      completionTime: opts.completion,
      conditions: opts.finished ? [{ type: opts.finished, status: 'True' }] : undefined,
    },
  };
}

const plan = (cj: CronJob, now: number, jobs: Job[] = []) => planCronJob({ cronJob: cj, jobs, now, defaultTimeZone: 'UTC' });

describe('CronJob controller decisions', () => {
  it('waits for the first schedule, then makes <name>-<minutes> with the scheduled-timestamp annotation', () => {
    const before = plan(cronJob(), T0 - 10_000);
    expect(before.create).toBeUndefined();
    expect(before.requeueAfterMs).toBe(10_100); // 10:00:00 + kube's 100 ms

    const due = plan(cronJob(), T0 + 5_000);
    expect(due.create?.metadata).toMatchObject({
      name: `hello-${T0 / MIN}`,
      namespace: 'default',
      labels: { app: 'hello' },
      annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T10:00:00Z' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }],
    });
    expect(due.create?.spec).toEqual(cronJob().spec!.jobTemplate!.spec);
    expect(due.status?.lastScheduleTime).toBe('2026-01-01T10:00:00Z');
    expect(due.requeueAfterMs).toBe(55_100);
  });

  it('does not make the same scheduled job twice', () => {
    const cj = cronJob({}, { lastScheduleTime: '2026-01-01T10:00:00Z' });
    expect(plan(cj, T0 + 30_000).create).toBeUndefined();
    expect(plan(cj, T0 + MIN + 1).create?.metadata.name).toBe(`hello-${T0 / MIN + 1}`);
  });

  it('annotates in the cron job’s time zone, and schedules on its wall clock', () => {
    const cj = cronJob({ schedule: '0 11 * * *', timeZone: 'Europe/Paris' });
    const due = plan(cj, T0 + 1_000); // 11:00:01 in Paris
    expect(due.create?.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2026-01-01T11:00:00+01:00');
    expect(rfc3339InZone(T0, 'America/New_York')).toBe('2026-01-01T05:00:00-05:00');
  });

  it('starts only the most recent missed schedule, and warns past 100 missed', () => {
    const cj = cronJob({}, { lastScheduleTime: '2026-01-01T10:00:00Z' });
    const few = plan(cj, T0 + 5 * MIN + 10_000);
    expect(few.create?.metadata.name).toBe(`hello-${T0 / MIN + 5}`);
    expect(few.events.map((e) => e.reason)).not.toContain('TooManyMissedTimes');

    const many = plan(cj, T0 + 200 * MIN + 10_000);
    expect(many.create?.metadata.name).toBe(`hello-${T0 / MIN + 200}`);
    expect(many.events).toContainEqual(expect.objectContaining({ type: 'Warning', reason: 'TooManyMissedTimes', note: 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew' }));
  });

  it('honours startingDeadlineSeconds: a schedule missed by more than it is not started', () => {
    const cj = cronJob({ startingDeadlineSeconds: 10 }, { lastScheduleTime: '2026-01-01T09:59:00Z' });
    const late = plan(cj, T0 + 30_000);
    expect(late.create).toBeUndefined();
    // With the deadline, the window starts at now − 10 s: the 10:00 run is outside it, nothing is due.
    expect(late.requeueAfterMs).toBe(30_100);
    const inTime = plan(cj, T0 + 5_000);
    expect(inTime.create?.metadata.name).toBe(`hello-${T0 / MIN}`);
    expect(mostRecentScheduleTime(cj, T0 + 5_000, parseCron('*/1 * * * *'), 'UTC', true).mostRecent).toBe(T0);
  });

  it('Forbid waits for the running job; Replace deletes it; Allow runs both', () => {
    const running = childJob(`hello-${T0 / MIN - 1}`);
    const status = { lastScheduleTime: '2026-01-01T09:59:00Z', active: [{ kind: 'Job', name: running.metadata.name, namespace: 'default', uid: running.metadata.uid, apiVersion: 'batch/v1' }] };
    const forbid = plan(cronJob({ concurrencyPolicy: 'Forbid' }, status), T0 + 1_000, [running]);
    expect(forbid.create).toBeUndefined();
    expect(forbid.events).toContainEqual(expect.objectContaining({ reason: 'JobAlreadyActive', note: 'Not starting job because prior execution is running and concurrency policy is Forbid' }));

    const replace = plan(cronJob({ concurrencyPolicy: 'Replace' }, status), T0 + 1_000, [running]);
    expect(replace.delete.map((j) => j.metadata.name)).toEqual([running.metadata.name]);
    expect(replace.create?.metadata.name).toBe(`hello-${T0 / MIN}`);

    const allow = plan(cronJob({}, status), T0 + 1_000, [running]);
    expect(allow.delete).toEqual([]);
    expect(allow.create).toBeDefined();
  });

  it('suspended: makes nothing, still tidies history', () => {
    const finished = [1, 2, 3, 4, 5].map((i) => childJob(`hello-${i}`, { finished: 'Complete', start: `2026-01-01T0${i}:00:00Z`, completion: `2026-01-01T0${i}:00:30Z` }));
    const p = plan(cronJob({ suspend: true }), T0 + 10 * MIN, finished);
    expect(p.create).toBeUndefined();
    expect(p.delete.map((j) => j.metadata.name)).toEqual(['hello-1', 'hello-2']);
    expect(p.status?.lastSuccessfulTime).toBe('2026-01-01T05:00:30Z');
  });

  it('keeps failedJobsHistoryLimit failed jobs, the newest', () => {
    const failed = [1, 2, 3].map((i) => childJob(`hello-${i}`, { finished: 'Failed', start: `2026-01-01T0${i}:00:00Z` }));
    expect(plan(cronJob({ suspend: true }), T0, failed).delete.map((j) => j.metadata.name)).toEqual(['hello-1', 'hello-2']);
  });

  it('keeps the active list: finished jobs leave it (SawCompletedJob), unknown running ones join it', () => {
    const done = childJob('hello-100', { finished: 'Complete', completion: '2026-01-01T09:00:30Z' });
    const stray = childJob(`hello-${T0 / MIN - 2}`);
    const status = { lastScheduleTime: '2026-01-01T09:00:00Z', active: [{ kind: 'Job', name: 'hello-100', namespace: 'default', uid: done.metadata.uid, apiVersion: 'batch/v1' }] };
    const p = plan(cronJob({ suspend: true }, status), T0, [done, stray]);
    expect(p.events).toContainEqual(expect.objectContaining({ reason: 'SawCompletedJob', note: 'Saw completed job: hello-100, condition: Complete' }));
    expect(p.events).toContainEqual(expect.objectContaining({ reason: 'UnexpectedJob' }));
    expect((p.status?.active as Array<{ name: string }>).map((r) => r.name)).toEqual([stray.metadata.name]);
    expect(p.status?.lastSuccessfulTime).toBe('2026-01-01T09:00:30Z');
  });

  it('writes nothing when nothing changed', () => {
    const cj = cronJob({}, { lastScheduleTime: '2026-01-01T10:00:00Z' });
    expect(plan(cj, T0 + 30_000).status).toBeUndefined();
    expect(jobNameFor(cj, T0)).toBe('hello-29454360');
  });
});
