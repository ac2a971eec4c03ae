/**
 * The CronJob controller in the server's controller manager, on an injected clock: a minute later
 * it makes the job of that minute, owned and annotated, lists it as active, and once the job
 * completes records it; a suspended same-named cron job in another space makes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CronJob } from '../../api/kinds/batch/cronjob.js';
import type { Job } from '../../api/kinds/batch/job.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { eventually, startWorkloadTestServer, type WorkloadTestServer } from '../../src/testing/workload-test-server.js';
import { FakeClock } from '../runtime/clock.js';
import { FakeEvents } from '../runtime/fake-event-recorder.js';

const cronJob = (suspend: boolean) => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'hello', namespace: 'default' },
  spec: {
    schedule: '*/1 * * * *',
    suspend,
    jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox' }] } } } },
  },
});

describe('cronjob controller', () => {
  let s: WorkloadTestServer;
  const events = new FakeEvents();
  const clock = new FakeClock(Date.now());
  const jobsIn = (tenant: string) => s.list<Job>('batch', 'jobs', tenant, 'default');
  const readCronJob = (tenant: string) => s.read<CronJob>('batch', 'cronjobs', { tenant, namespace: 'default', name: 'hello' });
  /** Any change makes the controller look again (as its timer would, a minute later). */
  const poke = (tenant: string) =>
    s.server.plane.generic.mutate(s.kind('batch', 'cronjobs'), { tenant, namespace: 'default', name: 'hello' }, (cj) => ({
      ...cj,
      metadata: { ...cj.metadata, annotations: { poked: String(clock.now()) } },
    }));

  beforeAll(async () => {
    s = await startWorkloadTestServer({ eventRecorderFor: events.for, clock });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('makes the job of each minute, and follows it to completion', async () => {
    const created = await s.create<CronJob>('batch', 'cronjobs', 't1', cronJob(false));
    await s.create('batch', 'cronjobs', 't2', cronJob(true));
    await new Promise((r) => setTimeout(r, 200));
    expect(await jobsIn('t1')).toEqual([]);

    clock.advance(61_000);
    const scheduled = Math.floor(clock.now() / 60_000) * 60_000;
    await poke('t1');
    await poke('t2');
    let job: Job | undefined;
    await eventually(async () => {
      [job] = await jobsIn('t1');
      expect(job).toBeDefined();
    });
    expect(job!.metadata.name).toBe(`hello-${scheduled / 60_000}`);
    expect(job!.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(job!.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(new Date(scheduled).toISOString().replace('.000Z', 'Z'));
    await eventually(async () => {
      const status = (await readCronJob('t1'))?.status;
      expect(status?.lastScheduleTime).toBe(new Date(scheduled).toISOString().replace('.000Z', 'Z'));
      expect(status?.active).toEqual([expect.objectContaining({ kind: 'Job', name: job!.metadata.name, uid: job!.metadata.uid, namespace: 'default', apiVersion: 'batch/v1' })]);
    });
    expect(events.notes('SuccessfulCreate', { tenant: 't1', name: 'hello' })).toEqual([`Created job ${job!.metadata.name}`]);
    expect(await jobsIn('t2')).toEqual([]);

    let pod: Pod | undefined;
    await eventually(async () => {
      pod = (await s.list<Pod>('', 'pods', 't1', 'default')).find((p) => p.metadata.labels?.['job-name'] === job!.metadata.name);
      expect(pod).toBeDefined();
    });
    await s.setPodPhase(pod!, 'Succeeded');
    await eventually(async () => {
      const status = (await readCronJob('t1'))?.status;
      expect(status?.active).toBeUndefined();
      expect(status?.lastSuccessfulTime).toBeDefined();
    });
    expect(events.notes('SawCompletedJob', { tenant: 't1', name: 'hello' })).toEqual([`Saw completed job: ${job!.metadata.name}, condition: Complete`]);
  });
});
