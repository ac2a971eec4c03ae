/**
 * The watch cache (DESIGN.md section 6): per kind, one storage watch over every space feeds an
 * in-memory copy of the kind's objects and a window of its recent events. Watches are served from
 * it: a storage event is decoded once and fanned out to every watcher whose space, namespace and
 * selectors it concerns, so a thousand watchers cost one storage watch, not a thousand.
 *
 * A watch that starts from the current state gets it from memory; one that resumes from a
 * revision inside the window is replayed from it. Anything else (a revision older than the window,
 * or initial events asked to be newer than the cache) gets a storage watch of its own, as before,
 * with the same answers (410 Expired for a compacted revision). Objects the cache hands out are
 * shared by every watcher and frozen: nothing may change them.
 */
import { encodeClusterContinue, encodeContinue } from '../../storage/continue-token.js';
import { DEFAULT_STORAGE_CLUSTER } from '../../storage/storage-clusters.js';
import { formatClusterRevisions, parseClusterRevisions } from './cluster-revisions.js';
import { isStorageError } from '../../storage/errors.js';
import type { Store, StoreWatch, WatchEvent as StoreEvent } from '../../storage/store.js';
import { ApiError } from '../status.js';
import { notFound } from './api-errors.js';
import { ALL_TENANTS, type CollectionScope, type GenericStore, type ListResult, type ObjectLocation } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';
import { bookmark, checkWatchQuery, convertingSink, errorEvent, INITIAL_EVENTS_END, selectionEvent, startStoreWatch, tooOld, wantsInitialEvents, type ActiveWatch, type ApiWatchEvent, type WatchQuery, type WatchSink } from './watch.js';

/**
 * How much history each kind keeps for watches that resume from a revision: at most this many
 * events, and at most this many bytes of stored values (objects may be up to 3 MiB; a window of
 * large ones must not hold gigabytes). A resume from before the window gets a storage watch.
 */
export interface EventWindow {
  events: number;
  bytes: number;
}

export const DEFAULT_EVENT_WINDOW: EventWindow = { events: 1024, bytes: 32 * 1024 * 1024 };

/**
 * How long a consistent read waits for a kind's cache to reach the store's current revision
 * before it reads storage instead (kube-apiserver waits up to 3 s).
 */
const FRESHNESS_WAIT_MS = 3_000;
/** While readers wait, progress is asked for again this often: etcd answers only a synced watch. */
const PROGRESS_RETRY_MS = 100;

/**
 * The store's current revision for consistent reads: one storage round trip shared by every
 * reader that arrives while none is being sent. A reader never gets a revision read before it
 * arrived, which could predate a write it has already seen acknowledged.
 */
export class CurrentRevision {
  private running: Promise<number> | undefined;
  private next: Promise<number> | undefined;

  constructor(private readonly store: Pick<Store, 'currentRevision'>) {}

  read(): Promise<number> {
    if (!this.running) return this.start();
    // The read in flight started before this reader came: share the one that follows it.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<number> {
    const read = this.store.currentRevision().finally(() => {
      if (this.running === read) this.running = undefined;
    });
    this.running = read;
    return read;
  }
}

/** A reader waiting for a cache to reach a revision. */
interface FreshnessWaiter {
  revision: number;
  done(reached: boolean): void;
}

/**
 * A watcher that allowed bookmarks gets one at least this often, even when nothing changed, as
 * kube-apiserver's cacher sends them (`bookmarkFrequency`): its client can then resume from a
 * recent revision instead of one the window may have dropped.
 */
export const BOOKMARK_INTERVAL_MS = 60_000;
/** How often the caches look for watchers due a bookmark: one timer for all of them. */
const BOOKMARK_CHECK_MS = 5_000;

interface CachedEvent {
  type: StoreEvent['type'];
  key: string;
  revision: number;
  object: KubeObject;
  /** The object before an update; undefined for creates and deletes. */
  prev: KubeObject | undefined;
  /** The stored bytes the event holds (its value and the previous one), for the window's bound. */
  bytes: number;
}

/** One watch served by a cache: its storage prefix, its selectors, and where it stands. */
class CacheWatcher {
  stopped = false;
  /** When this watcher is next due a bookmark (if it allowed them). */
  private nextBookmarkAt = Date.now() + BOOKMARK_INTERVAL_MS;

  constructor(
    private readonly def: ResourceDefinition,
    private readonly prefix: string,
    private readonly matches: (obj: KubeObject) => boolean,
    private readonly bookmarks: boolean,
    /** Events at or below this revision were already covered. */
    private since: number,
    private readonly sink: WatchSink,
  ) {}

  /** The event as this watcher sees it, or null when it is outside its space or selection, or already covered. */
  private translate(e: CachedEvent): ApiWatchEvent | null {
    if (e.revision <= this.since || !e.key.startsWith(this.prefix)) return null;
    return selectionEvent(e.type, e.object, e.prev, this.matches);
  }

  deliver(e: CachedEvent): void {
    if (this.stopped) return;
    const event = this.translate(e);
    this.since = Math.max(this.since, e.revision);
    if (event) this.send(event);
  }

  /**
   * The cache passed `revision` without an event for this watcher: its next bookmark carries it.
   * Not a bookmark now: progress comes with every write of other kinds on SQLite, and with every
   * consistent read that waits on etcd; kube-apiserver sends bookmarks only when due, as here.
   */
  progress(revision: number): void {
    if (this.stopped || revision <= this.since) return;
    this.since = revision;
  }

  /** The periodic bookmark, at the cache's revision even when nothing changed since the last one. */
  bookmarkIfDue(revision: number, now: number): void {
    if (this.stopped || !this.bookmarks || now < this.nextBookmarkAt) return;
    this.since = Math.max(this.since, revision);
    this.sendBookmark(this.since);
  }

  private sendBookmark(revision: number): void {
    this.nextBookmarkAt = Date.now() + BOOKMARK_INTERVAL_MS;
    this.send(bookmark(this.def, revision));
  }

  /** A watcher whose sink throws ends alone; the cache and the other watchers go on. */
  private send(event: ApiWatchEvent): void {
    try {
      this.sink.send(event);
    } catch {
      this.stopped = true;
      this.sink.end();
    }
  }

  fail(event: ApiWatchEvent): void {
    if (this.stopped) return;
    this.send(event);
    if (this.stopped) return;
    this.stopped = true;
    this.sink.end();
  }

  /** Ends the watch without an error: the client watches again. */
  end(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.sink.end();
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function byKey(a: [string, KubeObject], b: [string, KubeObject]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** One kind's cache: its objects by storage key, the recent events, and the watches it serves. */
class KindCache {
  private readonly objects = new Map<string, KubeObject>();
  /**
   * The same objects by space (the key segment after the kind's prefix; '' for cluster-scoped
   * kinds), so a LIST in one space reads that space's objects, not the kind's in every space.
   */
  private readonly bySpace = new Map<string, Map<string, KubeObject>>();
  /** Where the kind's keys start: the prefix of a listing across every space. */
  private readonly kindPrefix: string;
  /** A ring of the latest events; `events[0]` is the oldest kept. */
  private events: CachedEvent[] = [];
  /** Every event with a revision above this one is in `events`. */
  private horizon = 0;
  /** The bytes the kept events hold. */
  private eventBytes = 0;
  /** The latest revision the cache has caught up with. */
  revision = 0;
  private readonly watchers = new Set<CacheWatcher>();
  private handle: StoreWatch | undefined;
  private failed = false;
  private readonly waiters = new Set<FreshnessWaiter>();
  /** A progress request is out and not answered yet. */
  private progressAsked = false;
  private progressRetry: NodeJS.Timeout | undefined;

  constructor(
    readonly def: ResourceDefinition,
    private readonly generic: GenericStore,
    private readonly store: Store,
    private readonly window: EventWindow,
    private readonly onFailure: () => void,
  ) {
    this.kindPrefix = generic.prefix(def, { tenant: ALL_TENANTS });
  }

  /** The space segment of a key, or of a listing's prefix below the kind's own. */
  private spaceOf(key: string): string {
    const end = key.indexOf('/', this.kindPrefix.length);
    return end < 0 ? '' : key.slice(this.kindPrefix.length, end);
  }

  private put(key: string, object: KubeObject): void {
    this.objects.set(key, object);
    const space = this.spaceOf(key);
    let objects = this.bySpace.get(space);
    if (!objects) this.bySpace.set(space, (objects = new Map()));
    objects.set(key, object);
  }

  private remove(key: string): void {
    this.objects.delete(key);
    const space = this.spaceOf(key);
    const objects = this.bySpace.get(space);
    objects?.delete(key);
    if (objects?.size === 0) this.bySpace.delete(space);
  }

  /** One object by its storage key, as of the cache's revision. */
  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** Whether its storage watch answers progress in order with its events (see `reach`). */
  get orderedProgress(): boolean {
    return this.handle?.orderedProgress ?? false;
  }

  /** How many objects the cache holds. */
  get size(): number {
    return this.objects.size;
  }

  /** How many events the window keeps. */
  get eventCount(): number {
    return this.events.length;
  }

  /** Lists the kind in every space, then follows storage from that revision. */
  async load(): Promise<void> {
    const prefix = this.kindPrefix;
    let token: string | undefined;
    do {
      const page = await this.store.list(prefix, token ? { continue: token } : {});
      for (const kv of page.items) this.put(kv.key, deepFreeze(this.generic.decode(this.def, kv)));
      this.revision = page.revision;
      token = page.continue;
    } while (token);
    this.horizon = this.revision;
    this.handle = await this.store.watch(prefix, { sinceRevision: this.revision }, {
      onEvent: (e) => this.apply(e),
      onProgress: (revision) => this.progress(revision),
      onError: (err) => this.fail(err),
    });
  }

  private apply(e: StoreEvent): void {
    if (this.failed) return;
    const object = deepFreeze(this.generic.decode(this.def, { key: e.key, value: e.value, modRevision: e.revision, createRevision: e.createRevision }));
    const prev = e.type === 'update' ? this.objects.get(e.key) : undefined;
    if (e.type === 'delete') this.remove(e.key);
    else this.put(e.key, object);
    this.revision = e.revision;
    const event: CachedEvent = { type: e.type, key: e.key, revision: e.revision, object, prev, bytes: e.value.length + (e.prevValue?.length ?? 0) };
    this.events.push(event);
    this.eventBytes += event.bytes;
    if (this.events.length > this.window.events * 2 || this.eventBytes > this.window.bytes) this.trim();
    for (const watcher of this.watchers) watcher.deliver(event);
    if (this.waiters.size > 0) this.wakeReaders();
  }

  /**
   * Drops the oldest events down to the window's count and half its bytes: trimming in batches
   * keeps its cost amortised over the events that caused it.
   */
  private trim(): void {
    let dropped = 0;
    while (dropped < this.events.length && (this.events.length - dropped > this.window.events || this.eventBytes > this.window.bytes / 2)) {
      this.eventBytes -= this.events[dropped]!.bytes;
      dropped += 1;
    }
    if (dropped === 0) return;
    this.horizon = this.events[dropped - 1]!.revision;
    this.events = this.events.slice(dropped);
  }

  private progress(revision: number): void {
    this.progressAsked = false;
    if (this.failed) return;
    if (revision > this.revision) {
      this.revision = revision;
      for (const watcher of this.watchers) watcher.progress(revision);
    }
    if (this.waiters.size > 0) this.wakeReaders();
  }

  /**
   * Resolves true once the cache has caught up with `revision` (every write up to it is in
   * memory), false if it does not within `timeoutMs` or the cache fails.
   */
  reach(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.revision >= revision) return Promise.resolve(true);
    if (this.failed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: FreshnessWaiter = {
        revision,
        done: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
      this.askForProgress();
    });
  }

  /** Asks the storage watch where the store is, unless a request is already out; asks again if unanswered. */
  private askForProgress(): void {
    if (this.progressAsked) return;
    this.progressAsked = true;
    this.handle?.requestProgress();
    clearTimeout(this.progressRetry);
    this.progressRetry = setTimeout(() => {
      this.progressAsked = false;
      if (this.waiters.size > 0) this.askForProgress();
    }, PROGRESS_RETRY_MS);
    this.progressRetry.unref();
  }

  private wakeReaders(): void {
    for (const waiter of this.waiters) if (waiter.revision <= this.revision) waiter.done(true);
    if (this.waiters.size > 0) this.askForProgress();
  }

  /** The cache stops for good: every waiting reader goes to storage. */
  private releaseReaders(): void {
    clearTimeout(this.progressRetry);
    for (const waiter of this.waiters) waiter.done(false);
  }

  /** Sends the bookmarks that are due (see BOOKMARK_INTERVAL_MS). */
  sendDueBookmarks(now: number): void {
    if (this.failed) return;
    for (const watcher of this.watchers) watcher.bookmarkIfDue(this.revision, now);
  }

  /** The storage watch failed for good: every watch ends with the cause, and the next one starts a new cache. */
  private fail(err: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.handle?.close();
    this.onFailure();
    this.releaseReaders();
    const cause = isStorageError(err, 'TooOld') ? tooOld(this.revision, err.revision) : new ApiError(500, 'InternalError', `Internal error occurred: watch failed: ${err.message}`);
    for (const watcher of this.watchers) watcher.fail(errorEvent(cause));
    this.watchers.clear();
  }

  stop(): void {
    this.failed = true;
    this.handle?.close();
    this.releaseReaders();
    for (const watcher of this.watchers) watcher.stopped = true;
    this.watchers.clear();
  }

  /**
   * The kind is served no more: the storage watch closes and every watch ends, as kube-apiserver
   * ends the watches of a CRD whose storage it replaces; clients watch again.
   */
  retire(): void {
    this.failed = true;
    this.handle?.close();
    this.releaseReaders();
    for (const watcher of this.watchers) watcher.end();
    this.watchers.clear();
  }

  /** The objects of a collection that meet its selectors, in key order, as of the cache's revision. */
  state(scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>): KubeObject[] {
    return this.selection(scope, query).map(([, obj]) => obj);
  }

  /**
   * A LIST's page at the cache's revision: the first `limit` matches (all for 0) and, when more
   * remain, a continue token for storage to serve the next pages at that same revision.
   */
  page(scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>, limit: number): ListResult {
    const selected = this.selection(scope, query);
    const metadata: ListResult['metadata'] = { resourceVersion: String(this.revision) };
    if (limit <= 0 || selected.length <= limit) return { items: selected.map(([, obj]) => obj), metadata };
    const items = selected.slice(0, limit);
    metadata.continue = encodeContinue({ rev: this.revision, after: items[limit - 1]![0] });
    // As storage answers: the count of what remains only when no selector makes it a guess.
    if (!this.generic.collectionFilter(this.def, scope, query)) metadata.remainingItemCount = selected.length - limit;
    return { items: items.map(([, obj]) => obj), metadata };
  }

  private selection(scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>): Array<[string, KubeObject]> {
    const filter = this.generic.collectionFilter(this.def, scope, query);
    const prefix = this.generic.prefix(this.def, scope);
    const candidates = prefix === this.kindPrefix ? this.objects : this.bySpace.get(this.spaceOf(prefix));
    if (!candidates) return [];
    return [...candidates].filter(([key, obj]) => key.startsWith(prefix) && (!filter || filter(obj))).sort(byKey);
  }

  /** Whether a watch resuming after `since` can be replayed from the window. */
  covers(since: number): boolean {
    return !this.failed && since >= this.horizon;
  }

  /**
   * Serves a watch: its first events (the current state, or the window's events after `since`),
   * then every later event. All of it happens in one turn of the event loop, so nothing falls
   * between the replay and the live events.
   */
  serve(scope: CollectionScope, query: WatchQuery, initial: boolean, since: number, sink: WatchSink): ActiveWatch {
    const filter = this.generic.collectionFilter(this.def, scope, query);
    const matches = (obj: KubeObject): boolean => !filter || filter(obj);
    const prefix = this.generic.prefix(this.def, scope);
    const watcher = new CacheWatcher(this.def, prefix, matches, query.allowWatchBookmarks ?? false, initial ? this.revision : since, sink);
    if (initial) {
      for (const object of this.state(scope, query)) sink.send({ type: 'ADDED', object });
      if (query.sendInitialEvents && query.allowWatchBookmarks) sink.send(bookmark(this.def, this.revision, { [INITIAL_EVENTS_END]: 'true' }));
    } else {
      for (const event of this.events) if (event.revision > since) watcher.deliver(event);
    }
    this.watchers.add(watcher);
    return {
      stop: () => {
        watcher.stopped = true;
        this.watchers.delete(watcher);
      },
    };
  }
}

/** The caches of every kind in one store (one storage cluster), each started by the first watch of its kind. */
class StoreWatchCaches {
  private readonly caches = new Map<ResourceDefinition, Promise<KindCache>>();
  /** The caches that have loaded, for `stats()`. */
  private readonly loaded = new Map<ResourceDefinition, KindCache>();
  private stopped = false;
  /** Kinds no longer served (a CRD's compiled kinds no CRD uses): a late request for one reads storage, never starting a cache again. */
  private readonly retired = new WeakSet<ResourceDefinition>();
  private readonly currentRevision: CurrentRevision;
  private readonly bookmarkTimer: NodeJS.Timeout;

  constructor(
    private readonly generic: GenericStore,
    private readonly store: Store,
    private readonly window: EventWindow,
    private readonly freshnessWaitMs: number,
  ) {
    this.currentRevision = new CurrentRevision(store);
    this.bookmarkTimer = setInterval(() => this.sendDueBookmarks(Date.now()), BOOKMARK_CHECK_MS);
    this.bookmarkTimer.unref();
  }

  /** Sends every watcher its periodic bookmark when due (the timer calls it; tests call it with a clock of their own). */
  sendDueBookmarks(now: number): void {
    for (const cache of this.loaded.values()) cache.sendDueBookmarks(now);
  }

  private cacheFor(def: ResourceDefinition): Promise<KindCache> {
    const known = this.caches.get(def);
    if (known) return known;
    // A cache that fails (or cannot load) is forgotten, so the next watch starts a new one.
    const forget = (): void => {
      if (this.caches.get(def) === loading) this.caches.delete(def);
      if (this.loaded.get(def) === cache) this.loaded.delete(def);
    };
    const cache = new KindCache(def, this.generic, this.store, this.window, forget);
    const loading = cache.load().then(() => {
      if (this.caches.get(def) === loading) this.loaded.set(def, cache);
      return cache;
    });
    loading.catch(forget);
    this.caches.set(def, loading);
    return loading;
  }

  /**
   * Starts a watch, from the cache when it can answer, else from storage. Resolves once events
   * will flow; rejects (before anything is sent) with an ApiError for a wrong request.
   */
  async startWatch(def: ResourceDefinition, scope: CollectionScope, query: WatchQuery, sink: WatchSink): Promise<ActiveWatch> {
    checkWatchQuery(query);
    if (!def.converter) return this.watchFrom(def, scope, query, sink);
    const converting = convertingSink(this.generic, def, sink);
    const active = await this.watchFrom(def, scope, query, converting);
    return {
      // Events still waiting for their conversion are not converted for a watch that ended.
      stop: () => {
        converting.cancel();
        active.stop();
      },
    };
  }

  private async watchFrom(def: ResourceDefinition, scope: CollectionScope, query: WatchQuery, sink: WatchSink): Promise<ActiveWatch> {
    if (this.stopped || this.retired.has(def)) return startStoreWatch(this.generic, this.store, def, scope, query, sink);
    const cache = await this.cacheFor(def);
    const initial = wantsInitialEvents(query);
    const rv = Number(query.resourceVersion || '0');
    if (initial) {
      // Initial events asked to be at least as new as a revision the cache has not reached come from storage.
      if (rv > cache.revision) return startStoreWatch(this.generic, this.store, def, scope, query, sink);
      return cache.serve(scope, query, true, cache.revision, sink);
    }
    if (!cache.covers(rv)) return startStoreWatch(this.generic, this.store, def, scope, query, sink);
    return cache.serve(scope, query, false, rv, sink);
  }

  /**
   * A LIST that accepts any recent state (`resourceVersion=0`), from memory: the collection as of
   * the cache's revision, whole. For the server's own readers (admission, controllers).
   */
  async list(def: ResourceDefinition, scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>): Promise<ListResult> {
    if (this.retired.has(def)) return this.generic.listFrom(this.store, def, scope, query);
    const cache = await this.cacheFor(def);
    return this.served(def, cache.page(scope, query, 0));
  }

  /**
   * A LIST request answered from memory when it allows it, as kube-apiserver's cache answers: with
   * resourceVersion "0", the collection as the cache has it, whole (the limit is not applied);
   * without one, a consistent read once the cache is current, its first page when a limit is given
   * (the continue token sends the next pages to storage at the same revision). Undefined when
   * storage answers: an exact resourceVersion, or a cache that cannot catch up in time.
   */
  async readList(def: ResourceDefinition, scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>, resourceVersion: string | undefined, limit: number): Promise<ListResult | undefined> {
    const cache = await this.cacheServing(def, resourceVersion);
    if (!cache) return undefined;
    return this.served(def, cache.page(scope, query, resourceVersion === '0' ? 0 : limit));
  }

  /**
   * A GET's object, served as kube-apiserver's cache serves it: without a resourceVersion once the
   * kind's cache has reached the store's current revision (a consistent read: it sees every write
   * acknowledged before it), with "0" as the cache has it. Storage answers an exact
   * resourceVersion, and any read the cache cannot bring up to date in time (`freshnessWaitMs`).
   */
  async read(def: ResourceDefinition, loc: ObjectLocation, resourceVersion?: string): Promise<KubeObject> {
    const cache = await this.cacheServing(def, resourceVersion);
    if (!cache) return this.generic.get(def, loc, resourceVersion);
    const object = cache.get(this.generic.key(def, loc));
    if (!object) throw notFound(def, loc.name);
    return def.converter ? (await this.generic.served(def, [object], false))[0]! : object;
  }

  /** A page from memory in `def`'s version: the cache keeps objects as stored when a converter calls out (`GenericStore.served`). */
  private async served(def: ResourceDefinition, page: ListResult): Promise<ListResult> {
    return def.converter ? { items: await this.generic.served(def, page.items, true), metadata: page.metadata } : page;
  }

  /**
   * The kind's cache when it may answer a read at `resourceVersion` (absent: once it is current;
   * "0": as it is); undefined when storage answers, which also reports any error of the store.
   */
  private async cacheServing(def: ResourceDefinition, resourceVersion: string | undefined): Promise<KindCache | undefined> {
    if (this.stopped || this.retired.has(def) || (resourceVersion && resourceVersion !== '0')) return undefined;
    try {
      const cache = await this.cacheFor(def);
      if (resourceVersion === '0') return cache;
      // Without ordered progress the cache cannot know it has every write up to a revision.
      if (!cache.orderedProgress) return undefined;
      return (await cache.reach(await this.currentRevision.read(), this.freshnessWaitMs)) ? cache : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * One object from memory (any recent state, as `resourceVersion=0`), without reading storage:
   * for admission, which must not add a storage read to every request.
   */
  async get(def: ResourceDefinition, loc: ObjectLocation): Promise<KubeObject | undefined> {
    if (this.retired.has(def)) {
      return this.generic.get(def, loc).catch((err: unknown) => {
        if (err instanceof ApiError && err.reason === 'NotFound') return undefined;
        throw err;
      });
    }
    const cache = await this.cacheFor(def);
    const object = cache.get(this.generic.key(def, loc));
    return object && def.converter ? (await this.generic.served(def, [object], false))[0] : object;
  }

  /** Drops the cache of a kind served no more, ending its watches (see `retired`). */
  retire(def: ResourceDefinition): void {
    this.retired.add(def);
    const loading = this.caches.get(def);
    this.caches.delete(def);
    this.loaded.delete(def);
    void loading?.then(
      (cache) => cache.retire(),
      () => undefined,
    );
  }

  /** Objects of a kind in memory, across every space; undefined until its cache has loaded. */
  objectCount(group: string, resource: string): number | undefined {
    for (const [def, cache] of this.loaded) if (def.group === group && def.resource === resource) return cache.size;
    return undefined;
  }

  /** Each loaded cache's size and revision, for the server's metrics. */
  stats(): Array<{ def: ResourceDefinition; objects: number; events: number; revision: number }> {
    return [...this.loaded.entries()].map(([def, cache]) => ({ def, objects: cache.size, events: cache.eventCount, revision: cache.revision }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.bookmarkTimer);
    const caches = [...this.caches.values()];
    this.caches.clear();
    this.loaded.clear();
    for (const cache of await Promise.allSettled(caches)) if (cache.status === 'fulfilled') cache.value.stop();
  }
}

/**
 * The watch caches of every storage cluster (one set per store: a cache follows one revision
 * counter). A space's reads and watches go to its cluster's caches with plain revisions; those
 * across every space (`tenants/all`) with several clusters merge each cluster's, with
 * resourceVersions naming every cluster's revision (`cluster-revisions.ts`). With one cluster,
 * every call goes to its caches as is.
 */
export class WatchCaches {
  private readonly byCluster: ReadonlyMap<string, StoreWatchCaches>;

  constructor(
    private readonly generic: GenericStore,
    window: EventWindow = DEFAULT_EVENT_WINDOW,
    freshnessWaitMs = FRESHNESS_WAIT_MS,
  ) {
    const { clusters } = generic;
    this.byCluster = new Map(clusters.ids.map((id) => [id, new StoreWatchCaches(generic, clusters.store(id), window, freshnessWaitMs)]));
  }

  private cluster(id: string): StoreWatchCaches {
    return this.byCluster.get(id)!;
  }

  /** The caches of the cluster holding a collection or an object (cluster-scoped kinds: the default's). */
  private async cachesOf(def: ResourceDefinition, tenant: string): Promise<StoreWatchCaches> {
    if (!this.generic.clusters.multiple) return this.cluster(DEFAULT_STORAGE_CLUSTER);
    return this.cluster(await this.generic.clusters.clusterOf(def.scope === 'cluster' || tenant === ALL_TENANTS ? undefined : tenant));
  }

  private get all(): StoreWatchCaches[] {
    return [...this.byCluster.values()];
  }

  /** Sends every watcher its periodic bookmark when due (the timer calls it; tests call it with a clock of their own). */
  sendDueBookmarks(now: number): void {
    for (const caches of this.all) caches.sendDueBookmarks(now);
  }

  /** See `StoreWatchCaches.startWatch`; across clusters, one watch of each merged. */
  async startWatch(def: ResourceDefinition, scope: CollectionScope, query: WatchQuery, sink: WatchSink): Promise<ActiveWatch> {
    if (this.generic.acrossClusters(def, scope)) return this.watchAcrossClusters(def, scope, query, sink);
    return (await this.cachesOf(def, scope.tenant)).startWatch(def, scope, query, sink);
  }

  /**
   * One watch per cluster, each from its component of the resourceVersion, into one stream. Every
   * event leaves with a resourceVersion naming its own revision and every other cluster's last one
   * delivered, so a client resuming from it misses nothing of any cluster; one cluster's watch
   * ending ends them all. A watch from the current state starts as a storage watch does: every
   * cluster's state (its cache's) with the resourceVersion naming each cluster's revision, then
   * each cluster's events after it.
   */
  private async watchAcrossClusters(def: ResourceDefinition, scope: CollectionScope, query: WatchQuery, sink: WatchSink): Promise<ActiveWatch> {
    checkWatchQuery({ ...query, resourceVersion: undefined });
    const ids = this.generic.clusters.ids;
    let positions = parseClusterRevisions(ids, query.resourceVersion ?? '');
    if (wantsInitialEvents(query)) {
      const listed = await this.list(def, scope, query);
      const resourceVersion = listed.metadata.resourceVersion!;
      positions = parseClusterRevisions(ids, resourceVersion);
      for (const object of listed.items) sink.send({ type: 'ADDED', object: { ...object, metadata: { ...object.metadata, resourceVersion } } });
      if (query.sendInitialEvents && query.allowWatchBookmarks) {
        const end = bookmark(def, 0, { [INITIAL_EVENTS_END]: 'true' });
        sink.send({ type: 'BOOKMARK', object: { ...end.object, metadata: { ...end.object.metadata, resourceVersion } } });
      }
    }
    const from = new Map(positions);
    const active: ActiveWatch[] = [];
    let ended = false;
    const stopAll = (): void => {
      ended = true;
      for (const watch of active) watch.stop();
    };
    const end = (): void => {
      if (ended) return;
      stopAll();
      sink.end();
    };
    const sinkOf = (id: string): WatchSink => ({
      send: (event) => {
        if (ended) return;
        if (event.type === 'ERROR') {
          sink.send(event);
          return end();
        }
        positions.set(id, Math.max(positions.get(id)!, Number(event.object.metadata.resourceVersion)));
        const resourceVersion = formatClusterRevisions(ids, positions);
        sink.send({ type: event.type, object: { ...event.object, metadata: { ...event.object.metadata, resourceVersion } } });
      },
      end,
    });
    const resume: WatchQuery = { labelSelector: query.labelSelector, fieldMatch: query.fieldMatch, allowWatchBookmarks: query.allowWatchBookmarks };
    try {
      for (const id of ids) {
        const watch = await this.cluster(id).startWatch(def, scope, { ...resume, resourceVersion: String(from.get(id)) }, sinkOf(id));
        active.push(watch);
        if (ended) watch.stop();
      }
    } catch (err) {
      stopAll();
      throw err;
    }
    return { stop: stopAll };
  }

  /** See `StoreWatchCaches.list`; across clusters, each cluster's merged in key order. */
  async list(def: ResourceDefinition, scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>): Promise<ListResult> {
    if (!this.generic.acrossClusters(def, scope)) return (await this.cachesOf(def, scope.tenant)).list(def, scope, query);
    return this.merged(def, await Promise.all(this.all.map((caches) => caches.list(def, scope, query))), 0);
  }

  /** See `StoreWatchCaches.readList`; across clusters, every cluster's cache must answer, or storage answers. */
  async readList(def: ResourceDefinition, scope: CollectionScope, query: Pick<WatchQuery, 'labelSelector' | 'fieldMatch'>, resourceVersion: string | undefined, limit: number): Promise<ListResult | undefined> {
    if (!this.generic.acrossClusters(def, scope)) return (await this.cachesOf(def, scope.tenant)).readList(def, scope, query, resourceVersion, limit);
    if (resourceVersion && resourceVersion !== '0') return undefined;
    const pages = await Promise.all(this.all.map((caches) => caches.readList(def, scope, query, resourceVersion, 0)));
    if (pages.some((page) => page === undefined)) return undefined;
    const page = this.merged(def, pages as ListResult[], resourceVersion === '0' ? 0 : limit);
    if (page.metadata.continue && this.generic.collectionFilter(def, scope, query)) delete page.metadata.remainingItemCount;
    return page;
  }

  /**
   * Whole listings of every cluster (in `ids` order) as one: items in key order, the first `limit`
   * of them (0: all) with a continue token for storage to serve the rest at the same revisions.
   */
  private merged(def: ResourceDefinition, pages: ListResult[], limit: number): ListResult {
    const ids = this.generic.clusters.ids;
    const revisions = new Map(ids.map((id, i) => [id, Number(pages[i]!.metadata.resourceVersion)]));
    const items = pages.flatMap((page) => page.items.map((obj) => ({ key: this.generic.keyOf(def, obj), obj }))).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const metadata: ListResult['metadata'] = { resourceVersion: formatClusterRevisions(ids, revisions) };
    if (limit <= 0 || items.length <= limit) return { items: items.map(({ obj }) => obj), metadata };
    metadata.continue = encodeClusterContinue({ revs: Object.fromEntries(revisions), after: items[limit - 1]!.key });
    metadata.remainingItemCount = items.length - limit;
    return { items: items.slice(0, limit).map(({ obj }) => obj), metadata };
  }

  /** See `StoreWatchCaches.read`: from the object's cluster. */
  async read(def: ResourceDefinition, loc: ObjectLocation, resourceVersion?: string): Promise<KubeObject> {
    return (await this.cachesOf(def, loc.tenant)).read(def, loc, resourceVersion);
  }

  /** See `StoreWatchCaches.get`: from the object's cluster. */
  async get(def: ResourceDefinition, loc: ObjectLocation): Promise<KubeObject | undefined> {
    return (await this.cachesOf(def, loc.tenant)).get(def, loc);
  }

  /** Drops the caches of a kind served no more, in every cluster. */
  retire(def: ResourceDefinition): void {
    for (const caches of this.all) caches.retire(def);
  }

  /** Objects of a kind in memory, across every space and cluster; undefined until a cache of it has loaded. */
  objectCount(group: string, resource: string): number | undefined {
    const counts = this.all.map((caches) => caches.objectCount(group, resource)).filter((n) => n !== undefined);
    return counts.length === 0 ? undefined : counts.reduce((a, n) => a + n, 0);
  }

  /** Each loaded cache's size and revision, for the server's metrics: one row per kind, its clusters' sums (the default's revision). */
  stats(): Array<{ def: ResourceDefinition; objects: number; events: number; revision: number }> {
    const [first, ...others] = this.all;
    const rows = first!.stats();
    for (const caches of others) {
      for (const row of caches.stats()) {
        const known = rows.find((r) => r.def === row.def);
        if (known) {
          known.objects += row.objects;
          known.events += row.events;
        } else rows.push({ ...row, revision: 0 });
      }
    }
    return rows;
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((caches) => caches.stop()));
  }
}
