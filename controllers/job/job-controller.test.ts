/**
 * The Job controller in the server's controller manager (in process, on the client): a job's pod
 * is made with kube's labels, finalizer and owner; its success completes the job (conditions,
 * counts, events) and releases the finalizer; failures past backoffLimit fail it; an Indexed job
 * makes one pod per index; same names in two spaces never meet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../api/kinds/batch/job.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { eventually, startWorkloadTestServer, type WorkloadTestServer } from '../../src/testing/workload-test-server.js';
import { FakeEvents } from '../runtime/fake-event-recorder.js';

const job = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } }, ...spec },
});

describe('job controller', () => {
  let s: WorkloadTestServer;
  const events = new FakeEvents();
  const podsOf = async (tenant: string, name: string) =>
    (await s.list<Pod>('', 'pods', tenant, 'default')).filter((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name);
  const readJob = (tenant: string, name: string) => s.read<Job>('batch', 'jobs', { tenant, namespace: 'default', name });
  const condition = (j: Job | undefined, type: string) => (j?.status?.conditions as Array<{ type: string; status: string; reason?: string; message?: string }> | undefined)?.find((c) => c.type === type);

  beforeAll(async () => {
    s = await startWorkloadTestServer({ eventRecorderFor: events.for, jobBackoffBaseMs: 50 });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('runs a pod to completion, in its own space only', async () => {
    const created = await s.create<Job>('batch', 'jobs', 't1', job('pi'));
    const other = await s.create<Job>('batch', 'jobs', 't2', job('pi'));
    let pod: Pod | undefined;
    await eventually(async () => {
      const pods = await podsOf('t1', 'pi');
      expect(pods).toHaveLength(1);
      pod = pods[0];
    });
    expect(pod!.metadata.generateName).toBe('pi-');
    expect(pod!.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(pod!.metadata.labels).toMatchObject({ 'batch.kubernetes.io/controller-uid': created.metadata.uid, 'job-name': 'pi', 'controller-uid': created.metadata.uid });
    expect(pod!.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    await eventually(async () => expect((await readJob('t1', 'pi'))?.status).toMatchObject({ active: 1, ready: 0 }));
    expect((await readJob('t1', 'pi'))?.status?.startTime).toBeDefined();

    await s.setPodPhase(pod!, 'Succeeded');
    await eventually(async () => {
      const j = await readJob('t1', 'pi');
      expect(condition(j, 'Complete')).toMatchObject({ status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
      expect(condition(j, 'SuccessCriteriaMet')).toMatchObject({ status: 'True', reason: 'CompletionsReached' });
      expect(j?.status).toMatchObject({ succeeded: 1, active: 0 });
      expect(j?.status?.completionTime).toBeDefined();
    });
    await eventually(async () => expect((await podsOf('t1', 'pi'))[0]?.metadata.finalizers ?? []).toEqual([]));
    expect(events.notes('SuccessfulCreate', { tenant: 't1', name: 'pi' })).toEqual([`Created pod: ${pod!.metadata.name}`]);
    expect(events.notes('Completed', { tenant: 't1', name: 'pi' })).toEqual(['Job completed']);

    // t2's job of the same name has its own pod, still running.
    const t2Pods = await podsOf('t2', 'pi');
    expect(t2Pods).toHaveLength(1);
    expect(t2Pods[0]!.metadata.ownerReferences?.[0]?.uid).toBe(other.metadata.uid);
    expect(condition(await readJob('t2', 'pi'), 'Complete')).toBeUndefined();
  });

  it('replaces failed pods, then fails the job past backoffLimit', async () => {
    await s.create('batch', 'jobs', 't1', job('flaky', { backoffLimit: 1 }));
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      let running: Pod | undefined;
      await eventually(async () => {
        const pods = await podsOf('t1', 'flaky');
        expect(pods).toHaveLength(attempt);
        running = pods.find((p) => p.status?.phase !== 'Failed');
        expect(running).toBeDefined();
      });
      await s.setPodPhase(running!, 'Failed');
    }
    await eventually(async () => {
      const j = await readJob('t1', 'flaky');
      expect(condition(j, 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
      expect(j?.status).toMatchObject({ failed: 2, active: 0 });
    });
    expect(events.notes('BackoffLimitExceeded', { tenant: 't1', name: 'flaky' })).toEqual(['Job has reached the specified backoff limit']);
    expect(await podsOf('t1', 'flaky')).toHaveLength(2);
  });

  it('runs an Indexed job: one pod per index, completedIndexes as intervals', async () => {
    await s.create('batch', 'jobs', 't1', job('idx', { completionMode: 'Indexed', completions: 3, parallelism: 3 }));
    let pods: Pod[] = [];
    await eventually(async () => {
      pods = await podsOf('t1', 'idx');
      expect(pods).toHaveLength(3);
    });
    const indexes = pods.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']).sort();
    expect(indexes).toEqual(['0', '1', '2']);
    for (const p of pods) {
      const i = p.metadata.annotations!['batch.kubernetes.io/job-completion-index'];
      expect(p.metadata.labels?.['batch.kubernetes.io/job-completion-index']).toBe(i);
      expect(p.spec?.hostname).toBe(`idx-${i}`);
      expect(p.metadata.generateName).toBe(`idx-${i}-`);
      expect(p.spec?.containers?.[0]?.env).toContainEqual({ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } });
    }
    const byIndex = (i: string) => pods.find((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] === i)!;
    await s.setPodPhase(byIndex('0'), 'Succeeded');
    await s.setPodPhase(byIndex('2'), 'Succeeded');
    await eventually(async () => expect((await readJob('t1', 'idx'))?.status).toMatchObject({ completedIndexes: '0,2', succeeded: 2, active: 1 }));
    await s.setPodPhase(byIndex('1'), 'Succeeded');
    await eventually(async () => {
      const j = await readJob('t1', 'idx');
      expect(j?.status).toMatchObject({ completedIndexes: '0-2', succeeded: 3 });
      expect(condition(j, 'Complete')?.status).toBe('True');
    });
  });

  it('fails a job past its activeDeadlineSeconds and deletes its pods', async () => {
    await s.create('batch', 'jobs', 't1', job('slow', { activeDeadlineSeconds: 1 }));
    await eventually(async () => {
      const j = await readJob('t1', 'slow');
      expect(condition(j, 'Failed')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    }, 20_000);
    await eventually(async () => expect(await podsOf('t1', 'slow')).toEqual([]));
  });

  it('holds a suspended job, and runs it once resumed', async () => {
    await s.create('batch', 'jobs', 't1', job('held', { suspend: true }));
    await eventually(async () => expect(condition(await readJob('t1', 'held'), 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended' }));
    expect(await podsOf('t1', 'held')).toEqual([]);
    await s.server.plane.generic.mutate(s.kind('batch', 'jobs'), { tenant: 't1', namespace: 'default', name: 'held' }, (j) => ({ ...j, spec: { ...(j.spec as object), suspend: false } }));
    await eventually(async () => expect(await podsOf('t1', 'held')).toHaveLength(1));
    await eventually(async () => expect(condition(await readJob('t1', 'held'), 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed' }));
    expect(events.notes('Suspended', { tenant: 't1', name: 'held' })).toEqual(['Job suspended']);
    expect(events.notes('Resumed', { tenant: 't1', name: 'held' })).toEqual(['Job resumed']);
  });

  it('deletes a finished job after ttlSecondsAfterFinished, with its pods', async () => {
    await s.create('batch', 'jobs', 't1', job('brief', { ttlSecondsAfterFinished: 0 }));
    let pod: Pod | undefined;
    await eventually(async () => {
      [pod] = await podsOf('t1', 'brief');
      expect(pod).toBeDefined();
    });
    await s.setPodPhase(pod!, 'Succeeded');
    await eventually(async () => expect(await readJob('t1', 'brief')).toBeUndefined());
    await eventually(async () => expect(await podsOf('t1', 'brief')).toEqual([]));
  });
});
