/**
 * The TTL-after-finished controller (kube's `ttl-after-finished-controller`), one instance over
 * every space: a finished Job (Complete or Failed) with `spec.ttlSecondsAfterFinished` is deleted,
 * with background propagation so its pods go too, once that many seconds have passed since it
 * finished. Before deleting, it reads the job again from the server (the TTL may have changed)
 * and deletes with the uid as precondition, so a same-named newer job is never touched.
 */
import { jobs, type Job } from '../../api/kinds/batch/job.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { JobCondition2 } from '../job/job-sync.js';

export interface TtlAfterFinishedDeps {
  /** Acts as system:controller:ttl-after-finished-controller. */
  client: KubeClient;
  jobs: Informer;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
}

/** When the job finished (its Complete or Failed condition's transition), or undefined while it runs. */
export function finishTime(job: Job): number | undefined {
  const cond = ((job.status?.conditions ?? []) as JobCondition2[]).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!cond) return undefined;
  const t = Date.parse(cond.lastTransitionTime ?? job.status?.completionTime ?? '');
  return Number.isNaN(t) ? undefined : t;
}

/** Milliseconds until the job expires (≤ 0: now), or undefined when it has no TTL or has not finished. */
export function timeLeft(job: Job, now: number): number | undefined {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl == null || job.metadata.deletionTimestamp) return undefined;
  const finished = finishTime(job);
  if (finished === undefined) return undefined;
  return finished + ttl * 1000 - now;
}

export function ttlAfterFinishedController(deps: TtlAfterFinishedDeps): Controller {
  const clock = deps.clock ?? realClock;
  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const cached = deps.jobs.get(key) as Job | undefined;
    if (!cached) return done;
    const left = timeLeft(cached, clock.now());
    if (left === undefined) return done;
    if (left > 0) return requeueAfter(left);
    const client = deps.client.space(key.tenant).namespace(key.namespace).resource(jobs);
    try {
      // The cache may be stale: the TTL may have been changed or removed meanwhile.
      const fresh = await client.get(key.name);
      const freshLeft = timeLeft(fresh, clock.now());
      if (freshLeft === undefined) return done;
      if (freshLeft > 0) return requeueAfter(freshLeft);
      await client.delete(key.name, { propagationPolicy: 'Background', preconditions: { uid: fresh.metadata.uid } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return done;
      throw err;
    }
    return done;
  };
  const controller = new Controller({ name: 'ttl-after-finished', reconcile, log: deps.log });
  deps.jobs.onChange((key, job) => {
    if (job && (job as Job).spec?.ttlSecondsAfterFinished != null) controller.enqueue(key);
  });
  return controller;
}
