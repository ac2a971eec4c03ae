/**
 * The CronJob controller (kube's `cronjob-controller`, v2), one instance over every space, on the
 * shared CronJob and Job informers: each reconcile plans with `planCronJob` (cronjob-sync.ts)
 * from the cron job, the jobs it controls (found by `<tenant>/<uid>`) and the injected clock,
 * then creates and deletes jobs, writes the status when it changed, records events, and asks to
 * be woken at the next scheduled time. Nothing is per space: one queue, one timer per cron job.
 */
import { cronJobs, type CronJob } from '../../api/kinds/batch/cronjob.js';
import { jobs as jobKind, type Job } from '../../api/kinds/batch/job.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import type { Informer } from '../runtime/informer.js';
import { CONTROLLER_INDEX, controllerIndexFunc, controllerIndexValue, controllerKeyOf, isControlledBy } from '../runtime/owner-references.js';
import { localTimeZone } from './cron.js';
import { planCronJob } from './cronjob-sync.js';

export interface CronJobControllerDeps {
  /** Acts as system:controller:cronjob-controller. */
  client: KubeClient;
  cronJobs: Informer;
  jobs: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
  /** The zone of cron jobs without spec.timeZone (default: this process's). */
  defaultTimeZone?: string;
}

export function cronJobController(deps: CronJobControllerDeps): Controller {
  const clock = deps.clock ?? realClock;
  const defaultTimeZone = deps.defaultTimeZone ?? localTimeZone();
  deps.jobs.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  const jobLister = deps.jobs.lister<Job>();

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const cronJob = deps.cronJobs.get(key) as CronJob | undefined;
    if (!cronJob) return done;
    const owned = jobLister.byIndex(CONTROLLER_INDEX, controllerIndexValue(cronJob));
    const plan = planCronJob({ cronJob, jobs: owned, now: clock.now(), defaultTimeZone });
    const jobClient = deps.client.space(key.tenant).namespace(key.namespace).resource(jobKind);
    const status = structuredClone(plan.status ?? cronJob.status ?? {});
    let statusChanged = plan.status !== undefined;
    for (const event of plan.events) deps.events.record({ regarding: cronJob, ...event });
    for (const job of plan.delete) {
      try {
        await jobClient.delete(job.metadata.name!, { propagationPolicy: 'Background', preconditions: { uid: job.metadata.uid } });
        deps.events.record({ regarding: cronJob, related: job, type: 'Normal', reason: 'SuccessfulDelete', action: 'Delete', note: `Deleted job ${job.metadata.name}` });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
      if (status.active?.some((r) => (r as { uid?: string }).uid === job.metadata.uid)) {
        status.active = status.active.filter((r) => (r as { uid?: string }).uid !== job.metadata.uid);
        if (status.active.length === 0) delete status.active;
        statusChanged = true;
      }
    }
    if (plan.create) {
      let created: Job | undefined;
      try {
        created = await jobClient.create(plan.create);
        deps.events.record({ regarding: cronJob, related: created, type: 'Normal', reason: 'SuccessfulCreate', action: 'Create', note: `Created job ${created.metadata.name}` });
      } catch (err) {
        if (isAlreadyExists(err)) {
          // Made by an earlier run of this reconcile whose status write was lost: take it if it is ours.
          const existing = await jobClient.get(plan.create.metadata.name!).catch(() => undefined);
          if (existing && isControlledBy(existing, cronJob)) created = existing;
          else return requeueAfter(plan.requeueAfterMs ?? 60_000);
        } else {
          deps.events.record({ regarding: cronJob, type: 'Warning', reason: 'FailedCreate', action: 'Create', note: `Error creating job: ${(err as Error).message}` });
          throw err;
        }
      }
      const ref = { kind: 'Job', namespace: created.metadata.namespace, name: created.metadata.name, uid: created.metadata.uid, apiVersion: 'batch/v1', resourceVersion: created.metadata.resourceVersion };
      if (!(status.active ?? []).some((r) => (r as { uid?: string }).uid === created!.metadata.uid)) status.active = [...(status.active ?? []), ref];
      statusChanged = true;
    }
    if (statusChanged) {
      try {
        await deps.client.space(key.tenant).namespace(key.namespace).resource(cronJobs).updateStatus({ ...cronJob, status });
      } catch (err) {
        if (isConflict(err)) return requeue;
        if (isNotFound(err)) return done;
        throw err;
      }
    }
    return plan.requeueAfterMs !== undefined ? requeueAfter(plan.requeueAfterMs) : done;
  };

  const controller = new Controller({ name: 'cronjob', reconcile, log: deps.log });
  deps.cronJobs.onChange((key, obj) => {
    if (obj) controller.enqueue(key);
  });
  deps.jobs.onChange((_key, job, previous) => {
    const owner = controllerKeyOf((job ?? previous)!, 'CronJob', 'batch');
    if (owner) controller.enqueue(owner);
  });
  return controller;
}
