import { describe, expect, it } from 'vitest';
import type { Lease } from '../../../api/kinds/coordination/lease.js';
import { apiserverId, base32Lower, isExpired } from './identity-lease.js';

describe('apiserverId', () => {
  it('is apiserver- and 16 bytes of SHA-256 in lower-case unpadded base32, as kube-apiserver names its identity Lease', () => {
    // RFC 4648's test vectors, without padding.
    expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((t) => base32Lower(Buffer.from(t)))).toEqual(['', 'my', 'mzxq', 'mzxw6', 'mzxw6yq', 'mzxw6ytb', 'mzxw6ytboi']);
    const id = apiserverId('host-a', '127.0.0.1:6443');
    expect(id).toMatch(/^apiserver-[a-z2-7]{26}$/);
    expect(apiserverId('host-a', '127.0.0.1:6443')).toBe(id);
    expect(apiserverId('host-a', '127.0.0.1:6444')).not.toBe(id);
    expect(apiserverId('host-b', '127.0.0.1:6443')).not.toBe(id);
  });
});

describe('isExpired', () => {
  const lease = (renewTime: string | undefined, leaseDurationSeconds: number | undefined): Lease => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'x' }, spec: { renewTime, leaseDurationSeconds } });
  const now = Date.parse('2026-01-01T12:00:00Z');
  it('is true past renewTime + duration, or without either, as kube-apiserver judges identity Leases', () => {
    expect(isExpired(lease('2026-01-01T11:59:00.000000Z', 3600), now)).toBe(false);
    expect(isExpired(lease('2026-01-01T10:59:00.000000Z', 3600), now)).toBe(true);
    expect(isExpired(lease(undefined, 3600), now)).toBe(true);
    expect(isExpired(lease('2026-01-01T11:59:00.000000Z', undefined), now)).toBe(true);
  });
});
