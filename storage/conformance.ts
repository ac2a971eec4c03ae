/**
 * The Store conformance suite: every backend (and later the watch cache) runs these same cases,
 * as Kubernetes' `pkg/storage/testing/store_tests.go` does. Behaviour this suite does not check
 * is behaviour no caller may rely on.
 *
 * @example
 *   runStoreConformance('sqlite', async () => { const store = await openSqliteStore(tmp()); return { store, cleanup: () => store.close() }; });
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageError, type StorageErrorCode } from './errors.js';
import type { Store, StoreWatch, WatchEvent } from './store.js';

export interface OpenedStore {
  store: Store;
  cleanup: () => Promise<void>;
}

/** Collects a watch's events and lets a test wait for a count of them. */
class EventCollector {
  readonly events: WatchEvent[] = [];
  readonly progress: number[] = [];
  error: Error | undefined;
  private waiters: Array<() => void> = [];

  readonly handler = {
    onEvent: (e: WatchEvent) => {
      this.events.push(e);
      this.wake();
    },
    onProgress: (rev: number) => {
      this.progress.push(rev);
    },
    onError: (err: Error) => {
      this.error = err;
      this.wake();
    },
  };

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `n` events arrived (or fails after `ms`). */
  async waitFor(n: number, ms = 10_000): Promise<WatchEvent[]> {
    const deadline = Date.now() + ms;
    while (this.events.length < n && !this.error) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${n} events, got ${this.events.length}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Waits a little and checks nothing more arrived. */
  async expectNoMoreThan(n: number, ms = 300): Promise<void> {
    await new Promise((r) => setTimeout(r, ms));
    expect(this.events.length).toBe(n);
  }
}

async function expectStorageError(p: Promise<unknown>, code: StorageErrorCode): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (isStorageError(err, code)) return;
    throw new Error(`expected StorageError ${code}, got ${String(err)}`);
  }
  throw new Error(`expected StorageError ${code}, but the call succeeded`);
}

/** Each test uses its own key prefix, so tests never see one another's keys. */
let prefixCounter = 0;
function freshPrefix(): string {
  prefixCounter += 1;
  return `/registry/conformance/t${prefixCounter}-${Date.now().toString(36)}/`;
}

export function runStoreConformance(name: string, open: () => Promise<OpenedStore>): void {
  describe(`Store conformance: ${name}`, () => {
    let opened: OpenedStore;
    let store: Store;
    const watches: StoreWatch[] = [];

    async function watch(prefix: string, sinceRevision?: number): Promise<EventCollector> {
      const c = new EventCollector();
      watches.push(await store.watch(prefix, sinceRevision === undefined ? {} : { sinceRevision }, c.handler));
      return c;
    }

    beforeAll(async () => {
      opened = await open();
      store = opened.store;
    });
    afterAll(async () => {
      for (const w of watches) w.close();
      await opened?.cleanup();
    });

    describe('create and get', () => {
      it('creates a key and reads it back with its revisions', async () => {
        const p = freshPrefix();
        const before = await store.currentRevision();
        const kv = await store.create(`${p}a`, 'v1');
        expect(kv).toMatchObject({ key: `${p}a`, value: 'v1' });
        expect(kv.modRevision).toBeGreaterThan(before);
        expect(kv.createRevision).toBe(kv.modRevision);
        const got = await store.get(`${p}a`);
        expect(got.kv).toEqual(kv);
        expect(got.revision).toBeGreaterThanOrEqual(kv.modRevision);
        expect(await store.currentRevision()).toBeGreaterThanOrEqual(kv.modRevision);
      });

      it('refuses to create a live key', async () => {
        const p = freshPrefix();
        await store.create(`${p}a`, 'v1');
        await expectStorageError(store.create(`${p}a`, 'v2'), 'AlreadyExists');
        expect((await store.get(`${p}a`)).kv?.value).toBe('v1');
      });

      it('answers null for an absent key', async () => {
        const got = await store.get(`${freshPrefix()}absent`);
        expect(got.kv).toBeNull();
        expect(got.revision).toBeGreaterThan(0);
      });

      it('uses one global revision counter across keys', async () => {
        const p = freshPrefix();
        const a = await store.create(`${p}a`, 'x');
        const b = await store.create(`${freshPrefix()}b`, 'x');
        const c = await store.update(`${p}a`, 'y', a.modRevision);
        expect(b.modRevision).toBeGreaterThan(a.modRevision);
        expect(c.modRevision).toBeGreaterThan(b.modRevision);
      });
    });

    describe('update and delete with preconditions', () => {
      it('updates when the expected revision matches and keeps createRevision', async () => {
        const p = freshPrefix();
        const v1 = await store.create(`${p}a`, 'v1');
        const v2 = await store.update(`${p}a`, 'v2', v1.modRevision);
        expect(v2.value).toBe('v2');
        expect(v2.createRevision).toBe(v1.createRevision);
        expect(v2.modRevision).toBeGreaterThan(v1.modRevision);
        expect((await store.get(`${p}a`)).kv).toEqual(v2);
      });

      it('refuses a stale revision as a conflict and reports the current one', async () => {
        const p = freshPrefix();
        const v1 = await store.create(`${p}a`, 'v1');
        const v2 = await store.update(`${p}a`, 'v2', v1.modRevision);
        try {
          await store.update(`${p}a`, 'lost', v1.modRevision);
          throw new Error('stale update succeeded');
        } catch (err) {
          expect(isStorageError(err, 'Conflict')).toBe(true);
          if (isStorageError(err)) expect(err.revision).toBe(v2.modRevision);
        }
        expect((await store.get(`${p}a`)).kv?.value).toBe('v2');
      });

      it('answers NotFound when updating or deleting an absent key', async () => {
        const p = freshPrefix();
        await expectStorageError(store.update(`${p}a`, 'v', 1), 'NotFound');
        await expectStorageError(store.delete(`${p}a`), 'NotFound');
        await expectStorageError(store.delete(`${p}a`, 1), 'NotFound');
      });

      it('deletes, returning the last value at the revision of the delete', async () => {
        const p = freshPrefix();
        const v1 = await store.create(`${p}a`, 'v1');
        await expectStorageError(store.delete(`${p}a`, v1.modRevision - 1), 'Conflict');
        const gone = await store.delete(`${p}a`, v1.modRevision);
        expect(gone.value).toBe('v1');
        expect(gone.createRevision).toBe(v1.createRevision);
        expect(gone.modRevision).toBeGreaterThan(v1.modRevision);
        expect((await store.get(`${p}a`)).kv).toBeNull();
        const again = await store.create(`${p}a`, 'v3');
        expect(again.createRevision).toBeGreaterThan(gone.modRevision);
        expect((await store.delete(`${p}a`)).value).toBe('v3');
      });

      it('lets exactly one of 100 concurrent writers win each round', async () => {
        const key = `${freshPrefix()}contended`;
        let current = await store.create(key, 'round-0');
        for (let round = 1; round <= 5; round += 1) {
          const results = await Promise.allSettled(
            Array.from({ length: 100 }, (_, i) => store.update(key, `round-${round}-writer-${i}`, current.modRevision)),
          );
          const won = results.filter((r) => r.status === 'fulfilled');
          const lost = results.filter((r) => r.status === 'rejected');
          expect(won).toHaveLength(1);
          for (const r of lost) expect(isStorageError(r.reason, 'Conflict')).toBe(true);
          const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Store['update']>>>).value;
          expect((await store.get(key)).kv).toEqual(winner);
          current = winner;
        }
      });

      it('loses no update when 20 writers read-modify-write one counter', async () => {
        const key = `${freshPrefix()}counter`;
        await store.create(key, '0');
        const increment = async (): Promise<void> => {
          for (;;) {
            const { kv } = await store.get(key);
            if (!kv) throw new Error('counter vanished');
            try {
              await store.update(key, String(Number(kv.value) + 1), kv.modRevision);
              return;
            } catch (err) {
              if (!isStorageError(err, 'Conflict')) throw err;
            }
          }
        };
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            for (let i = 0; i < 5; i += 1) await increment();
          }),
        );
        expect((await store.get(key)).kv?.value).toBe('100');
      });
    });

    describe('list', () => {
      it('lists only keys under the prefix, in key order, never a sibling prefix', async () => {
        const root = freshPrefix();
        for (const k of ['t1/b', 't1/a', 't1/ns/c', 't10/x', 't1x', 't']) await store.create(root + k, k);
        const got = await store.list(`${root}t1/`);
        expect(got.items.map((kv) => kv.key)).toEqual([`${root}t1/a`, `${root}t1/b`, `${root}t1/ns/c`]);
        expect(got.continue).toBeUndefined();
        expect(got.remaining).toBe(0);
        expect(got.revision).toBeGreaterThanOrEqual(Math.max(...got.items.map((kv) => kv.modRevision)));
        expect((await store.list(`${root}t2/`)).items).toEqual([]);
      });

      it('pages with limit and continue at the first page’s revision', async () => {
        const p = freshPrefix();
        const names = ['k01', 'k02', 'k03', 'k04', 'k05', 'k06', 'k07'];
        const created = new Map<string, number>();
        for (const n of names) created.set(n, (await store.create(p + n, `${n}-v1`)).modRevision);

        const page1 = await store.list(p, { limit: 3 });
        expect(page1.items.map((kv) => kv.value)).toEqual(['k01-v1', 'k02-v1', 'k03-v1']);
        expect(page1.remaining).toBe(4);
        expect(page1.continue).toBeTypeOf('string');

        // Writes after the first page must be invisible to later pages.
        await store.update(`${p}k05`, 'k05-v2', created.get('k05')!);
        await store.create(`${p}k08`, 'k08-v1');
        await store.delete(`${p}k04`);

        const page2 = await store.list(p, { limit: 3, continue: page1.continue! });
        expect(page2.revision).toBe(page1.revision);
        expect(page2.items.map((kv) => kv.value)).toEqual(['k04-v1', 'k05-v1', 'k06-v1']);
        expect(page2.remaining).toBe(1);
        const page3 = await store.list(p, { limit: 3, continue: page2.continue! });
        expect(page3.items.map((kv) => kv.value)).toEqual(['k07-v1']);
        expect(page3.continue).toBeUndefined();
        expect(page3.remaining).toBe(0);

        const now = await store.list(p);
        expect(now.items.map((kv) => kv.value)).toEqual(['k01-v1', 'k02-v1', 'k03-v1', 'k05-v2', 'k06-v1', 'k07-v1', 'k08-v1']);
      });

      it('takes a limit beyond any count (up to the largest safe integer) as all, on both pages', async () => {
        const p = freshPrefix();
        for (const n of ['a', 'b', 'c']) await store.create(p + n, n);
        const all = await store.list(p, { limit: Number.MAX_SAFE_INTEGER });
        expect(all.items.map((kv) => kv.value)).toEqual(['a', 'b', 'c']);
        expect(all.continue).toBeUndefined();
        const first = await store.list(p, { limit: 1 });
        const rest = await store.list(p, { limit: Number.MAX_SAFE_INTEGER, continue: first.continue! });
        expect(rest.items.map((kv) => kv.value)).toEqual(['b', 'c']);
      });

      it('refuses a continue token from another prefix or that does not decode', async () => {
        const p = freshPrefix();
        for (const n of ['a', 'b', 'c']) await store.create(p + n, n);
        const page = await store.list(p, { limit: 1 });
        await expectStorageError(store.list(freshPrefix(), { limit: 1, continue: page.continue! }), 'InvalidContinue');
        await expectStorageError(store.list(p, { continue: 'not-a-token' }), 'InvalidContinue');
        await expectStorageError(store.list(p, { continue: Buffer.from('{"rev":"x"}').toString('base64url') }), 'InvalidContinue');
      });

      it('reads keys and lists as of a past revision', async () => {
        const p = freshPrefix();
        const a1 = await store.create(`${p}a`, 'a1');
        const b1 = await store.create(`${p}b`, 'b1');
        await store.update(`${p}a`, 'a2', a1.modRevision);
        await store.delete(`${p}b`, b1.modRevision);
        await store.create(`${p}c`, 'c1');

        expect((await store.get(`${p}a`, { revision: b1.modRevision })).kv?.value).toBe('a1');
        expect((await store.get(`${p}c`, { revision: b1.modRevision })).kv).toBeNull();
        const past = await store.list(p, { revision: b1.modRevision });
        expect(past.revision).toBe(b1.modRevision);
        expect(past.items.map((kv) => kv.value)).toEqual(['a1', 'b1']);
        expect(past.items[0]!.modRevision).toBe(a1.modRevision);
        expect((await store.list(p)).items.map((kv) => kv.value)).toEqual(['a2', 'c1']);
      });
    });

    describe('watch', () => {
      it('delivers create, update and delete from now on, in order, with previous values', async () => {
        const p = freshPrefix();
        await store.create(`${p}before`, 'old');
        const w = await watch(p);
        const a = await store.create(`${p}a`, 'a1');
        const a2 = await store.update(`${p}a`, 'a2', a.modRevision);
        const gone = await store.delete(`${p}a`);
        await store.create(`${freshPrefix()}elsewhere`, 'x');
        const events = await w.waitFor(3);
        expect(events).toEqual([
          { type: 'create', key: `${p}a`, revision: a.modRevision, value: 'a1', createRevision: a.createRevision },
          { type: 'update', key: `${p}a`, revision: a2.modRevision, value: 'a2', prevValue: 'a1', createRevision: a.createRevision },
          { type: 'delete', key: `${p}a`, revision: gone.modRevision, value: 'a2', prevValue: 'a2', createRevision: a.createRevision },
        ]);
        await w.expectNoMoreThan(3);
        expect(w.error).toBeUndefined();
      });

      it('replays history after a given revision and then follows live writes with no gap', async () => {
        const p = freshPrefix();
        const start = await store.currentRevision();
        const written: number[] = [];
        for (let i = 0; i < 10; i += 1) written.push((await store.create(`${p}k${i}`, `v${i}`)).modRevision);
        const w = await watch(p, start);
        for (let i = 10; i < 20; i += 1) written.push((await store.create(`${p}k${i}`, `v${i}`)).modRevision);
        const events = await w.waitFor(20);
        expect(events.map((e) => e.revision)).toEqual(written);
        expect(events.map((e) => e.value)).toEqual(written.map((_, i) => `v${i}`));
        await w.expectNoMoreThan(20);
      });

      it('resumes from the last seen revision without duplicates or gaps', async () => {
        const p = freshPrefix();
        const start = await store.currentRevision();
        const first = await watch(p, start);
        const written: number[] = [];
        for (let i = 0; i < 5; i += 1) written.push((await store.create(`${p}k${i}`, `v${i}`)).modRevision);
        await first.waitFor(5);
        watches.pop()?.close();
        const lastSeen = first.events.at(-1)!.revision;
        for (let i = 5; i < 10; i += 1) written.push((await store.create(`${p}k${i}`, `v${i}`)).modRevision);
        const second = await watch(p, lastSeen);
        for (let i = 10; i < 12; i += 1) written.push((await store.create(`${p}k${i}`, `v${i}`)).modRevision);
        await second.waitFor(7);
        expect([...first.events, ...second.events].map((e) => e.revision)).toEqual(written);
      });

      it('keeps concurrent writers’ events ordered and complete', async () => {
        const p = freshPrefix();
        const w = await watch(p);
        const kvs = await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(`${p}c${i}`, `v${i}`)));
        const events = await w.waitFor(50);
        const revisions = events.map((e) => e.revision);
        expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
        expect(new Set(revisions)).toEqual(new Set(kvs.map((kv) => kv.modRevision)));
      });

      it('stops delivering after close', async () => {
        const p = freshPrefix();
        const c = new EventCollector();
        const handle = await store.watch(p, {}, c.handler);
        await store.create(`${p}a`, 'a');
        await c.waitFor(1);
        handle.close();
        handle.close();
        await store.create(`${p}b`, 'b');
        await c.expectNoMoreThan(1);
      });

      it('reports progress up to the current revision when asked, with no write under the prefix (a watch from a revision: etcd serves it from its feed)', async (ctx) => {
        const quiet = freshPrefix();
        const c = new EventCollector();
        const handle = await store.watch(quiet, { sinceRevision: await store.currentRevision() }, c.handler);
        if (!handle.orderedProgress) {
          handle.close();
          ctx.skip(); // such a watch is never asked (see StoreWatch.orderedProgress)
        }
        await store.create(`${freshPrefix()}elsewhere`, 'x');
        const current = await store.currentRevision();
        const deadline = Date.now() + 5_000;
        while (!c.progress.some((rev) => rev >= current)) {
          if (Date.now() > deadline) throw new Error(`no progress to ${current}: ${c.progress.join(', ')}`);
          handle.requestProgress();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        handle.close();
        expect(c.events).toEqual([]);
      });
    });

    describe('unusual keys and large values', () => {
      it('stores legal but unusual names without confusing them with patterns or prefixes', async () => {
        const p = freshPrefix();
        const names = ['system:controller:x', 'a%b', 'a_b', 'ab', 'a', 'a-b', 'a.b', 'user@example.com', 'ünïcödé', 'UPPER', '0'];
        for (const n of names) await store.create(p + n, n);
        const listed = await store.list(p);
        expect(listed.items.map((kv) => kv.value).sort()).toEqual([...names].sort());
        expect(listed.items.map((kv) => kv.key)).toEqual(names.map((n) => p + n).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
        for (const n of names) expect((await store.get(p + n)).kv?.value).toBe(n);
        // Prefixes with pattern characters match literally, never as wildcards.
        await store.create(`${p}dir%/k`, 'percent');
        await store.create(`${p}dirx/k`, 'x');
        await store.create(`${p}dir_/k`, 'underscore');
        expect((await store.list(`${p}dir%/`)).items.map((kv) => kv.value)).toEqual(['percent']);
        expect((await store.list(`${p}dir_/`)).items.map((kv) => kv.value)).toEqual(['underscore']);
      });

      it('round-trips a 1.5 MiB value through create, get, list and watch', async () => {
        const p = freshPrefix();
        const big = 'x'.repeat(1.5 * 1024 * 1024 - 7) + 'the-end';
        const w = await watch(p);
        await store.create(`${p}big`, big);
        expect((await store.get(`${p}big`)).kv?.value).toBe(big);
        expect((await store.list(p)).items[0]!.value).toBe(big);
        const [event] = await w.waitFor(1);
        expect(event!.value).toBe(big);
      });
    });

    describe('compaction', () => {
      it('makes older revisions too old for get, list, continue and watch, and keeps current data', async () => {
        const p = freshPrefix();
        const a1 = await store.create(`${p}a`, 'a1');
        await store.create(`${p}b`, 'b1');
        await store.create(`${p}c`, 'c1');
        const page = await store.list(p, { limit: 1 });
        const a2 = await store.update(`${p}a`, 'a2', a1.modRevision);
        await store.delete(`${p}c`);
        const target = await store.currentRevision();
        await store.compact(target);
        expect(await store.compactedRevision()).toBeGreaterThanOrEqual(target);

        await expectStorageError(store.get(`${p}a`, { revision: a1.modRevision }), 'TooOld');
        await expectStorageError(store.list(p, { revision: a1.modRevision }), 'TooOld');
        await expectStorageError(store.list(p, { limit: 1, continue: page.continue! }), 'TooOld');
        await expectStorageError(store.watch(p, { sinceRevision: a1.modRevision }, new EventCollector().handler), 'TooOld');

        expect((await store.get(`${p}a`)).kv).toEqual(a2);
        expect((await store.list(p)).items.map((kv) => kv.value)).toEqual(['a2', 'b1']);
        const w = await watch(p, target);
        await store.create(`${p}d`, 'd1');
        expect((await w.waitFor(1))[0]!.value).toBe('d1');
      });
    });

    describe('health', () => {
      it('answers ping and a current revision', async () => {
        await store.ping();
        expect(await store.currentRevision()).toBeGreaterThan(0);
      });
    });
  });
}
