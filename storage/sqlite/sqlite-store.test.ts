import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runStoreConformance } from '../conformance.js';
import { isStorageError, StorageError, type StorageErrorCode } from '../errors.js';
import type { KeyValue, Store, WatchEvent, WatchHandler } from '../store.js';
import { castSqliteError } from './errors.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');

const tempDirs: string[] = [];
function tempDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kube-spaces-sqlite-'));
  tempDirs.push(dir);
  return join(dir, 'state.db');
}
runStoreConformance('sqlite', async () => {
  const path = tempDbPath();
  const store = await openSqliteStore(path, { compactIntervalMs: 0 });
  return {
    store,
    cleanup: () => store.close(), // its temp dir goes with the others, after the file
  };
});

/** Stores opened by one test, closed after it. */
const openStores: Store[] = [];
async function open(path = tempDbPath(), opts: SqliteStoreOptions = { compactIntervalMs: 0 }): Promise<Store> {
  const store = await openSqliteStore(path, opts);
  openStores.push(store);
  return store;
}
afterEach(async () => {
  for (const store of openStores.splice(0)) await store.close();
});
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

async function storageErrorOf(p: Promise<unknown>): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StorageError) return err;
    throw err;
  }
  throw new Error('expected a StorageError, but the call succeeded');
}

function expectCode(err: unknown, code: StorageErrorCode): void {
  expect(isStorageError(err, code), String(err)).toBe(true);
}

/** Reads the log as another connection would: what is on disk, committed. */
function logRows(path: string): Array<{ id: number; key: string; deleted: number }> {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], { id: number; key: string; deleted: number }>('SELECT id, key, deleted FROM log ORDER BY id').all();
  } finally {
    db.close();
  }
}

class Recorder implements WatchHandler {
  readonly events: WatchEvent[] = [];
  readonly progress: number[] = [];
  error: Error | undefined;
  onEvent(event: WatchEvent): void {
    this.events.push(event);
  }
  onProgress(revision: number): void {
    this.progress.push(revision);
  }
  onError(err: Error): void {
    this.error = err;
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('sqlite store: group commit', () => {
  it('commits 100 concurrent creates of distinct keys together, each with its own revision', async () => {
    const store = await open();
    const before = await store.currentRevision();
    const kvs = await Promise.all(Array.from({ length: 100 }, (_, i) => store.create(`/registry/g/k${i}`, `v${i}`)));
    const revisions = kvs.map((kv) => kv.modRevision);
    expect(new Set(revisions).size).toBe(100);
    // One batch, applied in arrival order: consecutive revisions after `before`.
    expect(revisions).toEqual(Array.from({ length: 100 }, (_, i) => before + 1 + i));
    expect(await store.currentRevision()).toBe(before + 100);
  });

  it('lets exactly one of 100 concurrent updates with the same expected revision win', async () => {
    const store = await open();
    const base = await store.create('/registry/g/one', 'v0');
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => store.update('/registry/g/one', `w${i}`, base.modRevision)),
    );
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(99);
    for (const err of lost) {
      expectCode(err, 'Conflict');
      expect((err as StorageError).revision).toBe(won[0]!.modRevision);
    }
    expect((await store.get('/registry/g/one')).kv).toEqual(won[0]);
  });

  it('gives each write of a batch its own outcome; failed writes use no revision', async () => {
    const store = await open();
    const existing = await store.create('/registry/g/existing', 'e');
    const before = await store.currentRevision();
    const results = await Promise.allSettled([
      store.create('/registry/g/new', 'n1'),
      store.create('/registry/g/new', 'n2'), // sees the first create, earlier in the same batch
      store.update('/registry/g/missing', 'x', 1),
      store.update('/registry/g/existing', 'e2', existing.modRevision),
      store.delete('/registry/g/existing', existing.modRevision), // stale after the update above
      store.delete('/registry/g/existing'),
    ]);
    const summary = results.map((r) =>
      r.status === 'fulfilled' ? r.value.modRevision : (r.reason as StorageError).code,
    );
    expect(summary).toEqual([before + 1, 'AlreadyExists', 'NotFound', before + 2, 'Conflict', before + 3]);
    expect((await store.get('/registry/g/new')).kv?.value).toBe('n1');
    expect((await store.get('/registry/g/existing')).kv).toBeNull();
    expect(await store.currentRevision()).toBe(before + 3);
  });

  it('acknowledges a write only once it is committed', async () => {
    const path = tempDbPath();
    const store = await open(path);
    const kvs = await Promise.all([store.create('/registry/g/a', 'a'), store.create('/registry/g/b', 'b')]);
    // A second connection sees only committed data.
    expect(logRows(path).map((r) => r.id)).toEqual(kvs.map((kv) => kv.modRevision));
  });
});

describe('sqlite store: durability', () => {
  it('keeps every acknowledged write, the revision and the compacted revision across a reopen', async () => {
    const path = tempDbPath();
    const first = await openSqliteStore(path, { compactIntervalMs: 0 });
    const written: KeyValue[] = [];
    for (let i = 0; i < 50; i += 1) written.push(await first.create(`/registry/r/k${i}`, `v${i}`));
    const updated = await first.update('/registry/r/k0', 'v0b', written[0]!.modRevision);
    const deleted = await first.delete('/registry/r/k1');
    await first.compact(deleted.modRevision - 1);
    const revision = await first.currentRevision();
    const list = await first.list('/registry/r/');
    await first.close();

    const second = await open(path);
    expect(await second.currentRevision()).toBe(revision);
    expect(await second.compactedRevision()).toBe(deleted.modRevision - 1);
    expect(await second.list('/registry/r/')).toEqual(list);
    expect((await second.get('/registry/r/k0')).kv).toEqual(updated);
    expect((await second.get('/registry/r/k1', { revision: deleted.modRevision - 1 })).kv?.value).toBe('v1');
    expect((await second.create('/registry/r/next', 'n')).modRevision).toBe(revision + 1);
  });

  it('never reuses a revision, even when compaction removed the newest rows', async () => {
    const path = tempDbPath();
    const first = await openSqliteStore(path, { compactIntervalMs: 0 });
    await first.create('/registry/r/a', 'a');
    const gone = await first.delete('/registry/r/a');
    await first.compact(gone.modRevision); // removes the tombstone, the log's newest row
    expect(logRows(path)).toEqual([]);
    await first.close();

    const second = await open(path);
    expect(await second.currentRevision()).toBe(gone.modRevision);
    const again = await second.create('/registry/r/a', 'a2');
    expect(again.modRevision).toBe(gone.modRevision + 1);
    expect(again.createRevision).toBe(again.modRevision);
  });

  it('keeps every acknowledged write when the writing process is killed with SIGKILL', async () => {
    const compiled = join(repoRoot, 'dist', 'storage', 'sqlite', 'sqlite-store.js');
    assertCompiledStoreIsFresh(compiled);
    const path = tempDbPath();
    const child = spawn(process.execPath, [join(here, 'durable-writer.fixture.mjs'), path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.split('\n').length > 2000) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exit = await new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('close', (code, signal) => resolve(signal ?? code)),
    );
    expect(exit, `the writer should have been killed; stderr: ${stderr}`).toBe('SIGKILL');

    // Only whole lines: a line cut by the kill was still acknowledged, but it is not needed.
    const acknowledged = stdout.split('\n').slice(0, -1);
    expect(acknowledged.length).toBeGreaterThanOrEqual(2000);
    const store = await open(path);
    const missing: string[] = [];
    for (const key of acknowledged) if ((await store.get(key)).kv === null) missing.push(key);
    expect(missing).toEqual([]);
    // The survivors are exactly a set of whole creates, and the store takes new writes.
    const listed = await store.list('/registry/durability/');
    expect(listed.items.length).toBeGreaterThanOrEqual(acknowledged.length);
    expect(listed.items.every((kv) => kv.createRevision === kv.modRevision)).toBe(true);
    await store.create('/registry/durability/after-crash', 'ok');
  });
});

/** The fixture runs the compiled store; testing a missing or stale build would prove nothing. */
function assertCompiledStoreIsFresh(compiled: string): void {
  if (!existsSync(compiled)) {
    throw new Error(`${compiled} is missing: run \`npm run build\` first (\`npm test\` does).`);
  }
  const builtAt = statSync(compiled).mtimeMs;
  const sources = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const newer = sources.filter((f) => statSync(join(here, f)).mtimeMs > builtAt);
  if (newer.length > 0) {
    throw new Error(`dist/ is older than ${newer.join(', ')}: run \`npm run build\` first (\`npm test\` does).`);
  }
}

describe('sqlite store: list', () => {
  it('orders keys by their UTF-8 bytes, as etcd does', async () => {
    const store = await open();
    // JavaScript's UTF-16 order puts U+10000 before U+FFFF; UTF-8 bytes do not.
    const names = ['\u{10000}', '\u{ffff}', 'z', 'é', 'A'];
    for (const n of names) await store.create(`/registry/u/${n}`, n);
    const byBytes = [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect((await store.list('/registry/u/')).items.map((kv) => kv.value)).toEqual(byBytes);
    const page = await store.list('/registry/u/', { limit: 2 });
    const rest = await store.list('/registry/u/', { continue: page.continue! });
    expect([...page.items, ...rest.items].map((kv) => kv.value)).toEqual(byBytes);
    expect(page.remaining).toBe(3);
  });

  it('serves a revision above the current one at the current one', async () => {
    const store = await open();
    const kv = await store.create('/registry/f/a', 'a');
    expect((await store.list('/registry/f/', { revision: kv.modRevision + 100 })).revision).toBe(kv.modRevision);
    expect((await store.get('/registry/f/a', { revision: kv.modRevision + 100 })).revision).toBe(kv.modRevision);
  });
});

describe('sqlite store: compaction', () => {
  it('keeps exactly the latest row of each live key, and nothing of deleted keys', async () => {
    const path = tempDbPath();
    const store = await open(path);
    const a = await store.create('/registry/c/a', 'a1');
    const a2 = await store.update('/registry/c/a', 'a2', a.modRevision);
    const b = await store.create('/registry/c/b', 'b1');
    await store.delete('/registry/c/b', b.modRevision);
    const b2 = await store.create('/registry/c/b', 'b2'); // recreated after a delete
    const c = await store.create('/registry/c/c', 'c1');
    await store.delete('/registry/c/c');
    await store.compact(await store.currentRevision());
    expect(logRows(path)).toEqual([
      { id: a2.modRevision, key: '/registry/c/a', deleted: 0 },
      { id: b2.modRevision, key: '/registry/c/b', deleted: 0 },
    ]);
    expect((await store.list('/registry/c/')).items).toEqual([a2, b2]);
    // Writes after compaction chain onto the kept rows; a compacted-away key starts afresh.
    await store.update('/registry/c/b', 'b3', b2.modRevision);
    const c2 = await store.create('/registry/c/c', 'c2');
    expect(c2.createRevision).toBe(c2.modRevision);
    expect(c.modRevision).toBeLessThan(c2.modRevision);
  });

  it('compacts a long history in slices and keeps reads above the compacted revision exact', async () => {
    const store = await open();
    let kv = await store.create('/registry/c/hot', '0');
    const history: KeyValue[] = [kv];
    for (let i = 1; i <= 2500; i += 1) {
      kv = await store.update('/registry/c/hot', String(i), kv.modRevision);
      history.push(kv);
    }
    const target = history[2000]!.modRevision;
    await store.compact(target);
    expect(await store.compactedRevision()).toBe(target);
    expectCode(await storageErrorOf(store.get('/registry/c/hot', { revision: target - 1 })), 'TooOld');
    for (const past of [history[2000]!, history[2100]!, history[2500]!]) {
      expect((await store.get('/registry/c/hot', { revision: past.modRevision })).kv).toEqual(past);
    }
  });

  it('reports the oldest kept revision in TooOld, and ignores a compaction below it', async () => {
    const store = await open();
    const a = await store.create('/registry/c/a', 'a');
    await store.create('/registry/c/b', 'b');
    await store.compact(a.modRevision + 1);
    await store.compact(a.modRevision); // no-op: already compacted further
    expect(await store.compactedRevision()).toBe(a.modRevision + 1);
    const err = await storageErrorOf(store.list('/registry/c/', { revision: a.modRevision }));
    expectCode(err, 'TooOld');
    expect(err.revision).toBe(a.modRevision + 1);
  });

  it('keeps the last compactWindow revisions with the periodic compactor', async () => {
    const store = await open(tempDbPath(), { compactWindow: 5, compactIntervalMs: 10 });
    let kv = await store.create('/registry/c/k', '0');
    for (let i = 1; i < 20; i += 1) kv = await store.update('/registry/c/k', String(i), kv.modRevision);
    await until(async () => (await store.compactedRevision()) === kv.modRevision - 5, 'the periodic compactor');
    expect((await store.get('/registry/c/k', { revision: kv.modRevision - 5 })).kv?.value).toBe('14');
  });
});

describe('sqlite store: watch', () => {
  it('replays a history longer than one slice, then follows writes made during the replay', async () => {
    const store = await open();
    const start = await store.currentRevision();
    const expected: number[] = [];
    for (let i = 0; i < 2500; i += 1) {
      // Mostly other prefixes: replay slices are revision ranges, most of them without a match.
      const key = i % 10 === 0 ? `/registry/w/mine/k${i}` : `/registry/w/other/k${i}`;
      const kv = await store.create(key, String(i));
      if (i % 10 === 0) expected.push(kv.modRevision);
    }
    const rec = new Recorder();
    await store.watch('/registry/w/mine/', { sinceRevision: start }, rec);
    // These land while the replay is still in progress.
    const live = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(`/registry/w/mine/live${i}`, 'l')));
    expected.push(...live.map((kv) => kv.modRevision));
    await until(() => rec.events.length >= expected.length, 'every event');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rec.events.map((e) => e.revision)).toEqual(expected);
    expect(rec.error).toBeUndefined();
  });

  it('reports progress to a watch whose prefix a batch did not touch', async () => {
    const store = await open();
    const rec = new Recorder();
    await store.watch('/registry/w/quiet/', {}, rec);
    const kv = await store.create('/registry/w/busy/a', 'a');
    expect(rec.progress).toContain(kv.modRevision);
    expect(rec.events).toEqual([]);
  });

  it('fails a replaying watch with TooOld when compaction overtakes it', async () => {
    const store = await open();
    const start = await store.currentRevision();
    for (let i = 0; i < 10; i += 1) await store.create(`/registry/w/k${i}`, 'v');
    const rec = new Recorder();
    await store.watch('/registry/w/', { sinceRevision: start }, rec);
    await store.compact(await store.currentRevision()); // before the first replay slice runs
    await until(() => rec.error !== undefined, 'the watch error');
    expectCode(rec.error, 'TooOld');
    expect(rec.events).toEqual([]);
  });

  it('ends a watch whose handler throws, and keeps serving writes and other watches', async () => {
    const store = await open();
    const broken = new Recorder();
    broken.onEvent = () => {
      throw new Error('handler bug');
    };
    const healthy = new Recorder();
    await store.watch('/registry/w/', {}, broken);
    await store.watch('/registry/w/', {}, healthy);
    await store.create('/registry/w/a', 'a');
    await store.create('/registry/w/b', 'b');
    expect(broken.error?.message).toBe('handler bug');
    expect(healthy.events.map((e) => e.key)).toEqual(['/registry/w/a', '/registry/w/b']);
  });

  it('sends Unavailable to open watches on close, and refuses calls afterwards', async () => {
    const store = await openSqliteStore(tempDbPath(), { compactIntervalMs: 0 });
    const rec = new Recorder();
    await store.watch('/registry/w/', {}, rec);
    const queued = store.create('/registry/w/queued', 'q'); // queued, not yet committed
    await store.close();
    expect((await queued).value).toBe('q');
    expect(rec.events.map((e) => e.key)).toEqual(['/registry/w/queued']);
    expectCode(rec.error, 'Unavailable');
    expectCode(await storageErrorOf(store.get('/registry/w/queued')), 'Unavailable');
    expectCode(await storageErrorOf(store.create('/registry/w/late', 'l')), 'Unavailable');
    expectCode(await storageErrorOf(store.ping()), 'Unavailable');
    await store.close(); // idempotent
  });
});

describe('sqlite store: errors', () => {
  it('casts driver errors to StorageError and passes other errors through', () => {
    expectCode(castSqliteError(new Database.SqliteError('locked', 'SQLITE_BUSY'), '/k'), 'Unavailable');
    expectCode(castSqliteError(new Database.SqliteError('dup', 'SQLITE_CONSTRAINT_UNIQUE'), '/k'), 'Conflict');
    const bug = new TypeError('a bug');
    expect(castSqliteError(bug, '/k')).toBe(bug);
  });

  it('answers Unavailable when the database cannot be opened', async () => {
    const dir = dirname(tempDbPath());
    expectCode(await storageErrorOf(openSqliteStore(dir)), 'Unavailable'); // a directory, not a file
  });
});
