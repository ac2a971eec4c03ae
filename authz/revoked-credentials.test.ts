import { mkdtempSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { appendRevokedCredentials, parseRevokedCredentials, RevokedCredentials, unlessTokenRevoked } from './revoked-credentials.js';
import { tokenDigest } from './token-file.js';

const logger = pino({ level: 'silent' });

describe('parseRevokedCredentials', () => {
  it('reads certificate serials (any spelling) and token digests, and skips what is malformed', () => {
    const { keys, problems } = parseRevokedCredentials('# revoked\ncertificate,00AB12,2026-01-01T00:00:00Z,left\n\ntoken,DEADBEEF\npassword,x\ntoken,not-hex\n');
    expect([...keys]).toEqual(['certificate:ab12', 'token:deadbeef']);
    expect(problems).toEqual([
      { line: 5, reason: 'unknown kind "password": certificate or token' },
      { line: 6, reason: 'token id must be hex, got "not-hex"' },
    ]);
  });
});

describe('RevokedCredentials', () => {
  it('revokes nothing while the file is missing, and what is appended once re-read', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'revoked-')), 'revoked.csv');
    const revoked = await RevokedCredentials.load(path, logger, { recheckIntervalMs: 0 });
    expect(await revoked.isRevoked('certificate', 'ab12')).toBe(false);
    await appendRevokedCredentials(path, [{ kind: 'certificate', id: 'ab12' }]);
    expect(await revoked.isRevoked('certificate', '00AB12')).toBe(true);
    expect(await revoked.isRevoked('token', 'ab12')).toBe(false);
  });

  it('makes a revoked bearer token prove nothing, whoever would accept it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'revoked-')), 'revoked.csv');
    writeFileSync(path, `token,${tokenDigest('stolen')}\n`);
    const revoked = await RevokedCredentials.load(path, logger);
    const anyone = unlessTokenRevoked(revoked, async () => ({ name: 'alice', uid: '', groups: [], tenant: 't1', extra: {} }));
    const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` }, socket: new Socket() });
    expect(await anyone(request('stolen'))).toBeNull();
    expect(await anyone(request('fine'))).toMatchObject({ name: 'alice' });
  });
});
