import { describe, expect, it } from 'vitest';
import { create } from '../apps/testing.js';
import { certificateSigningRequests, requestCondition, validateSignerName, type CertificateSigningRequest } from './certificate-signing-request.js';
import { opensslCertificateRequest } from './testing.js';

const request = Buffer.from(opensslCertificateRequest('/CN=alice').csr).toString('base64');
const csr = (spec: CertificateSigningRequest['spec'], status?: CertificateSigningRequest['status']): CertificateSigningRequest => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name: 'alice' },
  spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...spec },
  ...(status ? { status } : {}),
});
const messages = (obj: CertificateSigningRequest) => certificateSigningRequests.validate!(obj).map((e) => `${e.field}: ${e.message}`);

describe('CertificateSigningRequest validation', () => {
  it('accepts a client request', () => {
    expect(messages(csr({}))).toEqual([]);
  });

  it("refuses what Kubernetes refuses, in its words", () => {
    expect(messages(csr({ request: Buffer.from('hello').toString('base64'), usages: [], signerName: '', expirationSeconds: 60 }))).toEqual([
      'spec.request: Invalid value: "<request data>": PEM block type must be CERTIFICATE REQUEST',
      'spec.usages: Required value',
      'spec.signerName: Required value',
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    expect(messages(csr({ usages: ['client auth', 'flying', 'client auth'] }))).toEqual([
      expect.stringMatching(/^spec\.usages\[1\]: Unsupported value: "flying": supported values: "any", /),
      'spec.usages[2]: Duplicate value: "client auth"',
    ]);
  });

  it.each([
    ['example', "spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the form 'example.com/signer-name'"],
    ['example/signer', 'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
    ['Example.com/signer', expect.stringMatching(/^spec\.signerName: Invalid value: "Example\.com": validating label "Example": a lowercase RFC 1123 label/)],
    ['example.com/Signer', expect.stringMatching(/^spec\.signerName: Invalid value: "Signer": validating component "Signer": a lowercase RFC 1123 subdomain/)],
  ])('checks the signer name %s', (signerName, message) => {
    expect(validateSignerName('spec.signerName', signerName).map((e) => `${e.field}: ${e.message}`)).toEqual([message]);
  });

  it('checks conditions', () => {
    const conditions = [
      { type: 'Approved', status: 'True' },
      { type: 'Denied', status: 'False' },
      { type: 'Ready', status: 'Maybe' },
      { type: 'Ready', status: 'True' },
    ];
    expect(messages(csr({}, { conditions }))).toEqual([
      'status.conditions[1].status: Unsupported value: "False": supported values: "True"',
      'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
      'status.conditions[2].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[3].type: Duplicate value: "Ready"',
    ]);
  });

  it('keeps the request and lets only the approval subresource decide, and status issue once', () => {
    const pending = csr({});
    const approved = csr({}, { conditions: [{ type: 'Approved', status: 'True' }] });
    const issued = csr({}, { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from('-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n').toString('base64') });
    const update = (next: CertificateSigningRequest, old: CertificateSigningRequest, sub?: 'status' | 'approval') => certificateSigningRequests.validateUpdate!(next, old, sub).map((e) => e.message);
    expect(update(approved, pending, 'approval')).toEqual([]);
    expect(update(approved, pending, 'status')).toEqual(['Forbidden: updates may not add a condition of type "Approved"']);
    expect(update(pending, approved, 'approval')).toEqual(['Forbidden: updates may not remove a condition of type "Approved"']);
    expect(update(issued, approved, 'status')).toEqual([]);
    expect(update(issued, approved, 'approval')).toEqual(['Forbidden: updates may not set certificate content']);
  });
});

describe('CertificateSigningRequest', () => {
  it('takes the requester from the server, never the body', async () => {
    const { object } = await create(certificateSigningRequests, csr({ username: 'forged', groups: ['system:masters'], extra: { a: ['b'] } }));
    expect(object.spec).toMatchObject({ username: '', groups: [] });
    expect(object.spec?.extra).toBeUndefined();
  });

  it('prints the condition as kubectl does', () => {
    expect(requestCondition(csr({}))).toBe('Pending');
    expect(requestCondition(csr({}, { conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Zm9v' }))).toBe('Approved,Issued');
    expect(requestCondition(csr({}, { conditions: [{ type: 'Denied', status: 'True' }, { type: 'Failed', status: 'True' }] }))).toBe('Denied,Failed');
  });
});
