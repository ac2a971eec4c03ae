/**
 * Watch for one collection: the initial state when asked for, then storage events turned into
 * Kubernetes watch events, filtered by space, namespace and selectors. An object that leaves a
 * selector's set is delivered as DELETED and one that enters it as ADDED, as kube-apiserver does.
 */
import { isStorageError } from '../../storage/errors.js';
import type { StoreWatch, WatchEvent as StoreEvent } from '../../storage/store.js';
import type { Store } from '../../storage/store.js';
import { ApiError, statusFromError } from '../status.js';
import { badRequest, expired } from './api-errors.js';
import type { CollectionScope, GenericStore, ListQuery } from './generic-store.js';
import type { KubeObject } from './object.js';
import type { ResourceDefinition } from './resource-definition.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ApiWatchEvent {
  type: WatchEventType;
  /** The object; for BOOKMARK only kind, apiVersion and metadata.resourceVersion (and annotations). */
  object: KubeObject;
}

export interface WatchQuery extends Pick<ListQuery, 'labelSelector' | 'fieldMatch'> {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
}

export interface WatchSink {
  send(event: ApiWatchEvent): void;
  /** The watch ended on the server's side (an ERROR event has been sent when there was a cause). */
  end(): void;
}

export interface ActiveWatch {
  stop(): void;
}

export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

export function bookmark(def: ResourceDefinition, revision: number, annotations?: Record<string, string>): ApiWatchEvent {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
  if (annotations) metadata.annotations = annotations;
  return { type: 'BOOKMARK', object: { kind: def.kind, apiVersion: def.apiVersion, metadata } };
}

/** The Status an ERROR event carries, built like every other Status. */
export function errorEvent(err: ApiError): ApiWatchEvent {
  return { type: 'ERROR', object: statusFromError(err) as unknown as KubeObject };
}

/** Events a watch of a webhook-converted kind may hold while they wait for their conversion. */
export const MAX_EVENTS_AWAITING_CONVERSION = 10_000;

/**
 * A sink that sends each event's object in `def`'s version, for a kind whose versions convert
 * through a call (`ResourceDefinition.converter`): events wait for their conversion and go out in
 * the order they came. A failed conversion ends the watch with an ERROR event carrying it, as
 * kube-apiserver ends a watch whose event it cannot encode; the client watches again.
 */
export function convertingSink(generic: GenericStore, def: ResourceDefinition, sink: WatchSink): WatchSink & { cancel(): void } {
  let queue: Promise<void> = Promise.resolve();
  let ended = false;
  let waiting = 0;
  const end = (): void => {
    if (ended) return;
    ended = true;
    sink.end();
  };
  return {
    send(event) {
      if (ended) return;
      // A webhook that stalls must not let a watch hold events without bound: the watch ends, as
      // an unresponsive watcher's does, and its client watches again from where it got to.
      if (++waiting > MAX_EVENTS_AWAITING_CONVERSION) return end();
      queue = queue.then(async () => {
        try {
          if (ended) return;
          if (event.type === 'BOOKMARK' || event.type === 'ERROR') return sink.send(event);
          const [object] = await generic.served(def, [event.object], false);
          if (!ended) sink.send({ type: event.type, object: object! });
        } catch (err) {
          // A conversion that failed, or a sink that throws (its client is gone): the watch ends.
          if (err instanceof ApiError) sink.send(errorEvent(err));
          end();
        } finally {
          waiting -= 1;
        }
      });
    },
    end() {
      queue = queue.then(end);
    },
    /** The watch was stopped by its client: what is queued is dropped, unconverted. */
    cancel() {
      ended = true;
    },
  };
}

/** Refuses a watch request that is wrong whatever serves it (400/422, before anything is sent). */
export function checkWatchQuery(query: WatchQuery): void {
  if (query.sendInitialEvents && query.resourceVersionMatch !== 'NotOlderThan') {
    throw new ApiError(422, 'Invalid', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', {
      causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan', field: 'resourceVersionMatch' }],
    });
  }
  const rv = query.resourceVersion;
  if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) throw badRequest(`invalid resource version "${rv}"`);
}

/**
 * Whether a watch starts with the current state as ADDED events: rv unset or "0" (Kubernetes'
 * "start at most recent"), or sendInitialEvents from any rv (ended by a bookmark).
 */
export function wantsInitialEvents(query: WatchQuery): boolean {
  const rv = query.resourceVersion;
  return query.sendInitialEvents ?? (rv === undefined || rv === '' || rv === '0');
}

/**
 * Starts a watch of its own on storage (the watch cache's fallback, and the cache-less path).
 * Resolves once events will flow; rejects (before anything is sent) with an ApiError when the
 * request is wrong or its revision is too old.
 */
export async function startStoreWatch(
  generic: GenericStore,
  store: Store,
  def: ResourceDefinition,
  scope: CollectionScope,
  query: WatchQuery,
  sink: WatchSink,
): Promise<ActiveWatch> {
  const filter = generic.collectionFilter(def, scope, query);
  const matches = (obj: KubeObject): boolean => !filter || filter(obj);
  const prefix = generic.prefix(def, scope);
  checkWatchQuery(query);
  const initial = wantsInitialEvents(query);
  let since: number;
  const pending: ApiWatchEvent[] = [];
  if (initial) {
    const listed = await generic.listFrom(store, def, scope, { labelSelector: query.labelSelector, fieldMatch: query.fieldMatch });
    for (const obj of listed.items) pending.push({ type: 'ADDED', object: obj });
    since = Number(listed.metadata.resourceVersion);
    if (query.sendInitialEvents && query.allowWatchBookmarks) pending.push(bookmark(def, since, { [INITIAL_EVENTS_END]: 'true' }));
  } else {
    since = Number(query.resourceVersion);
  }

  let stopped = false;
  let handle: StoreWatch | undefined;
  // Storage may deliver events before `watch` resolves; they wait until the initial ones are out.
  let ready = false;
  const early: ApiWatchEvent[] = [];
  const deliver = (event: ApiWatchEvent): void => {
    if (ready) sink.send(event);
    else early.push(event);
  };
  const stop = (): void => {
    stopped = true;
    handle?.close();
  };

  const onEvent = (e: StoreEvent): void => {
    if (stopped) return;
    const event = translate(generic, def, e, matches);
    if (event) deliver(event);
  };

  try {
    handle = await store.watch(prefix, { sinceRevision: since }, {
      onEvent,
      onProgress: (revision) => {
        if (!stopped && query.allowWatchBookmarks) deliver(bookmark(def, revision));
      },
      onError: (err) => {
        if (stopped) return;
        stopped = true;
        deliver(errorEvent(isStorageError(err, 'TooOld') ? tooOld(since, err.revision) : new ApiError(500, 'InternalError', `Internal error occurred: watch failed: ${err.message}`)));
        if (ready) sink.end();
      },
    });
  } catch (err) {
    if (isStorageError(err, 'TooOld')) throw tooOld(since, err.revision);
    throw err;
  }
  for (const event of pending) sink.send(event);
  ready = true;
  for (const event of early.splice(0)) sink.send(event);
  if (stopped) sink.end();
  return { stop };
}

export function tooOld(requested: number, oldest: number): ApiError {
  return expired(`too old resource version: ${requested} (${oldest})`);
}

/**
 * A change as a watcher sees it through its selection: an object entering it is ADDED, one leaving
 * it DELETED, as kube-apiserver does. `prev` is the object before an update (undefined for a create,
 * or an update whose earlier state is unknown); `matches` is the watcher's selection.
 */
export function selectionEvent(type: StoreEvent['type'], object: KubeObject, prev: KubeObject | undefined, matches: (obj: KubeObject) => boolean): ApiWatchEvent | null {
  const now = matches(object);
  if (type === 'delete') return now ? { type: 'DELETED', object } : null;
  if (type === 'create' || prev === undefined) return now ? { type: 'ADDED', object } : null;
  const before = matches(prev);
  if (now && before) return { type: 'MODIFIED', object };
  if (now) return { type: 'ADDED', object };
  if (before) return { type: 'DELETED', object };
  return null;
}

/** A storage event as the watcher sees it through its filter, or null when it does not concern them. */
function translate(generic: GenericStore, def: ResourceDefinition, e: StoreEvent, matches: (obj: KubeObject) => boolean): ApiWatchEvent | null {
  const decode = (value: string): KubeObject => generic.decode(def, { key: e.key, value, modRevision: e.revision, createRevision: e.createRevision });
  const prev = e.type === 'update' && e.prevValue !== undefined ? decode(e.prevValue) : undefined;
  return selectionEvent(e.type, decode(e.value), prev, matches);
}
