/**
 * The DaemonSet controller's decisions without a server: node eligibility (selectors, affinity,
 * taints and the daemon tolerations), surge updates, misscheduled pods and status counts.
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../api/kinds/apps/daemonset.js';
import type { Node, Taint } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { daemonPod, planDaemonSet } from './daemonset-sync.js';
import { nodeShouldRunDaemonPod } from './node-eligibility.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const node = (name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node => ({ metadata: { name, labels }, spec: { taints } });

function set(image: string, strategy: Record<string, unknown> = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, podSpec: Record<string, unknown> = {}): DaemonSet {
  return {
    metadata: { name: 'agent', namespace: 'kube-system', tenant: 'system', uid: 'ds-uid', generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }], ...podSpec } }, updateStrategy: strategy },
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  } as DaemonSet;
}

let n = 0;
function running(s: DaemonSet, nodeName: string, hash: string, ready = true): Pod {
  n += 1;
  const pod = daemonPod(s, nodeName, hash);
  pod.metadata.name = `agent-${n}`;
  pod.metadata.uid = `uid-${n}`;
  pod.metadata.creationTimestamp = `2025-12-31T00:00:${String(n).padStart(2, '0')}Z`;
  pod.spec!.nodeName = nodeName;
  pod.status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  // Pods of an older template carry an older template generation.
  if (hash === 'oldhash') pod.metadata.labels!['pod-template-generation'] = '0';
  return pod;
}

describe('DaemonSet controller decisions', () => {
  it('judges nodes as kube: selectors and affinity, NoSchedule keeps running pods, NoExecute evicts', () => {
    const spec = { containers: [], nodeSelector: { disk: 'ssd' } };
    expect(nodeShouldRunDaemonPod(spec, node('a', { disk: 'ssd' }))).toEqual({ shouldRun: true, shouldContinueRunning: true });
    expect(nodeShouldRunDaemonPod(spec, node('b'))).toEqual({ shouldRun: false, shouldContinueRunning: false });
    const plain = { containers: [] };
    expect(nodeShouldRunDaemonPod(plain, node('c', {}, [{ key: 'k', effect: 'NoSchedule' }]))).toEqual({ shouldRun: false, shouldContinueRunning: true });
    expect(nodeShouldRunDaemonPod(plain, node('d', {}, [{ key: 'k', effect: 'NoExecute' }]))).toEqual({ shouldRun: false, shouldContinueRunning: false });
    // The daemon tolerations: an unschedulable or not-ready node still runs its daemon pod.
    expect(nodeShouldRunDaemonPod(plain, node('e', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }])).shouldRun).toBe(true);
    const affinity = { containers: [], affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }] } } } };
    expect(nodeShouldRunDaemonPod(affinity, node('f', { zone: 'b' })).shouldRun).toBe(true);
    expect(nodeShouldRunDaemonPod(affinity, node('g', { zone: 'c' })).shouldRun).toBe(false);
  });

  it('counts status per node, and removes pods from nodes that may not keep them', () => {
    const s = set('v1');
    const first = planDaemonSet({ set: s, nodes: [node('a'), node('b')], pods: [], revisions: [], now: NOW, expectationsSatisfied: true });
    expect(first.createOn).toEqual(['a', 'b']);
    const hash = first.hash;
    const evicting = node('b', {}, [{ key: 'gone', effect: 'NoExecute' }]);
    const pods = [running(s, 'a', hash), running(s, 'b', hash)];
    const plan = planDaemonSet({ set: s, nodes: [node('a'), evicting], pods, revisions: [first.createRevision!], now: NOW, expectationsSatisfied: true });
    expect(plan.deletePods).toEqual([pods[1]]);
    expect(plan.status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 1, numberReady: 1, numberAvailable: 1, updatedNumberScheduled: 1, numberUnavailable: 0 });
  });

  it('with maxSurge, starts the new pod beside the old one and deletes the old once it is available', () => {
    const s = set('v2', { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    const old = running(s, 'a', 'oldhash');
    const old2 = running(s, 'b', 'oldhash');
    const first = planDaemonSet({ set: s, nodes: [node('a'), node('b')], pods: [old, old2], revisions: [], now: NOW, expectationsSatisfied: true });
    expect(first.createOn).toEqual(['a']);
    expect(first.deletePods).toEqual([]);
    const fresh = running(s, 'a', first.hash, false);
    const waiting = planDaemonSet({ set: s, nodes: [node('a'), node('b')], pods: [old, old2, fresh], revisions: [first.createRevision!], now: NOW, expectationsSatisfied: true });
    expect(waiting.createOn).toEqual([]);
    expect(waiting.deletePods).toEqual([]);
    const ready = { ...fresh, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
    const done = planDaemonSet({ set: s, nodes: [node('a'), node('b')], pods: [old, old2, ready], revisions: [first.createRevision!], now: NOW, expectationsSatisfied: true });
    expect(done.deletePods).toEqual([old]);
  });

  it('keeps one pod per node, the oldest, and creates nothing while expectations are pending', () => {
    const s = set('v1');
    const hash = planDaemonSet({ set: s, nodes: [], pods: [], revisions: [], now: NOW, expectationsSatisfied: true }).hash;
    const a1 = running(s, 'a', hash);
    const a2 = running(s, 'a', hash);
    expect(planDaemonSet({ set: s, nodes: [node('a')], pods: [a1, a2], revisions: [], now: NOW, expectationsSatisfied: true }).deletePods).toEqual([a2]);
    expect(planDaemonSet({ set: s, nodes: [node('a'), node('b')], pods: [], revisions: [], now: NOW, expectationsSatisfied: false }).createOn).toEqual([]);
  });
});
