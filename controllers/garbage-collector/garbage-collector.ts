/**
 * The garbage collector: one instance over every space, a client of the API under its own user
 * (`system:controller:generic-garbage-collector`). What it watches comes from discovery: every
 * resource with list, watch and delete (once per group and kind, at the preferred version), but
 * events and the kinds above the spaces.
 * - The kinds every space serves (built-ins, the system's shared CRDs) are watched once over every
 *   space (`allSpaces()`).
 * - A space's own CRDs are served in that space only (`allSpaces()` answers 404 for them), so each
 *   such resource is watched in its space, by a monitor keyed `<resource>.<group>@<tenant>`. The
 *   collector watches CRDs everywhere; a CRD event in a space reads that space's discovery again
 *   and starts or stops its monitors (one in the system space reads every space's too).
 * Owner references resolve by group and kind in the dependent's space: a kind the space does not
 * serve is `unknown` (judged again later, never deleted), as Kubernetes treats a failed mapping.
 * Workers start once every monitor has listed, so no decision rests on a half-built graph; while
 * a new monitor lists, reconciles wait (Kubernetes pauses its workers the same way).
 *
 * @example
 *   const gc = new GarbageCollector({ client: clientFor(CONTROLLER_USERS.garbageCollector), log });
 *   gc.start();
 *   await gc.ready();
 *   await gc.stop();
 */
import type { KubeObject, OwnerReference } from '../../api/registry/object.js';
import { SYSTEM_TENANT } from '../../api/spaces.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { sleep } from '../../src/client/sleep.js';
import { clientSources } from '../runtime/client-source.js';
import { Controller, done, requeueAfter, type ReconcileResult } from '../runtime/controller.js';
import { resourceName, ServedKinds, type CollectedResource, type OwnerKind } from './collected-kinds.js';
import { isDeletingDependents, isOrphaning, OwnerGraph, type GraphNode } from './graph.js';
import { Monitor } from './monitor.js';
import { reconcileBackground } from './reconcile-background.js';
import { reconcileForeground } from './reconcile-foreground.js';
import { reconcileOrphan } from './reconcile-orphan.js';
import type { CollectorDeps, Step } from './steps.js';
import { metadataOnly } from '../runtime/object-transforms.js';

export interface GarbageCollectorDeps {
  /** Acts as the garbage collector: its watches, reads and writes. */
  client: KubeClient;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

type CollectorState = 'new' | 'syncing' | 'running' | 'stopped';

/** In order: an owner being deleted is handled as an owner, anything else as a possible dependent. */
const steps: readonly Step[] = [reconcileForeground, reconcileOrphan, reconcileBackground];

const EVERY_SPACE = 'all';
const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';
/** How long reconciles (and the next monitors' turns) wait for a monitor's first listing before going on without it. */
const MONITOR_SYNC_TIMEOUT_MS = 30_000;
/**
 * Monitors listing at once. A start lists every collected resource: all at once, that burst (dozens
 * of TLS connections and first lists) can hold a busy manager past its lease's renew deadline.
 */
const STARTS_AT_ONCE = 4;
/** How soon a reconcile that waited for the graph is tried again. */
const GRAPH_WAIT_MS = 200;
/** Pause before the first discovery is tried again (the server may still be starting). */
const DISCOVERY_RETRY_MS = 1_000;

/** A discovery work item: one space's own resources, or (tenant '') every space's. */
const discoveryKey = (tenant: string): ObjectKey => ({ tenant, namespace: '', name: '' });

export class GarbageCollector {
  readonly graph = new OwnerGraph();
  private readonly client: KubeClient;
  private readonly log: GarbageCollectorDeps['log'];
  /** By `<resource>.<group>/<version>@<space>`. */
  private readonly monitors = new Map<string, Monitor>();
  /** The same monitors, by the resource their nodes carry. */
  private readonly monitorOf = new Map<CollectedResource, Monitor>();
  /** Monitors whose first listing has not come yet (at most STARTS_AT_ONCE). */
  private readonly listing = new Set<Monitor>();
  /** Monitors waiting for a turn to list. */
  private readonly waiting: Monitor[] = [];
  private everySpace = new ServedKinds([]);
  /** The kinds each space with CRDs of its own serves beyond every space's. */
  private readonly spaceKinds = new Map<string, ServedKinds>();
  /** Reads discovery again after CRD events, one space at a time. */
  private readonly discovery: Controller;
  private readonly collector: CollectorDeps;
  private readonly abort = new AbortController();
  private state: CollectorState = 'new';
  private synced: Promise<void> = Promise.resolve();

  constructor(deps: GarbageCollectorDeps) {
    this.client = deps.client;
    this.log = deps.log;
    this.discovery = new Controller({ name: 'garbage-collector/discovery', reconcile: (key) => this.rediscover(key.tenant), log: deps.log });
    this.collector = {
      graph: this.graph,
      client: deps.client,
      ownerKind: (tenant, ref) => this.ownerKind(tenant, ref),
      enqueue: (node) => this.enqueue(node),
    };
  }

  /** Discovers, starts the monitors, and the workers once every monitor has listed. */
  start(): void {
    if (this.state !== 'new') throw new Error(`garbage collector: start in state ${this.state}`);
    this.state = 'syncing';
    this.synced = this.firstSync();
  }

  /** What it watches, as `<resource>.<group>/<version>@<all or the space>` (`widgets.example.com/v1@t1`). */
  get watches(): string[] {
    return [...this.monitors.keys()];
  }

  /** Resolves once the graph is complete and the workers run. */
  ready(): Promise<void> {
    return this.synced;
  }

  async stop(): Promise<void> {
    this.state = 'stopped';
    this.abort.abort();
    const monitors = [...this.monitors.values()];
    this.monitors.clear();
    this.monitorOf.clear();
    this.listing.clear();
    this.waiting.length = 0;
    await Promise.all([this.discovery.stop(), ...monitors.map((m) => m.stop())]);
  }

  private async firstSync(): Promise<void> {
    await this.retrying(() => this.discoverEverySpace());
    const crds = this.monitors.get(`${CRDS}/v1@${EVERY_SPACE}`);
    if (crds) {
      await crds.informer.waitForSync();
      const spaces = new Set(crds.informer.lister().list().map((crd) => crd.metadata.tenant ?? ''));
      for (const tenant of spaces) {
        // A space whose discovery fails now (being deleted, say) is read again by the discovery queue, with backoff.
        await this.discoverSpace(tenant).catch((err: unknown) => {
          this.log.error({ err, controller: 'garbage-collector/discovery', tenant }, 'discovery failed');
          this.discovery.enqueue(discoveryKey(tenant));
        });
      }
    }
    await Promise.all([...this.monitors.values()].map((m) => m.informer.waitForSync()));
    if (this.state !== 'syncing') return;
    this.state = 'running';
    for (const monitor of this.monitors.values()) monitor.run();
    this.log.info({ watches: this.monitors.size, objects: this.graph.size }, 'garbage collector started');
    // CRD events queued while the first discovery ran are handled from here on.
    this.discovery.start();
  }

  /** Runs `attempt` until it succeeds or the collector stops (the server may not answer yet). */
  private async retrying(attempt: () => Promise<void>): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        return await attempt();
      } catch (err) {
        this.log.error({ err, controller: 'garbage-collector/discovery' }, 'discovery failed');
        await sleep(DISCOVERY_RETRY_MS, this.abort.signal);
      }
    }
  }

  private async rediscover(tenant: string): Promise<ReconcileResult> {
    if (tenant === '') await this.discoverEverySpace();
    else await this.discoverSpace(tenant);
    return done;
  }

  /** The kinds every space serves, watched over every space. */
  private async discoverEverySpace(): Promise<void> {
    const kinds = new ServedKinds(await this.client.allSpaces().preferredResources());
    if (this.state === 'stopped') return;
    this.everySpace = kinds;
    this.applyMonitors(EVERY_SPACE, kinds.collected);
    // A kind that joined or left every space's set changes what each space serves on its own.
    for (const tenant of this.spaceKinds.keys()) this.discovery.enqueue(discoveryKey(tenant));
  }

  /** The kinds one space serves beyond every space's (its own CRDs), watched in that space. */
  private async discoverSpace(tenant: string): Promise<void> {
    const crds = this.monitors.get(`${CRDS}/v1@${EVERY_SPACE}`);
    // Without CRDs of its own a space serves what every space does: no need to ask.
    const ownCrds = crds?.informer.lister().list({ tenant }) ?? [];
    const kinds = ownCrds.length === 0 ? undefined : new ServedKinds(await this.client.space(tenant).preferredResources(), this.everySpace);
    if (this.state === 'stopped') return;
    if (kinds) this.spaceKinds.set(tenant, kinds);
    else this.spaceKinds.delete(tenant);
    this.applyMonitors(tenant, kinds?.collected ?? []);
  }

  /** Starts the monitors of `space` that discovery now lists and stops those it no longer does. */
  private applyMonitors(space: string, wanted: readonly CollectedResource[]): void {
    const wantedById = new Map(wanted.map((r) => [`${resourceName(r)}/${r.version}@${space}`, r]));
    for (const [id, monitor] of this.monitors) {
      if (monitor.space === space && !wantedById.has(id)) void this.retire(id, monitor);
    }
    for (const [id, resource] of wantedById) {
      if (this.monitors.has(id)) continue;
      const target = space === EVERY_SPACE ? ({ kind: 'all' } as const) : ({ kind: 'space', tenant: space } as const);
      const monitor = new Monitor(resource, space, clientSources(this.client, metadataOnly)(resource, target, {}), this.handlers, this.log);
      this.monitors.set(id, monitor);
      this.monitorOf.set(resource, monitor);
      this.waiting.push(monitor);
      if (this.state === 'running') monitor.run();
    }
    this.startWaiting();
  }

  /** Gives waiting monitors their turn to list, a few at a time. */
  private startWaiting(): void {
    while (this.listing.size < STARTS_AT_ONCE && this.waiting.length > 0 && this.state !== 'stopped') {
      const monitor = this.waiting.shift()!;
      this.listing.add(monitor);
      monitor.start();
      const release = (): void => {
        clearTimeout(timer);
        if (this.listing.delete(monitor)) this.startWaiting();
      };
      const timer = setTimeout(release, MONITOR_SYNC_TIMEOUT_MS).unref();
      void monitor.informer.waitForSync().then(release);
    }
  }

  /** Stops a monitor whose resource is no longer served; its objects leave the graph as if deleted. */
  private async retire(id: string, monitor: Monitor): Promise<void> {
    this.monitors.delete(id);
    this.monitorOf.delete(monitor.resource);
    const turn = this.waiting.indexOf(monitor);
    if (turn >= 0) this.waiting.splice(turn, 1);
    if (this.listing.delete(monitor)) this.startWaiting();
    await monitor.stop();
    for (const gone of this.graph.forgetResource(monitor.resource)) this.released(gone);
  }

  private readonly handlers = {
    observe: (resource: CollectedResource, key: ObjectKey, obj: KubeObject | undefined) => this.observe(resource, key, obj),
    reconcile: (resource: CollectedResource, key: ObjectKey) => this.reconcile(resource, key),
  };

  private ownerKind(tenant: string, ref: OwnerReference): OwnerKind {
    return (this.spaceKinds.get(tenant) ?? this.everySpace).ownerKind(ref);
  }

  private enqueue(node: GraphNode): void {
    this.monitorOf.get(node.resource)?.enqueue(node.key);
  }

  /** Whether every monitor has listed (or has had long enough to). */
  private graphComplete(): boolean {
    return this.listing.size === 0 && this.waiting.length === 0;
  }

  private async reconcile(resource: CollectedResource, key: ObjectKey): Promise<ReconcileResult> {
    if (!this.graphComplete()) return requeueAfter(GRAPH_WAIT_MS);
    const node = this.graph.at(resource, key);
    if (!node) return done;
    for (const step of steps) {
      const result = await step(this.collector, node);
      if (result !== 'continue') return result;
    }
    return done;
  }

  /** Keeps the graph current and queues whatever the change may concern. */
  private observe(resource: CollectedResource, key: ObjectKey, obj: KubeObject | undefined): void {
    if (resourceName(resource) === CRDS) this.crdChanged(key.tenant);
    if (!obj) {
      const gone = this.graph.forget(resource, key);
      if (gone) this.released(gone);
      return;
    }
    const { node, previous } = this.graph.observe(resource, obj);
    if (previous && previous.uid !== node.uid) this.released(previous);
    else if (previous) this.wakeWaitingOwners(previous);
    if (this.needsAttention(node)) this.enqueue(node);
  }

  /** A CRD of the space changed: what the space serves may have (in the system space, every space's too). */
  private crdChanged(tenant: string): void {
    this.discovery.enqueue(discoveryKey(tenant));
    if (tenant === SYSTEM_TENANT) this.discovery.enqueue(discoveryKey(''));
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
   * owner may simply not be observed yet; the reconcile reads the API to tell).
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
