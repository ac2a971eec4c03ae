/**
 * CertificateSigningRequests end to end in one process: the requester recorded by the server,
 * the subject rules, approval needing `approve` on the signer, and the signer issuing a
 * certificate bound to the request's space.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../../api/access.js';
import { opensslCertificateRequest } from '../../api/kinds/certificates/testing.js';
import type { CertificateSigningRequest } from '../../api/kinds/certificates/certificate-signing-request.js';
import type { KubeObject } from '../../api/registry/object.js';
import { TENANT_UID_URI_PREFIX } from '../../authz/x509-authenticator.js';
import { createCa, signClientCertificate } from '../../src/bootstrap/certificates.js';
import { startInProcessServer, testUser, type InProcessServer } from '../../src/testing/in-process-server.js';
import type { IssuedCertificate } from './csr-signing-controller.js';

const log = { info: vi.fn(), error: vi.fn() };
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });
const PATH = '/apis/certificates.k8s.io/v1/tenants';

function csrBody(name: string, subject: string, extra: Partial<CertificateSigningRequest['spec']> = {}): CertificateSigningRequest {
  const { csr } = opensslCertificateRequest(subject);
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(csr).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], username: 'forged', groups: ['system:masters'], ...extra },
  };
}

describe('CSR signing', () => {
  let server: InProcessServer;
  const issued: IssuedCertificate[] = [];
  const admin = (tenant: string): UserInfo => testUser('admin', tenant, ['tenant-admins']);

  const send = async (user: UserInfo, method: 'GET' | 'POST' | 'PUT', path: string, body?: KubeObject) => {
    const res = await server.app.inject({ method, url: path, headers: { authorization: `Bearer ${server.tokenFor(user)}` }, ...(body ? { payload: body } : {}) });
    return { status: res.statusCode, body: res.json() as CertificateSigningRequest & { message?: string } };
  };
  const approve = async (user: UserInfo, tenant: string, name: string, type: 'Approved' | 'Denied' = 'Approved') => {
    const current = (await send(user, 'GET', `${PATH}/${tenant}/certificatesigningrequests/${name}`)).body;
    current.status = { ...current.status, conditions: [{ type, status: 'True', reason: 'KubectlApprove', message: 'approved in a test' }] };
    return send(user, 'PUT', `${PATH}/${tenant}/certificatesigningrequests/${name}/approval`, current);
  };

  beforeAll(async () => {
    const clientCa = await createCa('test-client-ca');
    server = await startInProcessServer({
      log,
      controllers: { signClientCertificate: (identity, key, notAfter) => signClientCertificate(clientCa, identity, key, notAfter), recordIssued: async (i) => void issued.push(i) },
    });
    const tenants = server.plane.registry.lookup('', 'v1', 'tenants')!;
    for (const name of ['t1', 't2']) await server.plane.generic.create(tenants, { tenant: '' }, { apiVersion: 'v1', kind: 'Tenant', metadata: { name } });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('records the requester, not what the client claims, and issues an approved request bound to its space', async () => {
    const created = await eventually(async () => {
      const res = await send(admin('t1'), 'POST', `${PATH}/t1/certificatesigningrequests`, csrBody('alice', '/CN=alice/O=dev/O=ops'));
      expect(res.status).toBe(201);
      return res.body;
    });
    expect(created.spec).toMatchObject({ username: 'admin', groups: ['tenant-admins', 'system:authenticated'] });
    expect(created.status).toEqual({});

    expect((await approve(admin('t1'), 't1', 'alice')).status).toBe(200);
    const signed = await eventually(async () => {
      const res = await send(admin('t1'), 'GET', `${PATH}/t1/certificatesigningrequests/alice`);
      expect(res.body.status?.certificate).toBeTruthy();
      return res.body;
    });
    const cert = new x509.X509Certificate(Buffer.from(signed.status!.certificate!, 'base64').toString('utf8'));
    expect(cert.subjectName.getField('CN')).toEqual(['alice']);
    expect(cert.subjectName.getField('O')).toEqual(['tenant:t1']);
    expect(cert.subjectName.getField('OU')).toEqual(['dev', 'ops']);
    const tenant = await server.plane.generic.get(server.plane.registry.lookup('', 'v1', 'tenants')!, { tenant: '', name: 't1' });
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension)!;
    expect(san.names.items.map((n) => n.value)).toEqual([`${TENANT_UID_URI_PREFIX}${tenant.metadata.uid}`]);
    expect(issued).toEqual([expect.objectContaining({ tenant: 't1', user: 'alice', groups: ['dev', 'ops'], request: 'alice', serialNumber: cert.serialNumber.toLowerCase() })]);
  });

  it('refuses requests for system:masters anywhere, and system: identities in a tenant space', async () => {
    const masters = await send(admin('t1'), 'POST', `${PATH}/t1/certificatesigningrequests`, csrBody('m', '/CN=bob/O=system:masters'));
    expect(masters.status).toBe(403);
    expect(masters.body.message).toBe('certificatesigningrequests.certificates.k8s.io "m" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
    const systemUser = await send(admin('t1'), 'POST', `${PATH}/t1/certificatesigningrequests`, csrBody('s', '/CN=system:kube-scheduler'));
    expect(systemUser.status).toBe(403);
    const tenantOrg = await send(admin('t1'), 'POST', `${PATH}/t1/certificatesigningrequests`, csrBody('o', '/CN=bob/O=tenant:t2'));
    expect(tenantOrg.status).toBe(403);
  });

  it('lets only who may approve for the signer approve, and never issues a denied request', async () => {
    expect((await send(admin('t1'), 'POST', `${PATH}/t1/certificatesigningrequests`, csrBody('carol', '/CN=carol'))).status).toBe(201);
    const stranger = await approve(testUser('carol', 't1'), 't1', 'carol');
    expect(stranger.status).toBe(403);
    expect((await approve(admin('t1'), 't1', 'carol', 'Denied')).status).toBe(200);
    const again = await approve(admin('t1'), 't1', 'carol');
    expect(again.status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await send(admin('t1'), 'GET', `${PATH}/t1/certificatesigningrequests/carol`)).body.status?.certificate).toBeUndefined();
  });

  it('selects requests by signer, as signers list theirs', async () => {
    const list = async (signer: string) =>
      (await send(admin('t1'), 'GET', `${PATH}/t1/certificatesigningrequests?fieldSelector=spec.signerName%3D${encodeURIComponent(signer)}`)).body as unknown as { items: KubeObject[] };
    expect((await list('kubernetes.io/kube-apiserver-client')).items.map((csr) => csr.metadata.name)).toContain('alice');
    expect((await list('example.com/other')).items).toEqual([]);
  });

  it('marks a request for server usages Failed', async () => {
    expect((await send(admin('t2'), 'POST', `${PATH}/t2/certificatesigningrequests`, csrBody('web', '/CN=web', { usages: ['server auth'] }))).status).toBe(201);
    expect((await approve(admin('t2'), 't2', 'web')).status).toBe(200);
    const failed = await eventually(async () => {
      const res = await send(admin('t2'), 'GET', `${PATH}/t2/certificatesigningrequests/web`);
      expect(res.body.status?.conditions?.map((c) => c.type)).toEqual(['Approved', 'Failed']);
      return res.body;
    });
    expect(failed.status?.conditions?.[1]).toMatchObject({ reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: ["server auth"]' });
    expect(failed.status?.certificate).toBeUndefined();
  });
});
