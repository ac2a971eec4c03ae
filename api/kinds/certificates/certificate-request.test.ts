import { describe, expect, it } from 'vitest';
import { parseCertificateRequest } from './certificate-request.js';
import { opensslCertificateRequest } from './testing.js';

/** The request with the last byte of its signature changed: its signature no longer holds. */
function tampered(pem: string): string {
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  der[der.length - 1]! ^= 0x01;
  return `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
}

describe('parseCertificateRequest', () => {
  it.each(['ec', 'rsa'] as const)('reads the subject of an openssl %s request', (keyType) => {
    const { csr } = opensslCertificateRequest('/CN=alice/O=dev/O=ops', keyType);
    const request = parseCertificateRequest(csr);
    expect(request.commonNames).toEqual(['alice']);
    expect(request.organizations).toEqual(['dev', 'ops']);
  });

  it('refuses what is not a CERTIFICATE REQUEST block', () => {
    expect(() => parseCertificateRequest('hello')).toThrow('PEM block type must be CERTIFICATE REQUEST');
    expect(() => parseCertificateRequest('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow('PEM block type must be CERTIFICATE REQUEST');
  });

  it.each([
    ['ec', 'x509: ECDSA verification failure'],
    ['rsa', 'crypto/rsa: verification error'],
  ] as const)('refuses a %s request whose signature does not hold', (keyType, message) => {
    const { csr } = opensslCertificateRequest('/CN=alice', keyType);
    expect(() => parseCertificateRequest(tampered(csr))).toThrow(message);
  });
});
