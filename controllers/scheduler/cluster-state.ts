/**
 * The scheduler's view of where pods are (kube-scheduler's cache): per node, the pods placed on it
 * from every space and what they request, kept incrementally from the pods informer, plus the
 * pods this scheduler has assumed onto a node while their binding is on its way, so two pods
 * scheduled in quick succession never both take a node's last slot. An assumed pod is replaced by
 * the informer's copy once its binding is seen, and dropped if the binding fails. Pods that
 * finished (Succeeded, Failed) no longer hold their node's resources.
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { keyString, type ObjectKey } from '../../src/client/object-key.js';
import type { NodeInfo } from './filters.js';
import { add, podRequests, type Resources } from './pod-requests.js';

interface NodePods {
  pods: Map<string, Pod>;
  requested: Resources;
  requestedNonZero: Resources;
}

export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

export class ClusterState {
  private readonly byNode = new Map<string, NodePods>();
  /** Pod key → the node it holds resources on. */
  private readonly placed = new Map<string, { node: string; pod: Pod }>();
  private readonly assumed = new Set<string>();

  /** A change seen by the pods informer (`pod` undefined once deleted). */
  podChanged(key: ObjectKey, pod: Pod | undefined): void {
    const k = keyString(key);
    const node = pod?.spec?.nodeName;
    if (pod && node && !isTerminal(pod)) {
      this.assumed.delete(k);
      this.place(k, node, pod);
    } else if (!pod || !this.assumed.has(k) || isTerminal(pod)) {
      // An assumed pod's own updates before its binding is seen (its status) keep the assumption.
      this.assumed.delete(k);
      this.remove(k);
    }
  }

  /** Counts the pod on `node` until its binding is seen (or `forget`). */
  assume(key: ObjectKey, pod: Pod, node: string): void {
    const k = keyString(key);
    this.assumed.add(k);
    this.place(k, node, { ...pod, spec: { ...pod.spec, nodeName: node } });
  }

  isAssumed(key: ObjectKey): boolean {
    return this.assumed.has(keyString(key));
  }

  /** The binding failed: the pod holds nothing. */
  forget(key: ObjectKey): void {
    const k = keyString(key);
    if (!this.assumed.delete(k)) return;
    this.remove(k);
  }

  nodeInfo(node: Node): NodeInfo {
    const entry = this.byNode.get(node.metadata.name ?? '');
    return {
      node,
      pods: () => entry?.pods.values() ?? [],
      podCount: entry?.pods.size ?? 0,
      requested: entry?.requested ?? new Map(),
      requestedNonZero: entry?.requestedNonZero ?? new Map(),
    };
  }

  private place(k: string, node: string, pod: Pod): void {
    this.remove(k);
    let entry = this.byNode.get(node);
    if (!entry) this.byNode.set(node, (entry = { pods: new Map(), requested: new Map(), requestedNonZero: new Map() }));
    entry.pods.set(k, pod);
    add(entry.requested, podRequests(pod));
    add(entry.requestedNonZero, podRequests(pod, true));
    this.placed.set(k, { node, pod });
  }

  private remove(k: string): void {
    const was = this.placed.get(k);
    if (!was) return;
    this.placed.delete(k);
    const entry = this.byNode.get(was.node)!;
    entry.pods.delete(k);
    add(entry.requested, podRequests(was.pod), -1);
    add(entry.requestedNonZero, podRequests(was.pod, true), -1);
    if (entry.pods.size === 0) this.byNode.delete(was.node);
  }
}
