/**
 * An informer: one list-and-watch of a resource (over every space or one), a cache of its objects
 * keyed by tenant/namespace/name with indexes, and change notifications, as client-go's shared
 * informer. Its source is a stream of the client's watch events: the first `RELISTED` fills the
 * cache, later ones (after a 410) replace it, and handlers hear of every object that changed. If
 * the stream fails (a refusal, the server gone) the informer reports it and starts a new one.
 *
 * @example
 *   const informer = new Informer('configmaps', clientSource(client.allSpaces().resource(configMaps)));
 *   informer.onChange((key, cm, previous) => queue.add(key), { resyncMs: 60_000 });
 *   informer.start();
 *   await informer.waitForSync();
 *   informer.lister<ConfigMap>().list({ tenant: 't1' });
 */
import type { KubeObject } from '../../api/registry/object.js';
import { keyOf, keyString, type ObjectKey } from '../../src/client/object-key.js';
import type { WatchEvent } from '../../src/client/watch-events.js';
import { Indexer, type IndexFunc } from './indexer.js';
import { Lister } from './lister.js';
import { sleep } from '../../src/client/sleep.js';

/** Where an informer's events come from: the client's watch of a resource, or the server's own watch cache. */
export type EventSource = (signal: AbortSignal) => AsyncIterable<WatchEvent<KubeObject>>;

/**
 * Called with the object now (undefined once deleted) and the one cached before (undefined when
 * new). On a resync both are the same object, as client-go's UpdateFunc with old == new.
 */
export type ChangeHandler = (key: ObjectKey, obj: KubeObject | undefined, previous: KubeObject | undefined) => void;

export interface HandlerOptions {
  /** Hand every cached object to the handler again this often, so a level-based controller re-checks what it missed. */
  resyncMs?: number;
}

type InformerState = 'new' | 'running' | 'stopped';

/** Pause before a new stream after one failed: enough not to spin on a refusal. */
const RESTART_DELAY_MS = 1_000;

export class Informer {
  private readonly indexer = new Indexer();
  private readonly handlers: Array<{ handler: ChangeHandler; resyncMs: number | undefined }> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly abort = new AbortController();
  private state: InformerState = 'new';
  private hasSynced = false;
  private readonly synced: Promise<void>;
  private markSynced!: () => void;

  constructor(
    readonly name: string,
    private readonly source: EventSource,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  /** Register before `start` to hear the first listing too. */
  onChange(handler: ChangeHandler, options: HandlerOptions = {}): void {
    this.handlers.push({ handler, resyncMs: options.resyncMs });
    if (this.state === 'running') this.startResync(handler, options.resyncMs);
  }

  /** Custom indexes, before `start` (see indexer.ts). */
  addIndexers(indexers: Record<string, IndexFunc>): void {
    if (this.state !== 'new') throw new Error(`informer ${this.name}: indexers are added before start`);
    this.indexer.addIndexers(indexers);
  }

  /** Resolves after the first full list has been cached and announced. */
  waitForSync(): Promise<void> {
    return this.synced;
  }

  lister<T extends KubeObject = KubeObject>(): Lister<T> {
    return new Lister<T>(this.indexer);
  }

  get(key: ObjectKey): KubeObject | undefined {
    return this.indexer.get(key);
  }

  start(): void {
    if (this.state !== 'new') throw new Error(`informer ${this.name}: start in state ${this.state}`);
    this.state = 'running';
    for (const { handler, resyncMs } of this.handlers) this.startResync(handler, resyncMs);
    void this.run();
  }

  stop(): void {
    this.state = 'stopped';
    this.abort.abort();
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** Read through a method: `stop()` may run while a stream is awaited. */
  private running(): boolean {
    return this.state === 'running';
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (this.running()) {
      try {
        for await (const event of this.source(signal)) {
          if (!this.running()) return;
          this.apply(event);
        }
      } catch (err) {
        if (this.running()) this.onError(err as Error);
      }
      if (this.running()) await sleep(RESTART_DELAY_MS, signal);
    }
  }

  private apply(event: WatchEvent<KubeObject>): void {
    switch (event.type) {
      case 'BOOKMARK':
        return;
      case 'RELISTED':
        return this.replace(event.objects);
      case 'DELETED': {
        const key = keyOf(event.object);
        this.notify(key, undefined, this.indexer.delete(key) ?? event.object);
        return;
      }
      default:
        this.notify(keyOf(event.object), event.object, this.indexer.upsert(event.object));
    }
  }

  /** The whole state: objects that changed are announced, those gone are announced deleted. */
  private replace(objects: KubeObject[]): void {
    const seen = new Set<string>();
    for (const obj of objects) {
      const key = keyOf(obj);
      seen.add(keyString(key));
      const previous = this.indexer.upsert(obj);
      if (previous?.metadata.resourceVersion !== obj.metadata.resourceVersion) this.notify(key, obj, previous);
    }
    for (const obj of this.indexer.list()) {
      const key = keyOf(obj);
      if (!seen.has(keyString(key))) this.notify(key, undefined, this.indexer.delete(key));
    }
    this.hasSynced = true;
    this.markSynced();
  }

  private notify(key: ObjectKey, obj: KubeObject | undefined, previous: KubeObject | undefined): void {
    for (const { handler } of this.handlers) handler(key, obj, previous);
  }

  private startResync(handler: ChangeHandler, resyncMs: number | undefined): void {
    if (resyncMs === undefined) return;
    const timer = setInterval(() => {
      if (!this.hasSynced) return;
      for (const obj of this.indexer.list()) handler(keyOf(obj), obj, obj);
    }, resyncMs);
    timer.unref();
    this.timers.push(timer);
  }
}
