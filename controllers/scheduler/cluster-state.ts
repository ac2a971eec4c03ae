/**
 * The scheduler's view of where pods are (kube-scheduler's cache): per node, the pods placed on it
 * from every space and what they request, kept incrementally from the pods informer, plus the
 * pods this scheduler has assumed onto a node while their binding is on its way, so two pods
 * scheduled in quick succession never both take a node's last slot. An assumed pod is replaced by
 * the informer's copy once its binding is seen, and dropped if the binding fails. Pods that
 * finished (Succeeded, Failed) no longer hold their node's resources. Each node also counts its pods
 * by controller, so spreading a replica reads one number per node instead of every pod placed.
 */
import type { Node } from '../../api/kinds/core/node.js';
import type { Pod } from '../../api/kinds/core/types.js';
import { keyString, type ObjectKey } from '../../src/client/object-key.js';
import type { NodeInfo } from './filters.js';
import { add, podRequests, resourceList, type Resources } from './pod-requests.js';

interface NodePods {
  pods: Map<string, Pod>;
  requested: Resources;
  requestedNonZero: Resources;
  /** controllerKey → how many of the node's pods it controls. */
  controlled: Map<string, number>;
}

/**
 * Names the pods one controller owns: its uid within one space and namespace, as a reference in
 * another space naming the same uid makes no sibling. Neither part before the uid holds a '/'.
 */
export function controllerKey(tenant: string | undefined, namespace: string | undefined, uid: string): string {
  return `${tenant ?? ''}/${namespace ?? ''}/${uid}`;
}

/** The controllers the pod counts under, each once. */
function controllerKeysOf(pod: Pod): Set<string> {
  const keys = new Set<string>();
  for (const ref of pod.metadata.ownerReferences ?? []) {
    if (ref.controller && ref.uid !== undefined) keys.add(controllerKey(pod.metadata.tenant, pod.metadata.namespace, ref.uid));
  }
  return keys;
}

export function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

export class ClusterState {
  private readonly byNode = new Map<string, NodePods>();
  /** Pod key → the node it holds resources on. */
  private readonly placed = new Map<string, { node: string; pod: Pod }>();
  private readonly assumed = new Set<string>();
  /** Each Node object's allocatable, parsed once: the informer replaces the object when it changes. */
  private readonly allocatableOf = new WeakMap<Node, Resources>();

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
    let allocatable = this.allocatableOf.get(node);
    if (!allocatable) this.allocatableOf.set(node, (allocatable = resourceList(node.status?.allocatable as Record<string, string> | undefined)));
    return {
      node,
      allocatable,
      pods: () => entry?.pods.values() ?? [],
      podCount: entry?.pods.size ?? 0,
      requested: entry?.requested ?? new Map(),
      requestedNonZero: entry?.requestedNonZero ?? new Map(),
      podsControlledBy: (controller) => entry?.controlled.get(controller) ?? 0,
    };
  }

  private place(k: string, node: string, pod: Pod): void {
    this.remove(k);
    let entry = this.byNode.get(node);
    if (!entry) this.byNode.set(node, (entry = { pods: new Map(), requested: new Map(), requestedNonZero: new Map(), controlled: new Map() }));
    entry.pods.set(k, pod);
    add(entry.requested, podRequests(pod));
    add(entry.requestedNonZero, podRequests(pod, true));
    for (const controller of controllerKeysOf(pod)) entry.controlled.set(controller, (entry.controlled.get(controller) ?? 0) + 1);
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
    for (const controller of controllerKeysOf(was.pod)) {
      const left = entry.controlled.get(controller)! - 1;
      if (left === 0) entry.controlled.delete(controller);
      else entry.controlled.set(controller, left);
    }
    if (entry.pods.size === 0) this.byNode.delete(was.node);
  }
}
