/**
 * The Job controller: one instance over every space (kube's `job-controller`), level-based on the
 * shared Job and Pod informers. Each reconcile reads the job and the pods it controls (found by
 * `<tenant>/<job uid>`, never by name), plans with `planJob` (job-sync.ts) and carries the plan
 * out as `system:controller:job-controller`: pods created and deleted (with expectations, so a
 * lagging cache never doubles them), the status written only when it changed, tracking finalizers
 * removed after the status that counts their pods is stored, and events recorded.
 */
import { jobs, type Job } from '../../api/kinds/batch/job.js';
import { pods as podKind } from '../../api/kinds/core/pod.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import { keyString, type ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { Controller, done, requeue, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';
import { Expectations } from '../runtime/expectations.js';
import type { Informer } from '../runtime/informer.js';
import { CONTROLLER_INDEX, controllerIndexFunc, controllerIndexValue, controllerKeyOf, newControllerRef } from '../runtime/owner-references.js';
import { generateNamePrefix, podFromTemplate } from '../runtime/pod-template.js';
import {
  COMPLETION_INDEX_ANNOTATION,
  COMPLETION_INDEX_LABEL,
  JOB_TRACKING_FINALIZER,
  hasTrackingFinalizer,
  planJob,
  type BackoffRecord,
  type JobPlan,
} from './job-sync.js';

export interface JobControllerDeps {
  /** Acts as system:controller:job-controller. */
  client: KubeClient;
  jobs: Informer;
  pods: Informer;
  events: EventRecorder;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
  /** First delay before a failed pod is replaced, doubling per failure (kube: 10 s). */
  backoffBaseMs?: number;
  workers?: number;
}

const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** A pod for the job, as kube's job controller makes it (generateName, finalizer, completion index). */
export function jobPod(job: Job, index: number | undefined): Pod {
  const pod = podFromTemplate(job.spec?.template, job, newControllerRef(job, 'batch/v1', 'Job'));
  const name = job.metadata.name ?? '';
  pod.metadata.finalizers = [...(pod.metadata.finalizers ?? []), JOB_TRACKING_FINALIZER];
  if (index === undefined) {
    pod.metadata.generateName = generateNamePrefix(name);
    return pod;
  }
  pod.metadata.generateName = generateNamePrefix(`${name}-${index}`);
  pod.metadata.annotations = { ...pod.metadata.annotations, [COMPLETION_INDEX_ANNOTATION]: String(index) };
  pod.metadata.labels = { ...pod.metadata.labels, [COMPLETION_INDEX_LABEL]: String(index) };
  const spec = pod.spec!;
  spec.hostname ||= `${name}-${index}`;
  const env = { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } };
  for (const container of [...(spec.containers ?? []), ...(spec.initContainers ?? [])] as Array<{ env?: Array<{ name?: string }> }>) {
    if (!(container.env ?? []).some((e) => e.name === COMPLETION_INDEX_ENV)) container.env = [...(container.env ?? []), env];
  }
  return pod;
}

export function jobController(deps: JobControllerDeps): Controller {
  const clock = deps.clock ?? realClock;
  const expectations = new Expectations(clock);
  const backoffs = new Map<string, BackoffRecord>();
  deps.pods.addIndexers({ [CONTROLLER_INDEX]: controllerIndexFunc });
  const podLister = deps.pods.lister<Pod>();
  const jobLister = deps.jobs.lister<Job>();

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const job = jobLister.get(key);
    if (!job) {
      expectations.forget(key);
      backoffs.delete(keyString(key));
      await releaseOrphans(key);
      return done;
    }
    const owned = podLister.byIndex(CONTROLLER_INDEX, controllerIndexValue(job));
    const plan = planJob({
      job,
      pods: owned,
      now: clock.now(),
      backoff: backoffs.get(keyString(key)) ?? { failures: 0, lastFailure: 0 },
      backoffBaseMs: deps.backoffBaseMs ?? 10_000,
      expectationsSatisfied: expectations.satisfied(key),
    });
    backoffs.set(keyString(key), plan.backoff);
    const result = await execute(key, job, plan);
    if (result.kind !== 'done') return result;
    return plan.requeueAfterMs !== undefined ? requeueAfter(plan.requeueAfterMs + 10) : done;
  };

  const podsOf = (key: ObjectKey) => deps.client.space(key.tenant).namespace(key.namespace).resource(podKind);

  const execute = async (key: ObjectKey, job: Job, plan: JobPlan): Promise<ReconcileResult> => {
    const podClient = podsOf(key);
    let created = 0;
    if (plan.delete.length > 0) {
      expectations.expect(key, { deletes: plan.delete.length });
      for (const pod of plan.delete) {
        try {
          await podClient.delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
          deps.events.record({ regarding: job, related: pod, type: 'Normal', reason: 'SuccessfulDelete', action: 'Delete', note: `Deleted pod: ${pod.metadata.name}` });
        } catch (err) {
          expectations.observeDelete(key);
          if (!isNotFound(err) && !isConflict(err)) throw err;
        }
      }
    }
    if (plan.create.length > 0) {
      expectations.expect(key, { adds: plan.create.length });
      for (const { index } of plan.create) {
        try {
          const pod = await podClient.create(jobPod(job, index));
          created += 1;
          deps.events.record({ regarding: job, related: pod, type: 'Normal', reason: 'SuccessfulCreate', action: 'Create', note: `Created pod: ${pod.metadata.name}` });
        } catch (err) {
          expectations.observeAdd(key);
          deps.events.record({ regarding: job, type: 'Warning', reason: 'FailedCreate', action: 'Create', note: `Error creating: ${(err as Error).message}` });
          throw err;
        }
      }
    }
    if (plan.status || created > 0) {
      const base = plan.status ?? job.status ?? {};
      const status = { ...base, active: ((base.active as number | undefined) ?? 0) + created };
      try {
        await deps.client.space(key.tenant).namespace(key.namespace).resource(jobs).updateStatus({ ...job, status });
      } catch (err) {
        if (isConflict(err) || isNotFound(err)) return requeue;
        throw err;
      }
    }
    for (const pod of plan.removeFinalizers) await removeFinalizer(key, pod);
    for (const event of plan.events) deps.events.record({ regarding: job, ...event });
    return done;
  };

  const removeFinalizer = async (key: ObjectKey, pod: Pod): Promise<void> => {
    try {
      await podsOf(key).patch(pod.metadata.name!, 'strategic', { metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  };

  /** Pods of a job that is gone keep no tracking finalizer (kube: orphan pods are finalized). */
  const releaseOrphans = async (key: ObjectKey): Promise<void> => {
    for (const pod of podLister.list({ tenant: key.tenant, namespace: key.namespace })) {
      const owner = controllerKeyOf(pod, 'Job', 'batch');
      if (owner?.name === key.name && hasTrackingFinalizer(pod)) await removeFinalizer(key, pod);
    }
  };

  const controller = new Controller({ name: 'job', reconcile, log: deps.log, workers: deps.workers ?? 2 });
  deps.jobs.onChange((key) => controller.enqueue(key), { resyncMs: 5 * 60_000 });
  deps.pods.onChange((_key, pod, previous) => {
    const current = (pod ?? previous) as Pod;
    const owner = controllerKeyOf(current, 'Job', 'batch');
    if (!owner) return;
    if (pod && !previous) expectations.observeAdd(owner);
    if ((!pod && !previous?.metadata.deletionTimestamp) || (pod?.metadata.deletionTimestamp && !previous?.metadata.deletionTimestamp)) expectations.observeDelete(owner);
    controller.enqueue(owner);
  });
  return controller;
}
