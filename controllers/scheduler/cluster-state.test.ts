/**
 * The per-node counts of pods by controller that spreading reads: kept through every way a pod
 * comes, moves and goes (assumed, bound, rebound, finished, deleted, a failed binding), and always
 * equal to counting the node's pods one by one.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import type { OwnerReference } from '../../api/registry/object.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { ClusterState, controllerKey } from './cluster-state.js';

const node = (name: string): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
const controlledBy = (uid: string): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid, controller: true });

function pod(name: string, refs: OwnerReference[], over: { tenant?: string; nodeName?: string; phase?: string } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', tenant: over.tenant ?? 't1', uid: `uid-${name}`, ownerReferences: refs },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...(over.nodeName ? { nodeName: over.nodeName } : {}) },
    ...(over.phase ? { status: { phase: over.phase } } : {}),
  };
}

const keyOfPod = (p: Pod): ObjectKey => ({ tenant: p.metadata.tenant!, namespace: p.metadata.namespace!, name: p.metadata.name! });

/** What the count must be: the node's pods counted one by one. */
function counted(state: ClusterState, nodeName: string, controller: string): number {
  let count = 0;
  for (const p of state.nodeInfo(node(nodeName)).pods()) {
    const refs = (p.metadata.ownerReferences ?? []).filter((r) => r.controller && r.uid !== undefined);
    if (refs.some((r) => controllerKey(p.metadata.tenant, p.metadata.namespace, r.uid) === controller)) count += 1;
  }
  return count;
}

function expectCounts(state: ClusterState, expected: Record<string, Record<string, number>>): void {
  for (const [nodeName, byController] of Object.entries(expected)) {
    for (const [controller, count] of Object.entries(byController)) {
      expect(state.nodeInfo(node(nodeName)).podsControlledBy(controller), `${nodeName} ${controller}`).toBe(count);
      expect(counted(state, nodeName, controller), `${nodeName} ${controller} counted`).toBe(count);
    }
  }
}

const rs1 = controllerKey('t1', 'default', 'rs-1');
const rs2 = controllerKey('t1', 'default', 'rs-2');
const rs1OfT2 = controllerKey('t2', 'default', 'rs-1');

describe('pods counted by controller per node', () => {
  it('counts bound pods under their own space and controller only', () => {
    const state = new ClusterState();
    const placed = [
      pod('a', [controlledBy('rs-1')], { nodeName: 'n1' }),
      pod('b', [controlledBy('rs-1')], { nodeName: 'n1' }),
      pod('c', [controlledBy('rs-1')], { nodeName: 'n2' }),
      pod('d', [controlledBy('rs-2')], { nodeName: 'n1' }),
      pod('e', [controlledBy('rs-1')], { nodeName: 'n1', tenant: 't2' }),
      // Not a controller: owned, but spreading ignores it.
      pod('f', [{ ...controlledBy('rs-1'), controller: false }], { nodeName: 'n1' }),
    ];
    for (const p of placed) state.podChanged(keyOfPod(p), p);
    expectCounts(state, { n1: { [rs1]: 2, [rs2]: 1, [rs1OfT2]: 1 }, n2: { [rs1]: 1, [rs2]: 0 }, n3: { [rs1]: 0 } });
  });

  it('counts a pod naming the same controller twice once', () => {
    const state = new ClusterState();
    const p = pod('a', [controlledBy('rs-1'), { ...controlledBy('rs-1'), name: 'again' }], { nodeName: 'n1' });
    state.podChanged(keyOfPod(p), p);
    expectCounts(state, { n1: { [rs1]: 1 } });
  });

  it('follows a pod from assumed to bound, to another node, to finished and deleted', () => {
    const state = new ClusterState();
    const p = pod('a', [controlledBy('rs-1')]);
    const key = keyOfPod(p);
    state.assume(key, p, 'n1');
    expectCounts(state, { n1: { [rs1]: 1 } });
    // Its own status write before the binding is seen keeps it counted, once.
    state.podChanged(key, p);
    expectCounts(state, { n1: { [rs1]: 1 } });
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n1' } });
    expectCounts(state, { n1: { [rs1]: 1 } });
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n2' } });
    expectCounts(state, { n1: { [rs1]: 0 }, n2: { [rs1]: 1 } });
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n2' }, status: { phase: 'Succeeded' } });
    expectCounts(state, { n2: { [rs1]: 0 } });
    state.podChanged(key, { ...p, spec: { ...p.spec, nodeName: 'n2' } });
    expectCounts(state, { n2: { [rs1]: 1 } });
    state.podChanged(key, undefined);
    expectCounts(state, { n2: { [rs1]: 0 } });
  });

  it('drops an assumed pod whose binding failed, and a pod whose controller changed counts under the new one', () => {
    const state = new ClusterState();
    const p = pod('a', [controlledBy('rs-1')]);
    state.assume(keyOfPod(p), p, 'n1');
    state.forget(keyOfPod(p));
    expectCounts(state, { n1: { [rs1]: 0 } });
    const bound = pod('b', [controlledBy('rs-1')], { nodeName: 'n1' });
    state.podChanged(keyOfPod(bound), bound);
    state.podChanged(keyOfPod(bound), { ...bound, metadata: { ...bound.metadata, ownerReferences: [controlledBy('rs-2')] } });
    expectCounts(state, { n1: { [rs1]: 0, [rs2]: 1 } });
  });
});
