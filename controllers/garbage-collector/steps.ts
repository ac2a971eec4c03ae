/**
 * What the garbage collector's reconcile steps share. A step looks at one object (a graph node) and
 * either answers for it or lets the next step look: `foreground`, `orphan`, then `background`, as
 * kcp orders its small reconcilers.
 */
import type { OwnerReference } from '../../api/registry/object.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ReconcileResult } from '../runtime/controller.js';
import type { OwnerKind } from './collected-kinds.js';
import type { GraphNode, OwnerGraph } from './graph.js';

export interface CollectorDeps {
  readonly graph: OwnerGraph;
  /** Acts as the garbage collector: every read of an owner and every write. */
  readonly client: KubeClient;
  /** Resolves a reference's group and kind in a space (any version of a kind the space serves maps to it). */
  ownerKind(tenant: string, ref: OwnerReference): OwnerKind;
  /** Queues a node to be reconciled (again). */
  enqueue(node: GraphNode): void;
}

export type Step = (deps: CollectorDeps, node: GraphNode) => Promise<ReconcileResult | 'continue'>;
