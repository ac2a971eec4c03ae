import { describe, expect, it } from 'vitest';
import type { StoreWatch, WatchEvent, WatchHandler } from '../store.js';
import { WatchFeed } from './watch-feed.js';

/** A source the test drives: what the feed's one etcd watch would deliver. */
function fakeSource() {
  let handler: WatchHandler | undefined;
  let opened = 0;
  let startedAt: number | undefined;
  let closed = false;
  const open = async (since: number, h: WatchHandler): Promise<StoreWatch> => {
    opened += 1;
    startedAt = since;
    handler = h;
    return { orderedProgress: true, close: () => (closed = true), requestProgress: () => undefined };
  };
  const write = (revision: number, key: string): void => handler!.onEvent({ type: 'create', key, revision, value: key, createRevision: revision });
  return { open, write, pass: (revision: number) => handler!.onProgress!(revision), fail: (err: Error) => handler!.onError(err), opened: () => opened, startedAt: () => startedAt, closed: () => closed };
}

function recorder() {
  const events: Array<[number, string]> = [];
  const progress: number[] = [];
  const errors: string[] = [];
  const handler: WatchHandler = {
    onEvent: (e: WatchEvent) => events.push([e.revision, e.key]),
    onProgress: (r) => progress.push(r),
    onError: (err) => errors.push(err.message),
  };
  return { handler, events, progress, errors };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('WatchFeed', () => {
  it('starts one source at the first watch and hands each watch the events under its prefix after its revision', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open);
    const pods = recorder();
    const cms = recorder();
    await feed.subscribe('/registry/core/pods/', 10, pods.handler);
    await feed.subscribe('/registry/core/configmaps/', 12, cms.handler);
    expect(source.opened()).toBe(1);
    expect(source.startedAt()).toBe(10);
    source.write(11, '/registry/core/configmaps/t1/a');
    source.write(12, '/registry/core/pods/t1/p');
    source.write(13, '/registry/core/configmaps/t1/b');
    expect(pods.events).toEqual([[12, '/registry/core/pods/t1/p']]);
    // Revision 11 is before the ConfigMap watch's own revision: its listing already had it.
    expect(cms.events).toEqual([[13, '/registry/core/configmaps/t1/b']]);
  });

  it('replays what its ring holds to a watch that starts behind it, then goes live, in order', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open);
    await feed.subscribe('/a/', 5, recorder().handler);
    source.write(6, '/b/1');
    source.write(7, '/b/2');
    const late = recorder();
    await feed.subscribe('/b/', 6, late.handler);
    source.write(8, '/b/3');
    expect(late.events).toEqual([[7, '/b/2'], [8, '/b/3']]);
  });

  it('does not serve a watch from before what it holds (the store opens a watch of its own)', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open, 2);
    await feed.subscribe('/a/', 5, recorder().handler);
    expect(await feed.subscribe('/a/', 4, recorder().handler)).toBeUndefined();
    for (let r = 6; r <= 10; r += 1) source.write(r, `/a/${r}`);
    // The ring keeps the last two to four events: 6 and 7 are gone.
    expect(await feed.subscribe('/a/', 6, recorder().handler)).toBeUndefined();
    const recent = recorder();
    expect(await feed.subscribe('/a/', 9, recent.handler)).toBeDefined();
    expect(recent.events).toEqual([[10, '/a/10']]);
  });

  it('answers a progress request with its own position once it has passed what the watch knows, even when only other keys changed', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open);
    const quiet = recorder();
    const watch = (await feed.subscribe('/quiet/', 20, quiet.handler))!;
    watch.requestProgress();
    await settle();
    expect(quiet.progress).toEqual([]); // nothing passed yet: the answer waits
    source.write(21, '/busy/1');
    expect(quiet.progress).toEqual([21]);
    source.pass(25); // writes to keys outside the store, passed over by the source
    watch.requestProgress();
    await settle();
    expect(quiet.progress).toEqual([21, 25]);
    watch.requestProgress();
    await settle();
    expect(quiet.progress).toEqual([21, 25]); // asked again with nothing new: no answer until the feed moves
    expect(quiet.events).toEqual([]);
  });

  it('fails every watch when its source fails, and starts a new source for the next watch', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open);
    const a = recorder();
    await feed.subscribe('/a/', 1, a.handler);
    source.fail(new Error('etcd compacted revision 9'));
    expect(a.errors).toEqual(['etcd compacted revision 9']);
    source.write(2, '/a/x'); // a late event of the failed source reaches nobody
    expect(a.events).toEqual([]);
    await settle();
    expect(source.closed()).toBe(true);
    await feed.subscribe('/a/', 30, recorder().handler);
    expect(source.opened()).toBe(2);
    expect(source.startedAt()).toBe(30);
  });
});

describe('WatchFeed ring bytes', () => {
  it('keeps at most its byte bound of values: large objects leave the ring early', async () => {
    const source = fakeSource();
    const feed = new WatchFeed(source.open, 100, 10);
    await feed.subscribe('/a/', 1, recorder().handler);
    for (let r = 2; r <= 5; r += 1) source.write(r, `/a/${r}`); // values of 4 bytes each ('/a/N')
    // At revision 4 the ring held 12 bytes, past the bound of 10: trimmed to at most 5 (revision 4 alone).
    expect(await feed.subscribe('/a/', 2, recorder().handler)).toBeUndefined();
    const recent = recorder();
    expect(await feed.subscribe('/a/', 3, recent.handler)).toBeDefined();
    expect(recent.events).toEqual([[4, '/a/4'], [5, '/a/5']]);
  });
});
