/**
 * The Job controller's decisions, without a server: kube's counting protocol through
 * uncountedTerminatedPods and the tracking finalizer, the exponential backoff of replacements on
 * an injected time, parallelism and completions, Indexed jobs, and podFailurePolicy.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../api/kinds/batch/job.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { JOB_TRACKING_FINALIZER, backoffDelayMs, formatIndexes, parseIndexes, planJob, type JobSyncInput } from './job-sync.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function job(spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', tenant: 't1', uid: 'job-uid' },
    spec: { completions: 1, parallelism: 1, backoffLimit: 6, completionMode: 'NonIndexed', template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } }, ...spec },
    status: { startTime: '2025-12-31T23:59:00Z', ...status },
  };
}

let n = 0;
function pod(phase?: string, opts: { finalizer?: boolean; index?: number; deleting?: boolean; exitCode?: number; uid?: string } = {}): Pod {
  n += 1;
  return {
    metadata: {
      name: `pi-${n}`,
      namespace: 'default',
      tenant: 't1',
      uid: opts.uid ?? `pod-${n}`,
      finalizers: opts.finalizer === false ? undefined : [JOB_TRACKING_FINALIZER],
      annotations: opts.index === undefined ? undefined : { 'batch.kubernetes.io/job-completion-index': String(opts.index) },
      deletionTimestamp: opts.deleting ? '2026-01-01T00:00:00Z' : undefined,
      creationTimestamp: `2025-12-31T23:59:${String(n % 60).padStart(2, '0')}Z`,
    },
    status: { phase, containerStatuses: opts.exitCode === undefined ? undefined : [{ name: 'c', state: { terminated: { exitCode: opts.exitCode } } }] },
  };
}

const plan = (j: Job, pods: Pod[], extra: Partial<JobSyncInput> = {}) =>
  planJob({ job: j, pods, now: NOW, backoff: { failures: 0, lastFailure: 0 }, backoffBaseMs: 10_000, expectationsSatisfied: true, ...extra });

describe('Job controller decisions', () => {
  it('starts a new job: start time, one pod, the initial status', () => {
    const p = plan(job({}, { startTime: undefined }), []);
    expect(p.create).toEqual([{}]);
    expect(p.status).toMatchObject({ startTime: '2026-01-01T00:00:00Z', active: 0, ready: 0, succeeded: 0, failed: 0, uncountedTerminatedPods: {} });
  });

  it('counts a finished pod in three steps: uncounted, finalizer removed, counted', () => {
    const done = pod('Succeeded', { uid: 'a' });
    const first = plan(job(), [done]);
    expect(first.status?.uncountedTerminatedPods).toEqual({ succeeded: ['a'] });
    expect(first.removeFinalizers).toEqual([done]);
    expect(first.status?.conditions?.map((c) => c.type)).toEqual(['SuccessCriteriaMet']);
    expect(first.events).toEqual([]);

    const released = { ...done, metadata: { ...done.metadata, finalizers: undefined } };
    const second = plan(job({}, first.status), [released]);
    expect(second.status).toMatchObject({ succeeded: 1, uncountedTerminatedPods: {} });
    expect(second.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
      ['Complete', 'True', 'CompletionsReached'],
    ]);
    expect(second.status?.completionTime).toBe('2026-01-01T00:00:00Z');
    expect(second.events).toEqual([{ type: 'Normal', reason: 'Completed', action: 'Complete', note: 'Job completed' }]);

    // An uncounted pod that is gone is counted too.
    expect(plan(job({}, first.status), []).status).toMatchObject({ succeeded: 1 });
  });

  it('backs off exponentially before replacing failed pods', () => {
    expect([1, 2, 3, 10].map((f) => backoffDelayMs(f, 10_000))).toEqual([10_000, 20_000, 40_000, 600_000]);
    const failedOnce = plan(job(), [pod('Failed', { uid: 'f1' })]);
    expect(failedOnce.backoff).toEqual({ failures: 1, lastFailure: NOW });
    expect(failedOnce.create).toEqual([]);
    expect(failedOnce.requeueAfterMs).toBe(10_000);
    const later = plan(job({}, { failed: 1 }), [], { now: NOW + 10_000, backoff: failedOnce.backoff });
    expect(later.create).toEqual([{}]);
    // A success resets the count.
    expect(plan(job({ completions: 2 }), [pod('Succeeded')], { backoff: { failures: 3, lastFailure: NOW } }).backoff.failures).toBe(0);
  });

  it('fails past backoffLimit, deleting active pods, then settles as Failed', () => {
    const running = pod('Running');
    const p = plan(job({ backoffLimit: 1, parallelism: 2, completions: 2 }, { failed: 1 }), [pod('Failed', { uid: 'x' }), running]);
    expect(p.status?.conditions?.map((c) => [c.type, c.reason])).toEqual([['FailureTarget', 'BackoffLimitExceeded']]);
    expect(p.delete).toEqual([running]);
    const settled = plan(job({ backoffLimit: 1 }, { failed: 2, conditions: p.status?.conditions }), []);
    expect(settled.status?.conditions?.map((c) => [c.type, c.reason, c.message])).toContainEqual(['Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit']);
    expect(settled.events).toEqual([{ type: 'Warning', reason: 'BackoffLimitExceeded', action: 'Fail', note: 'Job has reached the specified backoff limit' }]);
  });

  it('counts restarts of OnFailure pods against backoffLimit', () => {
    const restarting = pod('Running');
    restarting.status!.containerStatuses = [{ name: 'c', restartCount: 3 }];
    const p = plan(job({ backoffLimit: 2, template: { spec: { restartPolicy: 'OnFailure', containers: [] } } }), [restarting]);
    expect(p.status?.conditions?.[0]).toMatchObject({ type: 'FailureTarget', reason: 'BackoffLimitExceeded' });
  });

  it('fails at the active deadline, and asks to be woken at it before', () => {
    expect(plan(job({ activeDeadlineSeconds: 120 }), [pod('Running')]).requeueAfterMs).toBe(60_000);
    const late = plan(job({ activeDeadlineSeconds: 30 }), [pod('Running')]);
    expect(late.status?.conditions?.[0]).toMatchObject({ type: 'FailureTarget', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(late.delete).toHaveLength(1);
  });

  it('keeps parallelism and completions: never more active pods than either allows', () => {
    expect(plan(job({ completions: 5, parallelism: 2 }), []).create).toHaveLength(2);
    expect(plan(job({ completions: 5, parallelism: 2 }, { succeeded: 4 }), []).create).toHaveLength(1);
    const active = [pod('Running'), pod('Running'), pod('Pending')];
    expect(plan(job({ completions: 5, parallelism: 2 }), active).delete).toHaveLength(1);
    // Without completions: stop creating once any pod succeeded.
    expect(plan(job({ completions: undefined, parallelism: 3 }, { succeeded: 1 }), [pod('Running')]).create).toEqual([]);
  });

  it('runs an Indexed job: missing indexes first, completed indexes as intervals', () => {
    const spec = { completionMode: 'Indexed', completions: 5, parallelism: 2 };
    expect(plan(job(spec), []).create).toEqual([{ index: 0 }, { index: 1 }]);
    const p = plan(job(spec, { completedIndexes: '0,2' }), [pod('Running', { index: 1 })]);
    expect(p.create).toEqual([{ index: 3 }]);
    const done = plan(job(spec, { completedIndexes: '0,2' }), [pod('Succeeded', { index: 1 })]);
    expect(done.status?.completedIndexes).toBe('0-2');
    expect(parseIndexes('1,3-5,7')).toEqual(new Set([1, 3, 4, 5, 7]));
    expect(formatIndexes([7, 1, 4, 3, 5])).toBe('1,3-5,7');
  });

  it('applies podFailurePolicy: FailJob fails at once, Ignore does not count', () => {
    const policy = { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }, { action: 'Ignore', onExitCodes: { operator: 'In', values: [7] } }] } };
    const fatal = plan(job(policy), [pod('Failed', { exitCode: 42 })]);
    expect(fatal.status?.conditions?.[0]).toMatchObject({
      type: 'FailureTarget',
      reason: 'PodFailurePolicy',
      message: expect.stringMatching(/^Container c for pod default\/pi-\d+ failed with exit code 42 matching FailJob rule at index 0$/),
    });
    const ignored = plan(job(policy), [pod('Failed', { exitCode: 7 })]);
    expect(ignored.status?.uncountedTerminatedPods ?? {}).toEqual({});
    expect(ignored.removeFinalizers).toHaveLength(1);
    expect(ignored.backoff.failures).toBe(0);
  });

  it('counts a pod deleted while running as failed, but not when the job is suspended', () => {
    expect(plan(job(), [pod('Running', { deleting: true, uid: 'd' })]).status?.uncountedTerminatedPods).toEqual({ failed: ['d'] });
    const suspended = plan(job({ suspend: true }), [pod('Running', { deleting: true, uid: 'd' })]);
    expect(suspended.status?.uncountedTerminatedPods).toEqual({});
    expect(suspended.status?.conditions?.[0]).toMatchObject({ type: 'Suspended', status: 'True', reason: 'JobSuspended' });
  });

  it('only releases the pods of a finished job, and creates nothing while expectations are pending', () => {
    const leftover = pod('Succeeded');
    const finished = plan(job({}, { conditions: [{ type: 'Complete', status: 'True' }] }), [leftover]);
    expect(finished).toMatchObject({ create: [], delete: [], removeFinalizers: [leftover] });
    expect(finished.status).toBeUndefined();
    expect(plan(job(), [], { expectationsSatisfied: false }).create).toEqual([]);
  });

  it('writes no status when nothing changed', () => {
    const running = pod('Running');
    const first = plan(job(), [running]);
    expect(plan(job({}, first.status), [running]).status).toBeUndefined();
  });
});
