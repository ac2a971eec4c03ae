/**
 * A watch that does not end: it resumes from the last resourceVersion it saw when the stream
 * ends (the server's timeout, a dropped connection, a server restart), and when that version is
 * too old (410 Gone, after compaction) it lists again and hands the whole state over as one
 * RELISTED event, as client-go's reflector relists. Bookmarks keep the version fresh. It ends
 * when the loop over it leaves or its signal aborts.
 *
 * @example
 *   for await (const event of configMaps.watch()) {
 *     if (event.type === 'RELISTED') replaceAll(event.objects); // the first event, and after a 410
 *     else if (event.type !== 'BOOKMARK') apply(event.type, event.object);
 *   }
 */
import type { KubeObject } from '../../api/registry/object.js';
import type { Status } from '../../api/status.js';
import { ApiError, errorFromStatus, isGone } from './api-status.js';
import type { TransportResponse } from './transport.js';
import { watchEvents } from './wire-format.js';
import { sleep } from './sleep.js';

export type WatchEvent<T extends KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  /** The server has sent everything up to `resourceVersion`; `initialEventsEnd` marks the end of `sendInitialEvents`. */
  | { type: 'BOOKMARK'; resourceVersion: string; initialEventsEnd: boolean }
  /** The whole current state (first, when no resourceVersion was given, and after a 410): replace what you hold. */
  | { type: 'RELISTED'; objects: T[]; resourceVersion: string };

export interface WatchSource<T extends KubeObject> {
  /** Opens a watch stream after `resourceVersion` (or, with `sendInitialEvents`, from the current state). */
  open(resourceVersion: string | undefined, sendInitialEvents: boolean): Promise<TransportResponse>;
  /** Lists the current state (every page). */
  list(): Promise<{ objects: T[]; resourceVersion: string }>;
}

export interface ResumeOptions {
  resourceVersion?: string | undefined;
  /** Start with the current state as ADDED events, ended by a bookmark (a streaming list) instead of RELISTED. */
  sendInitialEvents?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';
/** Waits after a failed connection or a stream that ended empty, doubling up to the cap; one delivered event resets it. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export async function* resumingWatch<T extends KubeObject>(source: WatchSource<T>, options: ResumeOptions): AsyncGenerator<WatchEvent<T>> {
  let resourceVersion = options.resourceVersion;
  // A streaming list broken before its end bookmark has delivered part of the state only; after
  // it, the watch resumes as any other.
  let streamingInitialEvents = options.sendInitialEvents === true;
  let retryMs = RETRY_FIRST_MS;
  const backOff = async (): Promise<void> => {
    await sleep(retryMs, options.signal);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };
  const relist = async function* (): AsyncGenerator<WatchEvent<T>> {
    const state = await source.list();
    resourceVersion = state.resourceVersion;
    streamingInitialEvents = false;
    yield { type: 'RELISTED', objects: state.objects, resourceVersion: state.resourceVersion };
  };

  if (resourceVersion === undefined && !streamingInitialEvents) yield* relist();
  while (options.signal?.aborted !== true) {
    let response: TransportResponse;
    try {
      response = await source.open(resourceVersion, streamingInitialEvents);
    } catch (err) {
      if (options.signal?.aborted) return;
      if (isGone(err)) {
        yield* relist();
        continue;
      }
      if (!isRetryable(err)) throw err;
      await backOff();
      continue;
    }
    let gone = false;
    let delivered = false;
    try {
      for await (const wire of watchEvents<KubeObject>(response)) {
        delivered = true;
        retryMs = RETRY_FIRST_MS;
        if (wire.type === 'ERROR') {
          const err = errorFromStatus(wire.object as Partial<Status>);
          if (!isGone(err)) throw err;
          gone = true;
          break;
        }
        resourceVersion = wire.object.metadata.resourceVersion ?? resourceVersion;
        if (wire.type === 'BOOKMARK') {
          const initialEventsEnd = wire.object.metadata.annotations?.[INITIAL_EVENTS_END] === 'true';
          if (initialEventsEnd) streamingInitialEvents = false;
          yield { type: 'BOOKMARK', resourceVersion: resourceVersion ?? '', initialEventsEnd };
        } else {
          yield { type: wire.type, object: wire.object as T };
        }
      }
    } catch (err) {
      // A stream cut mid-way (connection reset) is resumed; a Status error is the caller's.
      if (options.signal?.aborted) return;
      if (!isStreamBreak(err)) throw err;
    } finally {
      response.close();
    }
    if (gone || (streamingInitialEvents && resourceVersion !== undefined)) yield* relist();
    // A server that ends watches at once (shutting down, a proxy's timeout) is not asked again in a hot loop.
    else if (!delivered) await backOff();
  }
}

/** Connection failures and 5xx/429 answers: the server may come back (a restart, a rolling update). */
function isRetryable(err: unknown): boolean {
  if (err instanceof ApiError) return err.code >= 500 || err.code === 429;
  return isStreamBreak(err);
}

/** Node's socket errors (ECONNRESET, ECONNREFUSED, …) carry a string code. */
function isStreamBreak(err: unknown): boolean {
  return err instanceof Error && 'code' in err && typeof err.code === 'string';
}
