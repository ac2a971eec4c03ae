/**
 * The garbage collector: one instance over every space. It watches every kind it collects (each
 * kind in the registry but those that opt out, so new kinds are covered without code changes),
 * keeps the ownership graph current from those informers, and reconciles objects through three
 * steps: foreground deletion, orphaning, background collection. Workers start only once every
 * informer has listed, so no decision rests on a half-built graph.
 *
 * @example
 *   const gc = new GarbageCollector({ generic, registry, informers, log }); // informers: the shared InformerFactory
 *   informers.start();
 *   gc.start();
 *   await gc.ready();
 *   await gc.stop();
 */
import type { GenericStore } from '../../api/registry/generic-store.js';
import type { KubeObject } from '../../api/registry/object.js';
import type { RegistryView } from '../../api/registry/registry.js';
import type { ResourceDefinition } from '../../api/registry/resource-definition.js';
import { Controller, done, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';
import type { InformerFactory } from '../runtime/informer-factory.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { collectedKinds, ownerKindResolver } from './collected-kinds.js';
import { isDeletingDependents, isOrphaning, OwnerGraph, type GraphNode } from './graph.js';
import { reconcileBackground } from './reconcile-background.js';
import { reconcileForeground } from './reconcile-foreground.js';
import { reconcileOrphan } from './reconcile-orphan.js';
import type { CollectorDeps, Step } from './steps.js';

export interface GarbageCollectorDeps {
  generic: GenericStore;
  registry: RegistryView;
  /** The control plane's shared informers (each lists and watches one kind in every space). */
  informers: InformerFactory<ResourceDefinition>;
  log: { error(obj: object, msg: string): void };
}

type CollectorState = 'new' | 'syncing' | 'running' | 'stopped';

/** In order: an owner being deleted is handled as an owner, anything else as a possible dependent. */
const steps: readonly Step[] = [reconcileForeground, reconcileOrphan, reconcileBackground];

export class GarbageCollector {
  readonly graph = new OwnerGraph();
  private readonly informers: Informer[] = [];
  private readonly controllers = new Map<ResourceDefinition, Controller>();
  private readonly collector: CollectorDeps;
  private state: CollectorState = 'new';
  private synced: Promise<void> = Promise.resolve();

  constructor(deps: GarbageCollectorDeps) {
    for (const def of collectedKinds(deps.registry)) {
      const name = `garbage-collector/${def.resource}.${def.group || 'core'}`;
      const informer = deps.informers.informerFor(def);
      informer.onChange((key, obj) => this.observe(def, key, obj));
      this.informers.push(informer);
      this.controllers.set(def, new Controller({ name, reconcile: (key) => this.reconcile(def, key), log: deps.log }));
    }
    this.collector = {
      graph: this.graph,
      generic: deps.generic,
      ownerKind: ownerKindResolver(deps.registry),
      enqueue: (node) => this.enqueue(node),
    };
  }

  /** Starts the workers once every informer (started by their factory) has listed. */
  start(): void {
    if (this.state !== 'new') throw new Error(`garbage collector: start in state ${this.state}`);
    this.state = 'syncing';
    this.synced = Promise.all(this.informers.map((i) => i.waitForSync())).then(() => {
      if (this.state !== 'syncing') return;
      this.state = 'running';
      for (const controller of this.controllers.values()) controller.start();
    });
  }

  /** Resolves once the graph is complete and the workers run. */
  ready(): Promise<void> {
    return this.synced;
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    await Promise.all([...this.controllers.values()].map((c) => c.stop()));
  }

  private enqueue(node: GraphNode): void {
    this.controllers.get(node.def)?.enqueue(node.key);
  }

  private async reconcile(def: ResourceDefinition, key: ObjectKey): Promise<ReconcileResult> {
    const node = this.graph.at(def, key);
    if (!node) return done;
    for (const step of steps) {
      const result = await step(this.collector, node);
      if (result !== 'continue') return result;
    }
    return done;
  }

  /** Keeps the graph current and queues whatever the change may concern. */
  private observe(def: ResourceDefinition, key: ObjectKey, obj: KubeObject | undefined): void {
    if (!obj) {
      const gone = this.graph.forget(def, key);
      if (gone) this.released(gone);
      return;
    }
    const { node, previous } = this.graph.observe(def, obj);
    if (previous && previous.uid !== node.uid) this.released(previous);
    else if (previous) this.wakeWaitingOwners(previous);
    if (this.needsAttention(node)) this.enqueue(node);
  }

  /** An object went (or was replaced): its dependents lost an owner, and it no longer blocks any. */
  private released(gone: GraphNode): void {
    for (const { node } of this.graph.dependentsOf(gone)) this.enqueue(node);
    this.wakeWaitingOwners(gone);
  }

  /** Owners waiting in the foreground that this version of a dependent referenced: they may be free now. */
  private wakeWaitingOwners(dependent: GraphNode): void {
    for (const owner of this.graph.ownersOf(dependent)) if (isDeletingDependents(owner.object)) this.enqueue(owner);
  }

  /**
   * Whether an object has work: it is an owner being deleted in the foreground or orphaning, or a
   * dependent some of whose references the graph cannot match to a live owner that keeps it (the
   * owner may simply not be observed yet; the reconcile reads storage to tell).
   */
  private needsAttention(node: GraphNode): boolean {
    const obj = node.object;
    if (isDeletingDependents(obj) || isOrphaning(obj)) return true;
    if (obj.metadata.deletionTimestamp) return false;
    const refs = obj.metadata.ownerReferences ?? [];
    const keeping = this.graph.ownersOf(node).filter((owner) => !isDeletingDependents(owner.object));
    return keeping.length < refs.length;
  }
}
