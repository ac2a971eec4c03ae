import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTokenFile, TokenFile } from './token-file.js';

describe('parseTokenFile', () => {
  it.each([
    ['tok,alice,u1', { token: 'tok', user: { name: 'alice', uid: 'u1', groups: [], tenant: null, extra: {} } }],
    ['tok,alice,u1,"g1,g2",t1', { token: 'tok', user: { name: 'alice', uid: 'u1', groups: ['g1', 'g2'], tenant: 't1', extra: {} } }],
    ['tok,alice,u1,g1,t1', { token: 'tok', user: { name: 'alice', uid: 'u1', groups: ['g1'], tenant: 't1', extra: {} } }],
    ['tok, alice , u1 , " g1 , g2 " , t1', { token: 'tok', user: { name: 'alice', uid: 'u1', groups: ['g1', 'g2'], tenant: 't1', extra: {} } }],
    ['tok,alice,,,', { token: 'tok', user: { name: 'alice', uid: '', groups: [], tenant: null, extra: {} } }],
    ['"to,k",alice,u1,"",system', { token: 'to,k', user: { name: 'alice', uid: 'u1', groups: [], tenant: 'system', extra: {} } }],
    ['tok,"al""ice",u1', { token: 'tok', user: { name: 'al"ice', uid: 'u1', groups: [], tenant: null, extra: {} } }],
    ['tok,system:serviceaccount:ns:sa,u1,"system:serviceaccounts,system:serviceaccounts:ns",t-2', {
      token: 'tok',
      user: { name: 'system:serviceaccount:ns:sa', uid: 'u1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'], tenant: 't-2', extra: {} },
    }],
  ])('%s', (line, row) => {
    expect(parseTokenFile(line)).toEqual({ rows: [row], problems: [] });
  });

  it.each([
    ['tok,alice', 'expected 3 to 6 columns'],
    ['tok,alice,u1,g,t1,uid,extra', 'expected 3 to 6 columns'],
    ['tok,alice,u1,g,,uid', 'a tenant uid without a tenant'],
    [',alice,u1', 'empty token'],
    ['tok,,u1', 'empty user name'],
    ['tok,alice,u1,"g1,g2', 'quotes'],
    ['tok,al"ice,u1', 'quotes'],
    ['tok,alice,u1,"g1"x,t1', 'quotes'],
    ['tok,alice,u1,g,T1', 'invalid tenant'],
    ['tok,alice,u1,g,all', 'invalid tenant'],
    ['tok,alice,u1,g,-t', 'invalid tenant'],
  ])('skips the malformed row %s', (line, reason) => {
    const parsed = parseTokenFile(`good,bob,u2\n${line}\n`);
    expect(parsed.rows.map((r) => r.user.name)).toEqual(['bob']);
    expect(parsed.problems).toHaveLength(1);
    expect(parsed.problems[0]?.line).toBe(2);
    expect(parsed.problems[0]?.reason).toContain(reason);
  });

  it('ignores blank lines and comments, and reads CRLF files', () => {
    const parsed = parseTokenFile('# token,user,uid,groups,tenant\r\n\r\n  \r\na,alice,u1,,t1\r\nb,bob,u2,,t2\r\n');
    expect(parsed.problems).toEqual([]);
    expect(parsed.rows.map((r) => [r.token, r.user.tenant])).toEqual([['a', 't1'], ['b', 't2']]);
  });
});

describe('TokenFile', () => {
  let dir: string;
  let path: string;
  const logger = pino({ level: 'silent' });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'token-file-'));
    path = join(dir, 'tokens.csv');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('looks tokens up, returning copies the caller may change', async () => {
    await writeFile(path, 'secret,admin,u1,"system:masters",system\nbad-row\n');
    const tokens = await TokenFile.load(path, logger);
    expect(tokens.size).toBe(1);
    const user = await tokens.lookup('secret');
    expect(user).toEqual({ name: 'admin', uid: 'u1', groups: ['system:masters'], tenant: 'system', extra: {} });
    user?.groups.push('mutated');
    expect((await tokens.lookup('secret'))?.groups).toEqual(['system:masters']);
    expect(await tokens.lookup('secre')).toBeNull();
    expect(await tokens.lookup('secret ')).toBeNull();
  });

  it('refuses to load a missing file', async () => {
    await expect(TokenFile.load(path, logger)).rejects.toThrow(/ENOENT/);
  });

  it('picks up edits and atomic replacements, and keeps the last good table when the file vanishes', async () => {
    await writeFile(path, 'one,alice,u1,,t1\n');
    const tokens = await TokenFile.load(path, logger, { recheckIntervalMs: 0 });
    expect((await tokens.lookup('one'))?.name).toBe('alice');

    await writeFile(path, 'one,alice,u1,,t1\ntwo,bob,u2,,t2\n');
    expect((await tokens.lookup('two'))?.name).toBe('bob');

    await writeFile(join(dir, 'next.csv'), 'three,carol,u3,,t3\n');
    await rename(join(dir, 'next.csv'), path);
    expect(await tokens.lookup('one')).toBeNull();
    expect((await tokens.lookup('three'))?.tenant).toBe('t3');

    await rm(path);
    expect((await tokens.lookup('three'))?.name).toBe('carol');
  });

  it('checks the file at most once per interval', async () => {
    await writeFile(path, 'one,alice,u1,,t1\n');
    const tokens = await TokenFile.load(path, logger, { recheckIntervalMs: 60_000 });
    await writeFile(path, 'two,bob,u2,,t2\n');
    expect(await tokens.lookup('two')).toBeNull();
  });
});
