import 'reflect-metadata';
import { type AddressInfo, Socket } from 'node:net';
import { connect, createServer, type Server } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { craftCertificate as craft } from '../e2e/harness/certificates.js';
import { type CertificateAndKey, createCa, issueClientCertificate, issueServingCertificate } from '../src/bootstrap/certificates.js';
import { x509Authenticator } from './x509-authenticator.js';

describe('x509Authenticator', async () => {
  const servingCa = await createCa('serving-ca');
  const serving = await issueServingCertificate(servingCa, ['localhost']);
  const clientCa = await createCa('client-ca');
  const otherCa = await createCa('client-ca');
  /** Each warning logged, as its message and field values in one line. */
  const warnings: string[] = [];
  const log = { warn: (obj: object, msg: string) => warnings.push([msg, ...Object.values(obj).map(String)].join(' ')) };
  const authenticate = x509Authenticator({ clientCa: clientCa.cert, log });
  let server: Server;

  beforeAll(async () => {
    // As the API server: a certificate is asked for, none is required, and Node judges none.
    server = createServer({ key: serving.key, cert: serving.cert, requestCert: true, rejectUnauthorized: false }, (socket) => {
      void authenticate({ headers: {}, socket }).then((user) => socket.end(JSON.stringify(user)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    warnings.length = 0;
  });

  /** What the server's authenticator made of a connection presenting `client` (or no certificate). */
  function identityOf(client?: CertificateAndKey): Promise<unknown> {
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ca: servingCa.cert, ...client });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(JSON.parse(text)));
      socket.on('error', reject);
    });
  }

  it('maps CN to the user, O=tenant:<t> to the tenant, OU to groups, with no uid', async () => {
    const alice = await issueClientCertificate(clientCa, { user: 'alice', tenant: 't1', groups: ['dev', 'ops, with a comma'] });
    expect(await identityOf(alice)).toEqual({ name: 'alice', uid: '', groups: ['dev', 'ops, with a comma'], tenant: 't1', extra: {} });
    expect(warnings).toEqual([]);
  });

  it('reads the tenant uid a certificate is bound to from its extension', async () => {
    const bound = await issueClientCertificate(clientCa, { user: 'alice', tenant: 't1', groups: [], tenantUid: '5c0e7a64-1111-4222-8333-944455556666' });
    expect(await identityOf(bound)).toEqual({ name: 'alice', uid: '', groups: [], tenant: 't1', extra: {}, tenantUid: '5c0e7a64-1111-4222-8333-944455556666' });
  });

  it('reads other O entries as groups too, as Kubernetes does', async () => {
    const admin = await craft(clientCa, [{ CN: ['admin'] }, { O: ['system:masters'] }, { O: ['tenant:system'] }, { OU: ['ops'] }]);
    expect(await identityOf(admin)).toMatchObject({ name: 'admin', tenant: 'system', groups: ['ops', 'system:masters'] });
  });

  it('proves nothing without a certificate, and logs nothing', async () => {
    expect(await identityOf()).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('proves nothing on a connection without TLS', async () => {
    expect(await authenticate({ headers: {}, socket: new Socket() })).toBeNull();
  });

  it.each<[string, () => Promise<CertificateAndKey>, RegExp]>([
    ['signed by another CA', () => issueClientCertificate(otherCa, { user: 'mallory', tenant: 't1', groups: [] }), /not signed by the client CA/],
    ['expired', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['tenant:t1'] }], { notAfter: new Date(Date.now() - 60_000) }), /expired/],
    ['without a tenant', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['system:masters'] }]), /names 0 tenants/],
    ['with two tenants', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['tenant:t1'] }, { O: ['tenant:t2'] }]), /names 2 tenants/],
    ['with the tenant all', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['tenant:all'] }]), /invalid tenant "all"/],
    ['without a common name', () => craft(clientCa, [{ O: ['tenant:t1'] }]), /no single common name/],
    ['for servers only', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['tenant:t1'] }], { usages: [x509.ExtendedKeyUsage.serverAuth] }), /extended key usage/],
    ['a CA', () => craft(clientCa, [{ CN: ['alice'] }, { O: ['tenant:t1'] }], { isCa: true }), /CA certificate/],
  ])('refuses a certificate %s and logs why', async (_what, make, reason) => {
    expect(await identityOf(await make())).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(reason);
  });

  it('refuses the serving certificate, signed by another CA', async () => {
    expect(await identityOf(serving)).toBeNull();
    expect(warnings[0]).toMatch(/not signed by the client CA/);
  });
});
