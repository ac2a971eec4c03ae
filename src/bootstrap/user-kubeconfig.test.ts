import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { prepareDataDir } from './data-dir.js';
import { issueUserKubeconfig } from './user-kubeconfig.js';

interface Kubeconfig {
  clusters: Array<{ cluster: { server: string } }>;
  users: Array<{ name: string; user: Record<string, string> }>;
}

const fromBase64 = (text: string | undefined) => Buffer.from(text ?? '', 'base64').toString('utf8');

/** t1 and system exist; nothing else does. */
const lookupTenantUid = async (tenant: string) => ({ t1: 'uid-of-t1', system: 'uid-of-system' })[tenant];

describe('issueUserKubeconfig', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'user-kubeconfig-'));
    await prepareDataDir({ dataDir, tokenAuthFile: join(dataDir, 'tokens.csv'), tlsSans: [], bindAddress: '127.0.0.1' }, pino({ level: 'silent' }));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('embeds a client certificate signed by the client CA by default, touching no token', async () => {
    const tokensBefore = await readFile(join(dataDir, 'tokens.csv'), 'utf8');
    const config = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user: 'alice', groups: ['dev'] })) as Kubeconfig;
    const user = config.users[0]!.user;
    expect(Object.keys(user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
    const cert = new X509Certificate(fromBase64(user['client-certificate-data']));
    const clientCa = new X509Certificate(await readFile(join(dataDir, 'client-ca.crt'), 'utf8'));
    expect(cert.verify(clientCa.publicKey)).toBe(true);
    expect(cert.subject).toBe('CN=alice\nO=tenant:t1\nOU=dev');
    expect(await readFile(join(dataDir, 'tokens.csv'), 'utf8')).toBe(tokensBefore);
  });

  it('points a tenant user at its own space’s URL, so kubectl’s discovery cache is the space’s own', async () => {
    for (const space of [undefined, 't1']) {
      const config = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user: 'alice', server: 'https://127.0.0.1:7443', ...(space ? { space } : {}) })) as Kubeconfig;
      expect(config.clusters[0]!.cluster.server).toBe('https://127.0.0.1:7443/tenants/t1');
    }
  });

  it('adds a token row with --token', async () => {
    const config = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user: 'bob', groups: ['dev'], credential: 'token' })) as Kubeconfig;
    const token = config.users[0]!.user.token!;
    expect(await readFile(join(dataDir, 'tokens.csv'), 'utf8')).toMatch(new RegExp(`^${token},bob,[0-9a-f-]{36},"dev",t1,uid-of-t1$`, 'm'));
  });

  it('keeps every row when several tokens are issued at once', async () => {
    const users = Array.from({ length: 8 }, (_, i) => `user${i}`);
    const configs = await Promise.all(users.map((user) => issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user, credential: 'token' })));
    const rows = await readFile(join(dataDir, 'tokens.csv'), 'utf8');
    for (const [i, text] of configs.entries()) {
      expect(rows).toMatch(new RegExp(`^${(parse(text) as Kubeconfig).users[0]!.user.token!},${users[i]},`, 'm'));
    }
  });

  it('points a system user at a space through the prefix form, and nobody else', async () => {
    const config = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 'system', user: 'root', space: 'all', server: 'https://127.0.0.1:7443/' })) as Kubeconfig;
    expect(config.clusters[0]!.cluster.server).toBe('https://127.0.0.1:7443/tenants/all');
    await expect(issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user: 'alice', space: 't2' })).rejects.toThrow(/only users of the system tenant/);
    const system = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 'system', user: 'root', server: 'https://127.0.0.1:7443' })) as Kubeconfig;
    expect(system.clusters[0]!.cluster.server).toBe('https://127.0.0.1:7443');
    await expect(issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 'all', user: 'alice' })).rejects.toThrow(/invalid tenant/);
  });

  it('binds a certificate to the tenant\'s uid, and refuses a tenant that does not exist', async () => {
    const config = parse(await issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 't1', user: 'alice' })) as Kubeconfig;
    const cert = new X509Certificate(fromBase64(config.users[0]!.user['client-certificate-data']));
    expect(cert.raw.includes(Buffer.from('uid-of-t1'))).toBe(true);
    await expect(issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 'nope', user: 'alice' })).rejects.toThrow(/tenant "nope" does not exist: create it first/);
    await expect(issueUserKubeconfig({ dataDir, lookupTenantUid, tenant: 'nope', user: 'bob', credential: 'token' })).rejects.toThrow(/does not exist/);
    expect(await readFile(join(dataDir, 'tokens.csv'), 'utf8')).not.toMatch(/,bob,/);
  });
});
