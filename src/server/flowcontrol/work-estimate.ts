/**
 * How many seats a request occupies while it runs, after kube-apiserver's list work estimator:
 * a LIST (or a watch's initial list) of N stored objects takes ceil(N / 100) seats, at least 1 and
 * at most 10; anything else takes 1. Our LISTs are served from the watch cache, which walks the
 * kind's objects, so N is the cache's size; with `limit` and no selector a page touches at most
 * `limit` of them.
 *
 * @example
 *   estimateSeats(listInfo, { limit: '500' }, () => 4200) // 5
 */
import type { RequestInfo } from '../request-info.js';

const OBJECTS_PER_SEAT = 100;
export const MIN_SEATS = 1;
export const MAX_SEATS = 10;

/** The number of stored objects of a kind, across every space; undefined when not known yet. */
export type ObjectCount = (group: string, resource: string) => number | undefined;

type Query = Record<string, unknown> | undefined;

function param(query: Query, name: string): string | undefined {
  const value = query?.[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether a watch starts by sending the current state (no resourceVersion, or 0, or
 * sendInitialEvents): that phase is a LIST and is charged like one.
 */
export function watchSendsInitialState(query: Query): boolean {
  const rv = param(query, 'resourceVersion');
  return rv === undefined || rv === '' || rv === '0' || param(query, 'sendInitialEvents') === 'true';
}

export function estimateSeats(info: RequestInfo, query: Query, countObjects: ObjectCount): number {
  if (info.kind !== 'resource') return MIN_SEATS;
  if (info.verb !== 'list' && !(info.verb === 'watch' && watchSendsInitialState(query))) return MIN_SEATS;
  // A kind whose cache has not loaded yet is charged the minimum rather than guessed at.
  const stored = countObjects(info.group, info.resource) ?? 0;
  const limit = Number(param(query, 'limit') ?? 0);
  const selective = param(query, 'labelSelector') !== undefined || param(query, 'fieldSelector') !== undefined;
  const touched = limit > 0 && !selective ? Math.min(stored, limit) : stored;
  return Math.min(MAX_SEATS, Math.max(MIN_SEATS, Math.ceil(touched / OBJECTS_PER_SEAT)));
}
