import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { SERVICE_ACCOUNT_ISSUER, ServiceAccountTokens } from './service-account-token.js';

const pem = (): string => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const key = pem();
const tokens = new ServiceAccountTokens(key);
const account = { tenant: 't1', namespace: 'ns1', name: 'default', uid: '0b6c7c9e-0000-4000-8000-000000000001' };
const now = new Date('2026-01-01T00:00:00Z');
const later = (seconds: number): Date => new Date(now.getTime() + seconds * 1000);

describe('ServiceAccountTokens', () => {
  it('issues a token carrying Kubernetes claims and the tenant, and verifies it', () => {
    const { token, expirationTimestamp } = tokens.issue(account, { expirationSeconds: 3600, now });
    expect(expirationTimestamp).toEqual(later(3600));
    expect(jwt.decode(token, { complete: true })?.header.alg).toBe('ES256');
    expect(jwt.decode(token)).toEqual({
      iss: SERVICE_ACCOUNT_ISSUER,
      sub: 'system:serviceaccount:ns1:default',
      aud: [SERVICE_ACCOUNT_ISSUER],
      iat: now.getTime() / 1000,
      nbf: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 3600,
      'kubernetes.io': { namespace: 'ns1', serviceaccount: { name: 'default', uid: account.uid }, tenant: 't1' },
    });
    expect(tokens.verify(token, { now: later(10) })).toEqual(account);
    expect(ServiceAccountTokens.isOurs(token)).toBe(true);
  });

  it('refuses an expired token', () => {
    const { token } = tokens.issue(account, { expirationSeconds: 600, now });
    expect(() => tokens.verify(token, { now: later(601) })).toThrow(/expired/);
  });

  it('refuses a token for another audience, and accepts it for that audience', () => {
    const { token } = tokens.issue(account, { audiences: ['vault'], expirationSeconds: 600, now });
    expect(() => tokens.verify(token, { now })).toThrow(/audience/);
    expect(tokens.verify(token, { audience: 'vault', now })).toEqual(account);
  });

  it('refuses a token signed by another key', () => {
    const { token } = new ServiceAccountTokens(pem()).issue(account, { expirationSeconds: 600, now });
    expect(() => tokens.verify(token, { now })).toThrow(/signature/);
  });

  it('refuses an unsigned token (alg none)', () => {
    const claims = jwt.decode(tokens.issue(account, { expirationSeconds: 600, now }).token) as jwt.JwtPayload;
    const unsigned = jwt.sign(claims, '', { algorithm: 'none' });
    expect(ServiceAccountTokens.isOurs(unsigned)).toBe(true);
    expect(() => tokens.verify(unsigned, { now })).toThrow();
  });

  it('refuses our signature over a subject that does not match the account claim', () => {
    const claims = jwt.decode(tokens.issue(account, { expirationSeconds: 600, now }).token) as jwt.JwtPayload;
    const forged = jwt.sign({ ...claims, sub: 'system:serviceaccount:kube-system:admin' }, createPrivateKey(key), { algorithm: 'ES256' });
    expect(() => tokens.verify(forged, { now })).toThrow(/subject/);
  });

  it('does not take strangers for its own tokens', () => {
    expect(ServiceAccountTokens.isOurs('a-token-file-token')).toBe(false);
    expect(ServiceAccountTokens.isOurs(jwt.sign({ iss: 'https://elsewhere' }, 'secret'))).toBe(false);
  });
});
