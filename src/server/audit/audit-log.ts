/**
 * The audit log backend (`--audit-log-path`, `-` for stdout): one JSON event a line, written in
 * the background so a request never waits for the disk. Events queue in a bounded buffer; when it
 * is full (the disk cannot keep up) an event is dropped and counted, never blocking the request
 * path, as kube-apiserver's buffered backend in its non-blocking mode. Rotation as
 * kube-apiserver's (lumberjack): past `maxSizeMb` the file is renamed to
 * `<name>-<UTC time>.<ext>` and a new one begun; backups past `maxBackups` or older than
 * `maxAgeDays` are removed (0: keep all).
 *
 * @example
 *   const log = await AuditLog.open({ path: '/var/log/kube-spaces/audit.log', maxSizeMb: 100, maxBackups: 10, maxAgeDays: 30 });
 *   log.write(event);        // returns at once
 *   await log.close();       // flushes what is queued
 */
import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

export interface AuditLogOptions {
  /** A file, or `-` for stdout. */
  path: string;
  /** Rotate past this size (MB); 0: never. */
  maxSizeMb: number;
  /** Rotated files kept; 0: all. */
  maxBackups: number;
  /** Days a rotated file is kept; 0: forever. */
  maxAgeDays: number;
  /** Events queued at most before new ones are dropped. Default 10,000. */
  bufferSize?: number;
  /** Called once for each dropped event (a metric). */
  onDropped?: () => void;
  /** Called when a write fails (the event is lost; later ones are tried). */
  onError?: (err: unknown) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class AuditLog {
  private queue: string[] = [];
  private flushing: Promise<void> | null = null;
  private size = 0;
  private closed = false;

  private constructor(
    private readonly options: AuditLogOptions,
    private file: FileHandle | null,
  ) {}

  static async open(options: AuditLogOptions): Promise<AuditLog> {
    if (options.path === '-') return new AuditLog(options, null);
    const file = await open(options.path, 'a', 0o600);
    const log = new AuditLog(options, file);
    log.size = (await file.stat()).size;
    return log;
  }

  /** Queues one event; drops it (and counts it) when the queue is full. Never waits. */
  write(event: object): void {
    if (this.closed) return;
    if (this.queue.length >= (this.options.bufferSize ?? 10_000)) {
      this.options.onDropped?.();
      return;
    }
    this.queue.push(`${JSON.stringify(event)}\n`);
    this.flushing ??= this.flush();
  }

  /** Writes what is queued and closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await this.file?.close();
    this.file = null;
  }

  /** Drains the queue in batches, one write each; runs until the queue is empty. */
  private async flush(): Promise<void> {
    // Yield first, so the events of one tick share a write.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue.join('');
      this.queue = [];
      try {
        await this.append(batch);
      } catch (err) {
        this.options.onError?.(err);
      }
    }
    this.flushing = null;
  }

  private async append(batch: string): Promise<void> {
    if (this.file === null) {
      process.stdout.write(batch);
      return;
    }
    const bytes = Buffer.byteLength(batch);
    const limit = this.options.maxSizeMb * 1024 * 1024;
    if (limit > 0 && this.size > 0 && this.size + bytes > limit) await this.rotate();
    await this.file.appendFile(batch);
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    const path = this.options.path;
    const ext = extname(path);
    const stem = basename(path, ext);
    const stamp = new Date().toISOString().replace(/:/g, '-');
    await this.file!.close();
    await rename(path, join(dirname(path), `${stem}-${stamp}${ext}`));
    this.file = await open(path, 'a', 0o600);
    this.size = 0;
    await this.removeOldBackups(stem, ext);
  }

  private async removeOldBackups(stem: string, ext: string): Promise<void> {
    const dir = dirname(this.options.path);
    const backups: Array<{ path: string; mtimeMs: number }> = [];
    for (const name of await readdir(dir)) {
      if (!name.startsWith(`${stem}-`) || !name.endsWith(ext) || name === basename(this.options.path)) continue;
      const path = join(dir, name);
      backups.push({ path, mtimeMs: (await stat(path)).mtimeMs });
    }
    backups.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? 1 : -1));
    const { maxBackups, maxAgeDays } = this.options;
    const expired = backups.filter((b, i) => (maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && Date.now() - b.mtimeMs > maxAgeDays * DAY_MS));
    await Promise.all(expired.map((b) => rm(b.path, { force: true })));
  }
}
