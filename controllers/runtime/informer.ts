/**
 * An informer: one list and one watch of a kind across every space, a local cache of the objects
 * keyed by tenant/namespace/name, and change notifications. When its watch ends (timeout, 410
 * Expired, server restart) it lists again and resumes; handlers see every object that changed.
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { ApiWatchEvent } from '../../api/registry/watch.js';
import { keyOf, keyString, type ObjectKey } from '../../src/client/object-key.js';

/** Where an informer reads from: the in-process store or a remote server. */
export interface ListWatchSource {
  list(): Promise<{ items: KubeObject[]; resourceVersion: string }>;
  /** Starts a watch after `resourceVersion`; `onEnd` is called once when the watch stops for any reason. */
  watch(resourceVersion: string, onEvent: (event: ApiWatchEvent) => void, onEnd: (err?: Error) => void): Promise<{ stop(): void }>;
}

export type ChangeHandler = (key: ObjectKey, obj: KubeObject | undefined) => void;

type InformerState = 'new' | 'listing' | 'watching' | 'stopped';

export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private readonly handlers: ChangeHandler[] = [];
  private state: InformerState = 'new';
  private watch: { stop(): void } | undefined;
  private synced!: Promise<void>;
  private markSynced!: () => void;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    private readonly source: ListWatchSource,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {
    this.synced = new Promise((resolve) => (this.markSynced = resolve));
  }

  onChange(handler: ChangeHandler): void {
    this.handlers.push(handler);
  }

  /** Resolves after the first full list has been cached and announced. */
  waitForSync(): Promise<void> {
    return this.synced;
  }

  start(): void {
    if (this.state !== 'new') throw new Error(`informer ${this.name}: start in state ${this.state}`);
    void this.relist();
  }

  stop(): void {
    this.state = 'stopped';
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.watch?.stop();
  }

  get(key: ObjectKey): KubeObject | undefined {
    return this.cache.get(keyString(key));
  }

  list(filter?: (obj: KubeObject) => boolean): KubeObject[] {
    const all = [...this.cache.values()];
    return filter ? all.filter(filter) : all;
  }

  /** Read through a method: `stop()` may run while a list is awaited. */
  private stopped(): boolean {
    return this.state === 'stopped';
  }

  private notify(obj: KubeObject, deleted: boolean): void {
    const key = keyOf(obj);
    for (const h of this.handlers) h(key, deleted ? undefined : obj);
  }

  private async relist(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'listing';
    try {
      const { items, resourceVersion } = await this.source.list();
      if (this.stopped()) return;
      const seen = new Set<string>();
      for (const obj of items) {
        const k = keyString(keyOf(obj));
        seen.add(k);
        const old = this.cache.get(k);
        this.cache.set(k, obj);
        if (old?.metadata.resourceVersion !== obj.metadata.resourceVersion) this.notify(obj, false);
      }
      for (const [k, obj] of this.cache) {
        if (!seen.has(k)) {
          this.cache.delete(k);
          this.notify(obj, true);
        }
      }
      this.markSynced();
      this.state = 'watching';
      this.watch = await this.source.watch(resourceVersion, (e) => this.apply(e), (err) => this.watchEnded(err));
    } catch (err) {
      this.onError(err as Error);
      this.scheduleRelist();
    }
  }

  private apply(event: ApiWatchEvent): void {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return;
    const k = keyString(keyOf(event.object));
    if (event.type === 'DELETED') this.cache.delete(k);
    else this.cache.set(k, event.object);
    this.notify(event.object, event.type === 'DELETED');
  }

  private watchEnded(err?: Error): void {
    if (this.state === 'stopped') return;
    if (err) this.onError(err);
    this.scheduleRelist();
  }

  private scheduleRelist(): void {
    if (this.state === 'stopped') return;
    this.retryTimer = setTimeout(() => void this.relist(), 1000);
    this.retryTimer.unref();
  }
}
