import { describe, expect, it } from 'vitest';
import { cells, create, headers, messages, TEST_UID, update } from '../apps/testing.js';
import { cronJobs, type CronJob } from './cronjob.js';
import type { JobSpec } from './job-spec.js';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL, jobs, type Job } from './job.js';

const podTemplate = (restartPolicy = 'Never') => ({ spec: { restartPolicy, containers: [{ name: 'pi', image: 'perl:5.34' }] } });

const job = (spec: JobSpec = {}): Job => ({ metadata: { name: 'pi' }, spec: { template: podTemplate(), ...spec } });

describe('Job', () => {
  it('defaults counts, backoff and modes', async () => {
    const { object, errors } = await create(jobs, job());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    });
    expect(object.status).toEqual({});
  });

  it('generates its selector and pod labels from its uid and name', async () => {
    const { object } = await create(jobs, job());
    const generated = { 'controller-uid': TEST_UID, [CONTROLLER_UID_LABEL]: TEST_UID, 'job-name': 'pi', [JOB_NAME_LABEL]: 'pi' };
    expect(object.spec?.selector).toEqual({ matchLabels: { [CONTROLLER_UID_LABEL]: TEST_UID } });
    expect(object.spec?.template?.metadata?.labels).toEqual(generated);
    // As Kubernetes shows a job once read back, it carries its pods' labels.
    expect(object.metadata.labels).toEqual(generated);
  });

  it('leaves a manual selector to the client', async () => {
    const manual = job({ manualSelector: true, selector: { matchLabels: { app: 'pi' } }, template: { metadata: { labels: { app: 'pi' } }, ...podTemplate() } });
    const { object, errors } = await create(jobs, manual);
    expect(errors).toEqual([]);
    expect(object.spec?.selector).toEqual({ matchLabels: { app: 'pi' } });
  });

  it('defaults parallelism alone when completions are given, and backoff per index', async () => {
    const { object } = await create(jobs, job({ completions: 5, completionMode: 'Indexed', backoffLimitPerIndex: 1 }));
    expect(object.spec).toMatchObject({ completions: 5, parallelism: 1, backoffLimit: 2147483647 });
  });

  it('defaults pod failure policy conditions to True and replacement to Failed', async () => {
    const { object } = await create(jobs, job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }));
    expect(object.spec?.podFailurePolicy?.rules?.[0]?.onPodConditions?.[0]?.status).toBe('True');
    expect(object.spec?.podReplacementPolicy).toBe('Failed');
  });

  it.each<[string, JobSpec, string[]]>([
    ['pods that restart forever', { template: podTemplate('Always') }, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['negative parallelism', { parallelism: -1 }, ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0']],
    ['an unknown completion mode', { completionMode: 'Sometimes' }, ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']],
    ['an indexed job without completions', { completionMode: 'Indexed', parallelism: 2 }, ['spec.completions: Required value: when completion mode is Indexed']],
    ['backoff per index of a non-indexed job', { backoffLimitPerIndex: 1 }, ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode']],
    [
      'a failure policy with OnFailure pods',
      { template: podTemplate('OnFailure'), podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] } },
      ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified'],
    ],
    [
      'a failure rule without a requirement',
      { podFailurePolicy: { rules: [{ action: 'Explode' }] } },
      [
        'spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
        'spec.podFailurePolicy.rules[0]: Invalid value: {"action":"Explode"}: specifying one of OnExitCodes and OnPodConditions is required',
      ],
    ],
    [
      'exit codes out of order, and 0 with In',
      { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3, 0] } }] } },
      [
        'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0]: must be ordered',
      ],
    ],
    ['a managedBy that is not a domain path', { managedBy: 'my-controller' }, ['spec.managedBy: Invalid value: "my-controller": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['an unknown replacement policy', { podReplacementPolicy: 'Never' }, ['spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"']],
  ])('refuses %s', async (_what, spec, want) => {
    const { errors } = await create(jobs, job(spec));
    expect(messages(errors)).toEqual(want);
  });

  it('refuses generated labels the client changed', async () => {
    const { errors } = await create(jobs, job({ template: { metadata: { labels: { 'job-name': 'other' } }, ...podTemplate() } }));
    expect(messages(errors)).toEqual([
      'spec.template.metadata.labels[job-name]: Invalid value: {"job-name":"other","batch.kubernetes.io/job-name":"pi","controller-uid":"6f1c2a8e-2d2b-4a4e-9b7e-1a2b3c4d5e6f","batch.kubernetes.io/controller-uid":"6f1c2a8e-2d2b-4a4e-9b7e-1a2b3c4d5e6f"}: must be \'pi\'',
    ]);
  });

  it('refuses an indexed job whose pod hostnames would not be DNS labels', async () => {
    const long = { ...job({ completions: 10, completionMode: 'Indexed' }), metadata: { name: 'a'.repeat(62) } };
    const { errors } = await create(jobs, long);
    expect(messages(errors)).toContain(`metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-9`);
  });

  it('keeps its selector, template and completions once created, but may be resumed', async () => {
    const { object } = await create(jobs, job({ suspend: true }));
    const retemplated = structuredClone(object);
    retemplated.spec!.template!.spec!.containers![0]!.image = 'perl:5.36';
    retemplated.spec!.completions = 2;
    expect(messages(update(jobs, retemplated, object)).map((m) => m.slice(0, m.indexOf(':')))).toEqual(['spec.completions', 'spec.template']);
    const resumed = structuredClone(object);
    resumed.spec!.suspend = false;
    resumed.spec!.parallelism = 3;
    expect(update(jobs, resumed, object)).toEqual([]);
  });

  it('lets a suspended job that never ran move to other nodes', async () => {
    const { object } = await create(jobs, job({ suspend: true }));
    const moved = structuredClone(object);
    moved.spec!.template!.spec!.nodeSelector = { zone: 'b' };
    expect(update(jobs, moved, object)).toEqual([]);
  });

  it.each<[string, Job['status'] & object, Partial<JobSpec>, string, string, string]>([
    ['a running job', { active: 1, startTime: '2024-05-01T10:05:00Z' }, {}, 'Running', '0/1', '5m'],
    [
      'a complete job',
      { succeeded: 1, startTime: '2024-05-01T10:00:00Z', completionTime: '2024-05-01T10:00:42Z', conditions: [{ type: 'Complete', status: 'True' }] },
      {},
      'Complete',
      '1/1',
      '42s',
    ],
    ['a failed job', { failed: 6, conditions: [{ type: 'Failed', status: 'True' }] }, {}, 'Failed', '0/1', ''],
    ['a suspended work queue', { conditions: [{ type: 'Suspended', status: 'True' }] }, { completions: undefined, parallelism: 3 }, 'Suspended', '0/1 of 3', ''],
  ])('prints %s', async (_what, status, spec, wantStatus, wantCompletions, wantDuration) => {
    const { object } = await create(jobs, job());
    Object.assign(object.spec!, spec);
    object.status = status;
    expect(cells(jobs, object).slice(0, 5)).toEqual(['pi', wantStatus, wantCompletions, wantDuration, '10m']);
  });

  it('has the familiar columns and selects by status.successful', async () => {
    const { object } = await create(jobs, job());
    object.status = { succeeded: 1 };
    expect(headers(jobs, true)).toEqual(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(cells(jobs, object).slice(5)).toEqual(['pi', 'perl:5.34', `${CONTROLLER_UID_LABEL}=${TEST_UID}`]);
    expect(jobs.selectableFields['status.successful']!(object)).toBe('1');
    expect(jobs).toMatchObject({ categories: ['all'], shortNames: [], status: true });
  });
});

const cronJob = (spec: NonNullable<CronJob['spec']> = {}): CronJob => ({
  metadata: { name: 'hello' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate('OnFailure') } }, ...spec },
});

describe('CronJob', () => {
  it('defaults policy, suspension and history, and only pod defaults in its template', async () => {
    const { object, errors } = await create(cronJobs, cronJob());
    expect(errors).toEqual([]);
    expect(object.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(object.spec?.jobTemplate?.spec?.template?.spec).toMatchObject({ dnsPolicy: 'ClusterFirst' });
    expect(object.spec?.jobTemplate?.spec?.backoffLimit).toBeUndefined();
    expect(object.status).toEqual({});
  });

  it.each<[string, NonNullable<CronJob['spec']>, string[]]>([
    ['no schedule', { schedule: '' }, ['spec.schedule: Required value']],
    ['a bad schedule', { schedule: '0 25 * * *' }, ['spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25']],
    ['a time zone in the schedule', { schedule: 'TZ=UTC 0 * * * *' }, ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    ['the local time zone', { timeZone: 'Local' }, ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']],
    ['an unknown concurrency policy', { concurrencyPolicy: 'Queue' }, ['spec.concurrencyPolicy: Unsupported value: "Queue": supported values: "Allow", "Forbid", "Replace"']],
    [
      'a selector in the job template',
      { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: podTemplate('OnFailure') } } },
      ['spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated'],
    ],
    ['negative history', { failedJobsHistoryLimit: -1 }, ['spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0']],
  ])('refuses %s', async (_what, spec, want) => {
    const { errors } = await create(cronJobs, cronJob(spec));
    expect(messages(errors)).toEqual(want);
  });

  it('accepts a real time zone', async () => {
    expect((await create(cronJobs, cronJob({ timeZone: 'Europe/Paris' }))).errors).toEqual([]);
  });

  it('leaves room in its name for the job suffix', async () => {
    const { errors } = await create(cronJobs, { ...cronJob(), metadata: { name: 'c'.repeat(53) } });
    expect(messages(errors)).toEqual([`metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`]);
  });

  it('prints SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE', async () => {
    const { object } = await create(cronJobs, cronJob({ timeZone: 'Etc/UTC' }));
    object.status = { active: [{ kind: 'Job', name: 'hello-28571' }], lastScheduleTime: '2024-05-01T10:05:00Z' };
    expect(headers(cronJobs)).toEqual(['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
    expect(cells(cronJobs, object)).toEqual(['hello', '*/5 * * * *', 'Etc/UTC', false, 1, '5m', '10m', 'pi', 'perl:5.34', '<none>']);
  });
});
