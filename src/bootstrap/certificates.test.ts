import 'reflect-metadata';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { createCa, issueClientCertificate, issueServingCertificate } from './certificates.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

describe('certificates', async () => {
  const ca = await createCa('test-ca');
  const serving = await issueServingCertificate(ca, ['localhost', '127.0.0.1', '::1', 'api.example.test']);

  it('makes a CA that may sign certificates, valid about ten years', () => {
    const cert = new X509Certificate(ca.cert);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=test-ca');
    expect(cert.verify(cert.publicKey)).toBe(true);
    const usage = new x509.X509Certificate(ca.cert).getExtension(x509.KeyUsagesExtension);
    expect(usage?.critical).toBe(true);
    expect((usage?.usages ?? 0) & x509.KeyUsageFlags.keyCertSign).toBeTruthy();
    const days = (Date.parse(cert.validTo) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(3640);
    expect(days).toBeLessThan(3660);
  });

  it('issues a serving certificate with the hosts as SANs and the serverAuth usage, valid about a year', () => {
    const cert = new X509Certificate(serving.cert);
    const caCert = new X509Certificate(ca.cert);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.keyUsage).toEqual([SERVER_AUTH]);
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.example.test');
    const days = (Date.parse(cert.validTo) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThan(370);
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now());
  });

  it('issues a client certificate: CN user, O=tenant:<t>, OU per group, clientAuth, P-256, valid about a year', async () => {
    const alice = await issueClientCertificate(ca, { user: 'alice', tenant: 't1', groups: ['dev', 'a,b'] });
    const cert = new X509Certificate(alice.cert);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(new X509Certificate(ca.cert)) && cert.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(cert.keyUsage).toEqual([CLIENT_AUTH]);
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(new x509.X509Certificate(alice.cert).subjectName.toJSON()).toEqual([{ CN: ['alice'] }, { O: ['tenant:t1'] }, { OU: ['dev'] }, { OU: ['a,b'] }]);
    expect(cert.checkPrivateKey(createPrivateKey(alice.key))).toBe(true);
    const days = (Date.parse(cert.validTo) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThan(370);
  });

  it('serves TLS that a client trusting only the CA accepts', async () => {
    const server = createServer({ key: serving.key, cert: serving.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, ca: ca.cert, servername: 'localhost' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      expect(body).toBe('ok');
    } finally {
      server.close();
    }
  });
});
