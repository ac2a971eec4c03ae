/**
 * The keys a list or watch of a prefix covers, as SQL bounds `start <= key < end`. A prefix is a
 * directory: '/registry/core/pods/t1' covers '/registry/core/pods/t1/…', never '…/t10/…', so a
 * caller that forgets the trailing '/' cannot read a sibling space. SQLite compares TEXT with
 * the BINARY collation (UTF-8 bytes, as etcd orders keys), so `end` is the directory with its
 * '/' replaced by the next byte, '0'. A range, unlike LIKE, gives '%' and '_' in names no meaning
 * and is served by the key index.
 *
 * @example
 *   keyRange('/registry/core/pods/t1/') // { start: '/registry/core/pods/t1/', end: '/registry/core/pods/t10' }
 */

export interface KeyRange {
  /** The prefix as a directory, ending in '/': the range holds exactly the keys starting with it. */
  start: string;
  /** The smallest string above every key that starts with `start`. */
  end: string;
}

export function keyRange(prefix: string): KeyRange {
  const start = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return { start, end: `${start.slice(0, -1)}0` };
}
