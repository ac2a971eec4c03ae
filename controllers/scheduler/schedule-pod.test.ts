/**
 * One scheduling cycle, as kube-scheduler decides and words it: each filter, the failure message
 * (reasons counted over the nodes and sorted, then preemption's verdict), scoring and its stable
 * tie-break, and the resources of pods already on a node, from every space, assumed ones included.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../api/kinds/core/node.js';
import type { Container, Pod } from '../../api/kinds/core/types.js';
import { ClusterState } from './cluster-state.js';
import { fitErrorMessage, truncateMessage } from './fit-error.js';
import { podRequests } from './pod-requests.js';
import { needsScheduling, schedulePod } from './scheduler.js';

const node = (name: string, over: { cpu?: string; memory?: string; pods?: string; labels?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints']; unschedulable?: boolean; ready?: string } = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...over.labels } },
  spec: { ...(over.taints ? { taints: over.taints } : {}), ...(over.unschedulable ? { unschedulable: true } : {}) },
  status: {
    allocatable: { cpu: over.cpu ?? '4', memory: over.memory ?? '8Gi', pods: over.pods ?? '110', 'ephemeral-storage': '100Gi' },
    conditions: over.ready === undefined ? [{ type: 'Ready', status: 'True' }] : over.ready === 'none' ? [] : [{ type: 'Ready', status: over.ready }],
  },
});

const container = (requests: Record<string, string> = {}, extra: Partial<Container> = {}): Container => ({ name: 'c', image: 'nginx', resources: { requests }, ...extra });
const pod = (name: string, spec: Pod['spec'] = {}, tenant = 't1'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', tenant, uid: `${tenant}-${name}` }, spec: { containers: [container()], ...spec } });

function infos(nodes: Node[], placed: Array<[Pod, string]> = [], state = new ClusterState()) {
  for (const [p, n] of placed) state.podChanged({ tenant: p.metadata.tenant!, namespace: 'default', name: p.metadata.name! }, { ...p, spec: { ...p.spec, nodeName: n } });
  return nodes.map((n) => state.nodeInfo(n));
}

describe('pod requests', () => {
  it('sums containers, takes the largest init container per resource, adds overhead, and limits stand for missing requests', () => {
    const p = pod('p', {
      containers: [container({ cpu: '250m', memory: '64Mi' }), { name: 'd', resources: { limits: { cpu: '500m' } } }],
      initContainers: [container({ cpu: '1', memory: '32Mi' })],
      overhead: { cpu: '100m' },
    } as Pod['spec']);
    expect(Object.fromEntries(podRequests(p))).toEqual({ cpu: 1100, memory: 64 * 1024 * 1024 });
    expect(Object.fromEntries(podRequests(pod('q'), true))).toEqual({ cpu: 100, memory: 200 * 1024 * 1024 });
  });
});

describe('filters', () => {
  it('places a pod on a node that fits, and binds nothing of pods already placed', () => {
    expect(schedulePod(pod('p'), infos([node('n1')]))).toEqual({ node: 'n1' });
    expect(needsScheduling(pod('p'))).toBe(true);
    expect(needsScheduling(pod('p', { nodeName: 'n1' }))).toBe(false);
    expect(needsScheduling(pod('p', { schedulerName: 'other' }))).toBe(false);
    expect(needsScheduling(pod('p', { schedulingGates: [{ name: 'g' }] }))).toBe(false);
  });

  it('counts the pods of every space on a node against its allocatable', () => {
    const big = (name: string, tenant: string) => pod(name, { containers: [container({ cpu: '3' })] }, tenant);
    const nodes = [node('n1')];
    expect(schedulePod(big('p', 't1'), infos(nodes, [[big('p', 't2'), 'n1']]))).toEqual({
      message: '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    });
    expect(schedulePod(pod('p', {}), infos([node('n1', { pods: '2' })], [[pod('a', {}, 't2'), 'n1'], [pod('b', {}, 't3'), 'n1']]))).toEqual({
      message: '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    });
  });

  it('refuses, with upstream words, a request larger than any node (preemption cannot help), and words every resource', () => {
    const huge = pod('p', { containers: [container({ cpu: '64', memory: '1Ti', 'ephemeral-storage': '1Pi', 'example.com/gpu': '1' })] });
    expect(schedulePod(huge, infos([node('n1'), node('n2'), node('n3')]))).toEqual({
      message:
        '0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient ephemeral-storage, 3 Insufficient example.com/gpu, 3 Insufficient memory. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    });
  });

  it('counts reasons over nodes, sorted as strings, with the first failing filter per node', () => {
    const nodes = [node('n1', { taints: [{ key: 'key', value: 'value', effect: 'NoSchedule' }] }), node('n2', { cpu: '2' }), node('n3', { cpu: '2' })];
    const busy: Array<[Pod, string]> = [[pod('x', { containers: [container({ cpu: '1500m' })] }, 't2'), 'n2'], [pod('y', { containers: [container({ cpu: '1500m' })] }, 't3'), 'n3']];
    expect(schedulePod(pod('p', { containers: [container({ cpu: '1' })] }), infos(nodes, busy))).toEqual({
      message:
        '0/3 nodes are available: 1 node(s) had untolerated taint {key: value}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    });
    expect(schedulePod(pod('p', { containers: [container({ cpu: '3' })] }), infos(nodes, busy))).toEqual({
      message: '0/3 nodes are available: 1 node(s) had untolerated taint {key: value}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    });
    expect(schedulePod(pod('q', { containers: [container({ cpu: '500m' })] }), infos(nodes, busy))).toEqual({ node: 'n2' });
  });

  it('honours tolerations: Equal and Exists, by effect; PreferNoSchedule never filters', () => {
    const tainted = [node('n1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, { key: 'soft', effect: 'PreferNoSchedule' }] })];
    expect(schedulePod(pod('p', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }), infos(tainted))).toEqual({ node: 'n1' });
    expect(schedulePod(pod('p', { tolerations: [{ key: 'dedicated', operator: 'Exists' }] }), infos(tainted))).toEqual({ node: 'n1' });
    expect(schedulePod(pod('p', { tolerations: [{ operator: 'Exists' }] }), infos(tainted))).toEqual({ node: 'n1' });
    expect(schedulePod(pod('p', { tolerations: [{ key: 'dedicated', value: 'cpu' }] }), infos(tainted))).toMatchObject({ message: expect.stringContaining('1 node(s) had untolerated taint {dedicated: gpu}') });
    expect(schedulePod(pod('p', { tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }] }), infos(tainted))).toMatchObject({ message: expect.stringContaining('untolerated taint {dedicated: gpu}') });
    const noExecute = [node('n1', { taints: [{ key: 'k', effect: 'NoExecute' }] })];
    expect(schedulePod(pod('p'), infos(noExecute))).toMatchObject({ message: expect.stringContaining('1 node(s) had untolerated taint {k: }') });
  });

  it('refuses unschedulable nodes unless the pod tolerates the unschedulable taint, and nodes that are not Ready', () => {
    expect(schedulePod(pod('p'), infos([node('n1', { unschedulable: true })]))).toEqual({
      message: '0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    });
    expect(schedulePod(pod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }), infos([node('n1', { unschedulable: true })]))).toEqual({ node: 'n1' });
    expect(schedulePod(pod('p'), infos([node('n1', { ready: 'False' }), node('n2', { ready: 'Unknown' }), node('n3', { ready: 'none' })]))).toEqual({
      message:
        '0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    });
  });

  it('matches nodeSelector and required node affinity: every operator, matchFields on the name', () => {
    const nodes = [node('n1', { labels: { zone: 'a', cores: '8' } }), node('n2', { labels: { zone: 'b', cores: '2' } }), node('n3')];
    const required = (terms: unknown[]) => pod('p', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });
    const placed = (p: Pod) => {
      const r = schedulePod(p, infos(nodes));
      return 'node' in r ? r.node : r.message;
    };
    expect(placed(pod('p', { nodeSelector: { zone: 'b' } }))).toBe('n2');
    expect(placed(required([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }]))).toBe('n2');
    expect(placed(required([{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a', 'b'] }] }]))).toBe('n3');
    expect(placed(required([{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }]))).toBe('n3');
    expect(placed(required([{ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['4'] }] }]))).toBe('n1');
    expect(placed(required([{ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['4'] }, { key: 'zone', operator: 'Exists' }] }]))).toBe('n2');
    expect(placed(required([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n3'] }] }, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['nowhere'] }] }]))).toBe('n3');
    expect(placed(required([{}]))).toBe(
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it('refuses a node whose host port is taken, by any pod of any space', () => {
    const withPort = (name: string, tenant = 't1', hostIP?: string) => pod(name, { containers: [container({}, { ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP', ...(hostIP ? { hostIP } : {}) }] })] }, tenant);
    expect(schedulePod(withPort('p'), infos([node('n1')], [[withPort('a', 't2'), 'n1']]))).toEqual({
      message: "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    });
    expect(schedulePod(withPort('p', 't1', '10.0.0.2'), infos([node('n1')], [[withPort('a', 't2', '10.0.0.1'), 'n1']]))).toEqual({ node: 'n1' });
  });

  it('answers kube’s message when there are no nodes, and for preemptionPolicy Never', () => {
    expect(schedulePod(pod('p'), [])).toEqual({ message: 'no nodes available to schedule pods' });
    expect(schedulePod(pod('p', { preemptionPolicy: 'Never' }), infos([node('n1', { unschedulable: true })]))).toEqual({
      message: '0/1 nodes are available: 1 node(s) were unschedulable. preemption: not eligible due to preemptionPolicy=Never.',
    });
    expect(fitErrorMessage(2, [{ reasons: ['Insufficient cpu', 'Insufficient memory'], unresolvable: false }, { reasons: ['Insufficient cpu'], unresolvable: true }])).toBe(
      '0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
    expect(truncateMessage('x'.repeat(2000))).toHaveLength(1024);
  });
});

describe('scoring', () => {
  it('prefers the least allocated node, then preferred affinity, avoids PreferNoSchedule, and breaks ties by name', () => {
    const nodes = [node('n2'), node('n1'), node('n3')];
    expect(schedulePod(pod('p'), infos(nodes))).toEqual({ node: 'n1' });
    expect(schedulePod(pod('p'), infos(nodes, [[pod('a', { containers: [container({ cpu: '2' })] }), 'n1']]))).toEqual({ node: 'n2' });
    const labelled = [node('n1'), node('n2', { labels: { disk: 'ssd' } })];
    const preferring = pod('p', { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } }] } } });
    expect(schedulePod(preferring, infos(labelled))).toEqual({ node: 'n2' });
    expect(schedulePod(pod('p'), infos([node('n1', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }), node('n2')]))).toEqual({ node: 'n2' });
  });

  it('counts an assumed pod until its binding is seen, and forgets it when the binding fails', () => {
    const state = new ClusterState();
    const nodes = [node('n1', { cpu: '1' })];
    const p = pod('p', { containers: [container({ cpu: '800m' })] });
    const key = { tenant: 't1', namespace: 'default', name: 'p' };
    state.assume(key, p, 'n1');
    // Its own status write (still unbound) keeps the assumption.
    state.podChanged(key, p);
    const second = pod('q', { containers: [container({ cpu: '800m' })] });
    expect(schedulePod(second, infos(nodes, [], state))).toMatchObject({ message: expect.stringContaining('1 Insufficient cpu') });
    state.forget(key);
    expect(schedulePod(second, infos(nodes, [], state))).toEqual({ node: 'n1' });
    state.assume(key, p, 'n1');
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n1' } });
    expect(state.isAssumed(key)).toBe(false);
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n1' }, status: { phase: 'Succeeded' } });
    expect(schedulePod(second, infos(nodes, [], state))).toEqual({ node: 'n1' });
  });
});

describe('spreading replicas', () => {
  const owned = (name: string, owner: string, tenant = 't1'): Pod => {
    const p = pod(name, {}, tenant);
    return { ...p, metadata: { ...p.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: owner, controller: true }] } };
  };
  const big = (name: string) => node(name, { cpu: '32', memory: '256Gi' });

  it('puts a replica on the node with fewest of its siblings, counting only its own space and owner', () => {
    // Equal allocation scores on big nodes: only the spread decides.
    expect(schedulePod(owned('r2', 'rs-1'), infos([big('n1'), big('n2')], [[owned('r1', 'rs-1'), 'n1']]))).toEqual({ node: 'n2' });
    // Another space's pods of a same-uid owner, and another owner's pods, are not siblings.
    const elsewhere: Array<[Pod, string]> = [[owned('x1', 'rs-1', 't2'), 'n2'], [owned('x2', 'rs-1', 't2'), 'n2'], [owned('y1', 'rs-2'), 'n2'], [owned('y2', 'rs-2'), 'n2']];
    expect(schedulePod(owned('r2', 'rs-1'), infos([big('n1'), big('n2')], [[owned('r1', 'rs-1'), 'n1'], ...elsewhere]))).toEqual({ node: 'n2' });
  });
});
