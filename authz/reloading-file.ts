/**
 * A file the server reads at start and again whenever it changes (checked at most once a second
 * by default, on use): the token file, the revoked-credentials file. What the file means is the
 * caller's `parse`; a file that cannot be re-read keeps its last good contents, so a file being
 * replaced never locks everybody out.
 *
 * @example
 *   const tokens = await ReloadingFile.load({ path, what: 'token file', parse: parseTokens, logger });
 *   const table = await tokens.current();
 */
import { readFile, stat } from 'node:fs/promises';
import type { BaseLogger } from 'pino';

export interface ReloadingFileOptions<T> {
  path: string;
  /** Its name in log lines ("token file"). */
  what: string;
  /** The file's meaning; may log its own problems (bad rows) and must not throw. */
  parse(text: string): T;
  logger: BaseLogger;
  /** Whether a missing file means empty text (a denylist nobody wrote yet) rather than an error. */
  optional?: boolean;
  /** Check the file for changes at most this often (ms). Default 1000. */
  recheckIntervalMs?: number;
}

/** Identity of one version of the file: an atomic rename changes ino, an edit in place mtime or size. */
interface FileVersion {
  ino: number;
  size: number;
  mtimeMs: number;
}

const ABSENT: FileVersion = { ino: -1, size: 0, mtimeMs: 0 };

export class ReloadingFile<T> {
  private value!: T;
  private version: FileVersion | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  private constructor(private readonly options: ReloadingFileOptions<T>) {}

  /** Reads the file; throws if it cannot be read (a server must not start without it), unless optional and absent. */
  static async load<T>(options: ReloadingFileOptions<T>): Promise<ReloadingFile<T>> {
    const file = new ReloadingFile(options);
    await file.read(await file.stat());
    file.checkedAt = Date.now();
    return file;
  }

  /** The parsed contents, re-read first if the file changed since the last check. */
  async current(): Promise<T> {
    if (Date.now() - this.checkedAt >= (this.options.recheckIntervalMs ?? 1000)) {
      // Concurrent requests share one check instead of each stat-ing the file.
      this.checking ??= this.check().finally(() => {
        this.checkedAt = Date.now();
        this.checking = null;
      });
      await this.checking;
    }
    return this.value;
  }

  /** The contents as last read, without checking the file. */
  get loaded(): T {
    return this.value;
  }

  private async stat(): Promise<FileVersion> {
    try {
      const info = await stat(this.options.path);
      return { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs };
    } catch (err) {
      if (this.options.optional && (err as NodeJS.ErrnoException).code === 'ENOENT') return ABSENT;
      throw err;
    }
  }

  private async check(): Promise<void> {
    const { path, what, logger } = this.options;
    try {
      const version = await this.stat();
      const old = this.version;
      if (old && old.ino === version.ino && old.size === version.size && old.mtimeMs === version.mtimeMs) return;
      await this.read(version);
      logger.info({ path }, `${what} reloaded`);
    } catch (err) {
      logger.warn({ path, err }, `cannot re-read the ${what}; keeping its previous contents`);
    }
  }

  private async read(version: FileVersion): Promise<void> {
    const text = version === ABSENT ? '' : await readFile(this.options.path, 'utf8');
    this.value = this.options.parse(text);
    this.version = version;
  }
}
