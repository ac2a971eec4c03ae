/**
 * What the garbage collector's reconcile steps share. A step looks at one object (a graph node) and
 * either answers for it or lets the next step look: `foreground`, `orphan`, then `background`, as
 * kcp orders its small reconcilers.
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { OwnerReference } from '../../api/registry/object.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import type { ReconcileResult } from '../runtime/controller.js';
import type { GraphNode, OwnerGraph } from './graph.js';

/**
 * The kind an ownerReference names: one the collector watches, one it leaves alone (tenants,
 * events: such a reference can never be judged), or none served at all.
 */
export type OwnerKind = { kind: 'collected'; def: ResourceDefinition } | { kind: 'outside' } | { kind: 'unknown' };

export interface CollectorDeps {
  readonly graph: OwnerGraph;
  readonly generic: GenericStore;
  /** Resolves a reference's group and kind (any version of a served kind maps to it). */
  ownerKind(ref: OwnerReference): OwnerKind;
  /** Queues a node to be reconciled (again). */
  enqueue(node: GraphNode): void;
}

export type Step = (deps: CollectorDeps, node: GraphNode) => Promise<ReconcileResult | 'continue'>;
