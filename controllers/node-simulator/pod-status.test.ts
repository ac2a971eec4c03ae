import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/kinds/core/types.js';
import { EXIT_CODE_ANNOTATION, podFinishes, simulatePod, type PodSimulationContext } from './pod-status.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const ctx = (now: number): PodSimulationContext => ({ now, podRuntimeMs: 5_000, hostIP: '10.240.0.1', podIP: '10.244.0.2' });

function pod(extra: { restartPolicy?: string; job?: boolean; exitCode?: string; gates?: string[]; inits?: number } = {}): Pod {
  return {
    metadata: {
      name: 'p',
      uid: 'u1',
      ...(extra.exitCode ? { annotations: { [EXIT_CODE_ANNOTATION]: extra.exitCode } } : {}),
      ...(extra.job ? { ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'j1', controller: true }] } : {}),
    },
    spec: {
      nodeName: 'sim-node-0',
      restartPolicy: extra.restartPolicy ?? 'Always',
      containers: [{ name: 'c', image: 'nginx:1.27' }],
      initContainers: Array.from({ length: extra.inits ?? 0 }, (_, i) => ({ name: `init-${i}`, image: 'busybox' })),
      readinessGates: (extra.gates ?? []).map((conditionType) => ({ conditionType })),
    },
    status: { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-12-31T23:59:59Z' }] },
  };
}

/** The pod after writing a step's status. */
const after = (p: Pod, now: number): { pod: Pod; recheckInMs: number | undefined } => {
  const step = simulatePod(p, ctx(now));
  return { pod: step.status ? { ...p, status: step.status } : p, recheckInMs: step.recheckInMs };
};
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);

describe('simulatePod', () => {
  it('starts a pod Running and Ready in one write, then writes nothing more', () => {
    const { pod: running, recheckInMs } = after(pod({ inits: 1 }), T0);
    expect(running.status).toMatchObject({ phase: 'Running', podIP: '10.244.0.2', podIPs: [{ ip: '10.244.0.2' }], hostIP: '10.240.0.1', startTime: '2026-01-01T00:00:00Z', qosClass: 'BestEffort' });
    expect(running.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    expect(condition(running, 'PodScheduled')?.lastTransitionTime).toBe('2025-12-31T23:59:59Z');
    expect(running.status?.containerStatuses?.[0]).toMatchObject({ name: 'c', ready: true, started: true, restartCount: 0, image: 'nginx:1.27', state: { running: { startedAt: '2026-01-01T00:00:00Z' } } });
    expect(running.status?.containerStatuses?.[0]?.containerID).toMatch(/^simulated:\/\/[0-9a-f]{64}$/);
    expect(running.status?.initContainerStatuses?.[0]).toMatchObject({ name: 'init-0', ready: true, state: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(recheckInMs).toBeUndefined();
    expect(simulatePod(running, ctx(T0 + 60_000))).toEqual({});
  });

  it('keeps Ready False until every readiness gate is True', () => {
    const { pod: running } = after(pod({ gates: ['example.com/ready'] }), T0);
    expect(condition(running, 'Ready')).toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/ready" does not exist.' });
    const gated: Pod = { ...running, status: { ...running.status, conditions: [...running.status!.conditions!, { type: 'example.com/ready', status: 'True' }] } };
    const { pod: ready } = after(gated, T0 + 1000);
    expect(condition(ready, 'Ready')?.status).toBe('True');
    expect(condition(ready, 'example.com/ready')?.status).toBe('True');
  });

  it.each([
    ['a Job pod', { job: true, restartPolicy: 'OnFailure' }],
    ['a restartPolicy Never pod', { restartPolicy: 'Never' }],
  ])('finishes %s after the runtime with exit code 0', (_name, extra) => {
    const { pod: running, recheckInMs } = after(pod(extra), T0);
    expect(recheckInMs).toBe(5_000);
    expect(simulatePod(running, ctx(T0 + 4_000)).status).toBeUndefined();
    const { pod: done } = after(running, T0 + 5_000);
    expect(done.status?.phase).toBe('Succeeded');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed', finishedAt: '2026-01-01T00:00:05Z' });
    expect(condition(done, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(simulatePod(done, ctx(T0 + 10_000))).toEqual({});
  });

  it('fails a Never pod with the annotation exit code, and restarts an OnFailure one', () => {
    const { pod: failed } = after(after(pod({ restartPolicy: 'Never', exitCode: '3' }), T0).pod, T0 + 5_000);
    expect(failed.status?.phase).toBe('Failed');
    expect(failed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    const { pod: restarted, recheckInMs } = after(after(pod({ restartPolicy: 'OnFailure', exitCode: '2' }), T0).pod, T0 + 5_000);
    expect(restarted.status?.phase).toBe('Running');
    expect(restarted.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 2, reason: 'Error' } }, state: { running: { startedAt: '2026-01-01T00:00:05Z' } } });
    expect(recheckInMs).toBe(5_000);
  });

  it('runs Always pods until deleted', () => {
    expect(podFinishes(pod())).toBe(false);
    expect(podFinishes(pod({ job: true, restartPolicy: 'Always' }))).toBe(true);
  });
});
