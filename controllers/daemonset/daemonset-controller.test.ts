/**
 * The DaemonSet controller in the server's controller manager: a pod pinned to each eligible
 * node (nodeSelector, taints against tolerations, the daemon tolerations added), more as nodes
 * come, status counts, a rolling update within maxUnavailable; and the multi-tenant policy: a
 * DaemonSet outside the system space is refused at admission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../api/kinds/apps/daemonset.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { ApiError } from '../../api/status.js';
import { eventually, startWorkloadTestServer, type WorkloadTestServer } from '../../src/testing/workload-test-server.js';
import { FakeEvents } from '../runtime/fake-event-recorder.js';
import { targetNodeName } from './node-eligibility.js';

const daemonSet = (name: string, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, namespace: 'kube-system' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'agent', image: 'agent:1' }], ...podSpec } },
    ...spec,
  },
});

const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  spec: taints.length ? { taints } : {},
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('daemonset controller', () => {
  let s: WorkloadTestServer;
  const events = new FakeEvents();
  const daemonPods = async (app: string) => (await s.list<Pod>('', 'pods', 'system', 'kube-system')).filter((p) => p.metadata.labels?.app === app);
  const nodesOf = async (app: string) => (await daemonPods(app)).map((p) => targetNodeName(p.spec)).sort();
  const readSet = (name: string) => s.read<DaemonSet>('apps', 'daemonsets', { tenant: 'system', namespace: 'kube-system', name });

  beforeAll(async () => {
    s = await startWorkloadTestServer({ eventRecorderFor: events.for });
    for (const n of [node('n1'), node('n2', { disk: 'ssd' }), node('n3', {}, [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }])]) {
      await s.create('', 'nodes', '', n);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it('puts one pod on each eligible node, pinned by node affinity, with the daemon tolerations', async () => {
    await s.create('apps', 'daemonsets', 'system', daemonSet('agent'));
    await eventually(async () => expect(await nodesOf('agent')).toEqual(['n1', 'n2']));
    const [pod] = await daemonPods('agent');
    expect(pod!.spec?.affinity).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [targetNodeName(pod!.spec)] }] }] } },
    });
    expect(pod!.spec?.nodeName).toBeUndefined(); // the scheduler binds it
    expect(pod!.spec?.tolerations).toEqual(
      expect.arrayContaining([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ]),
    );
    expect(pod!.metadata.labels).toMatchObject({ 'pod-template-generation': '1' });
    expect(pod!.metadata.labels?.['controller-revision-hash']).toMatch(/^[a-z0-9]+$/);
    expect(pod!.metadata.generateName).toBe('agent-');
    await eventually(async () =>
      expect((await readSet('agent'))?.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 0, updatedNumberScheduled: 2, numberMisscheduled: 0, numberUnavailable: 2 }),
    );
    expect(events.notes('SuccessfulCreate', { tenant: 'system', name: 'agent' })).toHaveLength(2);
  });

  it('follows nodeSelector and tolerations, and new nodes', async () => {
    await s.create('apps', 'daemonsets', 'system', daemonSet('ssd', {}, { nodeSelector: { disk: 'ssd' } }));
    await s.create('apps', 'daemonsets', 'system', daemonSet('db', {}, { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }] }));
    await eventually(async () => expect(await nodesOf('ssd')).toEqual(['n2']));
    await eventually(async () => expect(await nodesOf('db')).toEqual(['n1', 'n2', 'n3']));
    await s.create('', 'nodes', '', node('n4', { disk: 'ssd' }));
    await eventually(async () => expect(await nodesOf('ssd')).toEqual(['n2', 'n4']));
    await eventually(async () => expect(await nodesOf('agent')).toEqual(['n1', 'n2', 'n4']));
  });

  it('rolls an update one node at a time (maxUnavailable 1), once pods are available', async () => {
    for (const p of await daemonPods('agent')) await s.setPodPhase(p, 'Running');
    await eventually(async () => expect((await readSet('agent'))?.status).toMatchObject({ numberReady: 3, numberAvailable: 3 }));
    const oldHash = (await daemonPods('agent'))[0]!.metadata.labels!['controller-revision-hash'];
    await s.server.plane.generic.mutate(s.kind('apps', 'daemonsets'), { tenant: 'system', namespace: 'kube-system', name: 'agent' }, (obj) => {
      const next = structuredClone(obj) as DaemonSet;
      next.spec!.template!.spec!.containers![0]!.image = 'agent:2';
      return next;
    });
    for (let updated = 1; updated <= 3; updated += 1) {
      await eventually(async () => {
        const pods = await daemonPods('agent');
        const fresh = pods.filter((p) => p.metadata.labels?.['controller-revision-hash'] !== oldHash);
        expect(fresh).toHaveLength(updated);
        // Never more than one node without an available pod.
        expect(pods.filter((p) => p.status?.phase !== 'Running').length).toBeLessThanOrEqual(1);
        expect(pods).toHaveLength(3);
      });
      const pending = (await daemonPods('agent')).find((p) => p.status?.phase !== 'Running');
      if (pending) await s.setPodPhase(pending, 'Running');
    }
    await eventually(async () => expect((await readSet('agent'))?.status).toMatchObject({ updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 2 }));
    expect((await daemonPods('agent')).every((p) => p.spec?.containers?.[0]?.image === 'agent:2' && p.metadata.labels?.['pod-template-generation'] === '2')).toBe(true);
  });

  it('refuses a DaemonSet in a tenant space: nodes are shared by every space', async () => {
    const err = await s.create('apps', 'daemonsets', 't1', { ...daemonSet('spy'), metadata: { name: 'spy', namespace: 'default' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect((err as ApiError).message).toBe(
      'daemonsets.apps "spy" is forbidden: DaemonSets may only be created in the system space: they run a pod on every node, and nodes are shared by all spaces',
    );
    expect(await s.list('apps', 'daemonsets', 't1')).toEqual([]);
  });
});
