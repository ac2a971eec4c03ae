import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from './audit-log.js';

describe('AuditLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-log-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one JSON line per event, in order, without waiting', async () => {
    const log = await AuditLog.open({ path: join(dir, 'audit.log'), maxSizeMb: 0, maxBackups: 0, maxAgeDays: 0 });
    for (let i = 0; i < 100; i += 1) log.write({ i });
    await log.close();
    const lines = (await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).i)).toEqual([...Array(100).keys()]);
  });

  it('drops and counts what does not fit the buffer, never blocking', async () => {
    let dropped = 0;
    const log = await AuditLog.open({ path: join(dir, 'audit.log'), maxSizeMb: 0, maxBackups: 0, maxAgeDays: 0, bufferSize: 10, onDropped: () => (dropped += 1) });
    for (let i = 0; i < 25; i += 1) log.write({ i });
    await log.close();
    expect(dropped).toBe(15);
    expect((await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n')).toHaveLength(10);
  });

  it('rotates past --audit-log-maxsize and keeps --audit-log-maxbackup backups', async () => {
    const log = await AuditLog.open({ path: join(dir, 'audit.log'), maxSizeMb: 0.001, maxBackups: 2, maxAgeDays: 0 });
    const big = { pad: 'x'.repeat(700) };
    for (let i = 0; i < 5; i += 1) {
      log.write({ ...big, i });
      // One write each, so each crosses the limit on its own.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await log.close();
    const names = (await readdir(dir)).sort();
    expect(names.filter((n) => n.startsWith('audit-') && n.endsWith('.log'))).toHaveLength(2);
    expect(names).toContain('audit.log');
    expect((await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l).i)).toEqual([4]);
  });
});
