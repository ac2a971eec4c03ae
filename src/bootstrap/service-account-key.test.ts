import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceAccountTokens } from '../../authz/service-account-token.js';
import { ensureServiceAccountKey, SERVICE_ACCOUNT_KEY_FILE } from './service-account-key.js';

const logger = pino({ level: 'silent' });

describe('ensureServiceAccountKey', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('creates an owner-only P-256 key once and reuses it, so tokens survive a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sa-key-'));
    const first = await ensureServiceAccountKey(dir, logger);
    expect(statSync(join(dir, SERVICE_ACCOUNT_KEY_FILE)).mode & 0o777).toBe(0o600);
    const { token } = new ServiceAccountTokens(first).issue({ tenant: 't1', namespace: 'ns1', name: 'default', uid: 'u' }, { expirationSeconds: 600 });
    const second = await ensureServiceAccountKey(dir, logger);
    expect(second).toBe(first);
    expect(new ServiceAccountTokens(second).verify(token)).toMatchObject({ tenant: 't1', name: 'default' });
  });
});
