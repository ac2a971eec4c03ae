import { describe, expect, it } from 'vitest';
import { CREATED, NOW, cells, headers } from '../apps/testing.js';
import { pods } from './pod.js';
import type { ContainerStatus, Pod } from './types.js';

const minutesBefore = (m: number): string => new Date(NOW - m * 60_000).toISOString().replace('.000Z', 'Z');

function pod(statuses: ContainerStatus[], extra: Partial<Pod> = {}): Pod {
  return {
    metadata: { name: 'web-1', namespace: 'default', creationTimestamp: CREATED },
    spec: { containers: statuses.map((s) => ({ name: s.name, image: 'nginx:1.25' })), nodeName: 'node-1' },
    status: { phase: 'Running', podIPs: [{ ip: '10.244.0.5' }], containerStatuses: statuses },
    ...extra,
  };
}

const running = (name: string, ready = true, restartCount = 0): ContainerStatus => ({ name, ready, restartCount, state: { running: { startedAt: CREATED } } });

describe('pod columns', () => {
  it('has kubectl’s headers', () => {
    expect(headers(pods)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(headers(pods, true)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
  });

  it('renders a running pod', () => {
    expect(cells(pods, pod([running('web'), running('sidecar', false)]))).toEqual(['web-1', '1/2', 'Running', '0', '10m', '10.244.0.5', 'node-1', '<none>', '<none>']);
  });

  it('shows restarts with the time of the last one', () => {
    const crashed: ContainerStatus = {
      name: 'web',
      ready: false,
      restartCount: 4,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: minutesBefore(2) } },
    };
    expect(cells(pods, pod([crashed])).slice(1, 4)).toEqual(['0/1', 'CrashLoopBackOff', '4 (2m ago)']);
  });

  it('summarizes a completed container by its reason or exit code', () => {
    const done: ContainerStatus = { name: 'job', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const killed: ContainerStatus = { name: 'job', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, signal: 9 } } };
    expect(cells(pods, pod([done]))[2]).toBe('Completed');
    expect(cells(pods, pod([killed]))[2]).toBe('Signal:9');
  });

  it('shows init progress', () => {
    const p = pod([{ name: 'web', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }]);
    p.spec!.initContainers = [
      { name: 'migrate', image: 'busybox' },
      { name: 'seed', image: 'busybox' },
    ];
    p.status!.initContainerStatuses = [
      { name: 'migrate', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      { name: 'seed', ready: false, restartCount: 0, state: { running: { startedAt: CREATED } } },
    ];
    expect(cells(pods, p)[2]).toBe('Init:1/2');
  });

  it('shows a pod being deleted as Terminating', () => {
    const p = pod([running('web')]);
    p.metadata.deletionTimestamp = minutesBefore(1);
    expect(cells(pods, p)[2]).toBe('Terminating');
  });

  it('shows a new pod as Pending without an IP', () => {
    const p: Pod = { metadata: { name: 'web-1', creationTimestamp: CREATED }, spec: { containers: [{ name: 'web', image: 'nginx' }] }, status: { phase: 'Pending' } };
    expect(cells(pods, p)).toEqual(['web-1', '0/1', 'Pending', '0', '10m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('counts passing readiness gates', () => {
    const p = pod([running('web')]);
    p.spec!.readinessGates = [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }];
    p.status!.conditions = [{ type: 'example.com/lb', status: 'True' }];
    expect(cells(pods, p)[8]).toBe('1/2');
  });
});
