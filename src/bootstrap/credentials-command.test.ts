import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCredentials, revokeCredentials, revokedCredentialsPath } from './credentials-command.js';
import { recordIssuedCredential } from './issued-credentials.js';

describe('kube-spaces credentials', () => {
  it('lists what was issued, and revokes by id or by user, once each', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'credentials-'));
    const revokedFile = revokedCredentialsPath(dataDir);
    const at = new Date('2026-01-02T03:04:05Z');
    await recordIssuedCredential(dataDir, { kind: 'certificate', id: '00AB12', tenant: 't1', user: 'alice', groups: ['dev'], source: 'csr/alice', notAfter: '2027-01-02T03:04:05.000Z' }, at);
    await recordIssuedCredential(dataDir, { kind: 'token', id: 'cafe', tenant: 't1', user: 'alice', groups: [], source: 'kubeconfig' }, at);
    await recordIssuedCredential(dataDir, { kind: 'token', id: 'beef', tenant: 't2', user: 'alice', groups: [], source: 'kubeconfig' }, at);

    expect(await revokeCredentials(dataDir, revokedFile, { ids: ['ab12'] })).toEqual([{ kind: 'certificate', id: 'ab12' }]);
    expect(await revokeCredentials(dataDir, revokedFile, { ids: [], user: 'alice', tenant: 't1' })).toHaveLength(2);
    await expect(revokeCredentials(dataDir, revokedFile, { ids: ['ffff'] })).rejects.toThrow(/ffff is not in .* issued-credentials log/);
    // Revoking again adds no row.
    expect((await readFile(revokedFile, 'utf8')).trim().split('\n').map((row) => row.split(',').slice(0, 2).join(','))).toEqual(['certificate,ab12', 'token,cafe']);

    expect((await listCredentials(dataDir, revokedFile)).split('\n')).toEqual([
      'KIND\tID\tTENANT\tUSER\tGROUPS\tSOURCE\tISSUED\tEXPIRES\tREVOKED',
      'certificate\tab12\tt1\talice\tdev\tcsr/alice\t2026-01-02T03:04:05.000Z\t2027-01-02T03:04:05.000Z\tyes',
      'token\tcafe\tt1\talice\t<none>\tkubeconfig\t2026-01-02T03:04:05.000Z\t<none>\tyes',
      'token\tbeef\tt2\talice\t<none>\tkubeconfig\t2026-01-02T03:04:05.000Z\t<none>\tno',
      '',
    ]);
  });
});
