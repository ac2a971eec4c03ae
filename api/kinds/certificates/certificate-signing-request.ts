/**
 * certificates.k8s.io/v1 CertificateSigningRequest, space-scoped (cluster-scoped in Kubernetes):
 * a PKCS#10 request for a certificate from a signer, approved or denied through the `approval`
 * subresource (`kubectl certificate approve|deny`) and issued through `status` by the signer
 * (controllers/certificates/). The requester's identity in `spec.username/uid/groups/extra` is
 * the server's to set, from whoever creates the request. Kubernetes' behaviour:
 * `pkg/apis/certificates/validation`, `pkg/registry/certificates/certificates/strategy.go`, and
 * kubectl's printer columns.
 */
import { fieldErrors, type FieldError } from '../../registry/field-error.js';
import type { KubeObject } from '../../registry/object.js';
import { ageColumn, defineKind, humanDuration, nameColumn, type PrinterColumn, type UpdateSubresource } from '../../registry/resource-definition.js';
import { defineKindSchema, timeField } from '../../schema/meta.js';
import { bytes, define, described, integer, list, map, object, string } from '../../schema/schema.js';
import { semanticEqual } from '../../validation/equality.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.js';
import { column } from '../core/table-cells.js';
import { parseCertificateRequest } from './certificate-request.js';

const PACKAGE = 'io.k8s.api.certificates.v1.';

/** The signer of client certificates that kube-apiserver (here: kube-spaces) accepts. */
export const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';

export interface CertificateSigningRequestCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  spec?: {
    /** Base64 of the PEM request, as JSON carries bytes. */
    request?: string;
    signerName?: string;
    expirationSeconds?: number;
    usages?: string[];
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: {
    conditions?: CertificateSigningRequestCondition[];
    /** Base64 of the PEM certificate chain, once issued. */
    certificate?: string;
  };
}

const spec = define(
  `${PACKAGE}CertificateSigningRequestSpec`,
  object('The certificate request, and the identity of whoever made it.', {
    request: bytes('A PEM-encoded PKCS#10 certificate request ("CERTIFICATE REQUEST" block).'),
    signerName: string('The signer asked to sign, e.g. kubernetes.io/kube-apiserver-client.'),
    expirationSeconds: integer('The requested validity of the certificate; at least 600 seconds.'),
    usages: list(string('A key usage.'), 'Key usages requested in the certificate.', { listType: 'atomic' }),
    username: string('The user who created the request; set by the server.'),
    uid: string('The uid of the user who created the request; set by the server.'),
    groups: list(string('A group.'), 'The groups of the user who created the request; set by the server.', { listType: 'atomic' }),
    extra: map(list(string('A value.'), 'Values.'), 'Extra attributes of the user who created the request; set by the server.'),
  }),
);

const condition = define(
  `${PACKAGE}CertificateSigningRequestCondition`,
  object('One condition of a request: Approved, Denied or Failed.', {
    type: string('Approved, Denied, Failed, or another condition.'),
    status: string('True, False or Unknown; Approved, Denied and Failed are always True.'),
    reason: string('Machine-readable reason.'),
    message: string('Human-readable details.'),
    lastUpdateTime: timeField('When the condition was last updated.'),
    lastTransitionTime: timeField('When the condition last changed status.'),
  }),
);

const status = define(
  `${PACKAGE}CertificateSigningRequestStatus`,
  object('Whether the request is approved, denied or failed, and the issued certificate.', {
    conditions: list(described(condition, 'One condition.'), 'Conditions of the request.', { listType: 'map', mapKeys: ['type'] }),
    certificate: bytes('The issued PEM certificate chain ("CERTIFICATE" blocks), set by the signer once approved.'),
  }),
);

const schema = defineKindSchema(
  `${PACKAGE}CertificateSigningRequest`,
  { group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest' },
  'A request for a certificate from a signer.',
  {
    spec: described(spec, 'The request.'),
    status: described(status, 'Approval and the issued certificate.'),
  },
  ['spec'],
);

const ALL_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
/** Condition types that may only be True. */
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);
const MAX_SIGNER_NAME_LENGTH = 571;
/** Below this kube refuses the request: shorter certificates are more trouble than they are worth. */
const MIN_EXPIRATION_SECONDS = 600;

/** `spec.request` or `status.certificate` as text (JSON carries them as base64). */
export function decodedBytes(base64: string | undefined): string {
  return Buffer.from(base64 ?? '', 'base64').toString('utf8');
}

/** Kubernetes' ValidateSignerName: `<domain with a dot>/<path of DNS subdomains>`, at most 571 characters. */
export function validateSignerName(field: string, signerName: string | undefined): FieldError[] {
  if (!signerName) return [fieldErrors.required(field)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [fieldErrors.invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, path] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(fieldErrors.tooLong(field, 253));
  const labels = domain.split('.');
  for (const label of labels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    errs.push(...problems.map((m) => fieldErrors.invalid(field, domain, `validating label ${JSON.stringify(label)}: ${m}`)));
    break; // later labels' errors would only repeat these
  }
  if (labels.length < 2) errs.push(fieldErrors.invalid(field, domain, 'should be a domain with at least two segments separated by dots'));
  for (const component of path.split('.')) {
    errs.push(...isDNS1123Subdomain(component).map((m) => fieldErrors.invalid(field, path, `validating component ${JSON.stringify(component)}: ${m}`)));
  }
  if (signerName.length > MAX_SIGNER_NAME_LENGTH) errs.push(fieldErrors.tooLong(field, MAX_SIGNER_NAME_LENGTH));
  return errs;
}

/** Conditions: types present, statuses known (True only for Approved/Denied/Failed), no type twice, not both Approved and Denied. */
function validateConditions(conditions: readonly CertificateSigningRequestCondition[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = c.type ?? '';
    if (!type) errs.push(fieldErrors.required(`${path}.type`));
    const allowed = TRUE_ONLY_TYPES.has(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(fieldErrors.required(`${path}.status`));
    else if (!allowed.includes(c.status)) errs.push(fieldErrors.notSupported(`${path}.status`, c.status, allowed));
    if (type === 'Approved') {
      approved = true;
      if (denied) errs.push(fieldErrors.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
    } else if (type === 'Denied') {
      denied = true;
      if (approved) errs.push(fieldErrors.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (seen.has(type)) errs.push(fieldErrors.duplicate(`${path}.type`, type));
    seen.add(type);
  });
  return errs;
}

/** Go's validateCertificate: only CERTIFICATE blocks, at least one. */
function certificateProblem(pem: string): string | undefined {
  if (pem === '') return undefined;
  const types = [...pem.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1]!);
  const other = types.find((t) => t !== 'CERTIFICATE');
  if (other !== undefined) return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(other)}`;
  if (types.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

function validateCertificateSigningRequest(obj: CertificateSigningRequest): FieldError[] {
  const s = obj.spec ?? {};
  const errs: FieldError[] = [];
  try {
    parseCertificateRequest(decodedBytes(s.request));
  } catch (err) {
    errs.push(fieldErrors.invalid('spec.request', '<request data>', (err as Error).message));
  }
  const usages = s.usages ?? [];
  if (usages.length === 0) errs.push(fieldErrors.required('spec.usages'));
  usages.forEach((usage, i) => {
    if (!ALL_USAGES.includes(usage)) errs.push(fieldErrors.notSupported(`spec.usages[${i}]`, usage, ALL_USAGES));
    if (usages.indexOf(usage) !== i) errs.push(fieldErrors.duplicate(`spec.usages[${i}]`, usage));
  });
  if (s.signerName === 'kubernetes.io/legacy-unknown') errs.push(fieldErrors.invalid('spec.signerName', s.signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName('spec.signerName', s.signerName));
  if (s.expirationSeconds !== undefined && s.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errs.push(fieldErrors.invalid('spec.expirationSeconds', s.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(obj.status?.conditions ?? []));
  const problem = certificateProblem(decodedBytes(obj.status?.certificate));
  if (problem) errs.push(fieldErrors.invalid('status.certificate', '<certificate data>', problem));
  return errs;
}

function conditionsOfType(obj: CertificateSigningRequest, type: string): CertificateSigningRequestCondition[] {
  return (obj.status?.conditions ?? []).filter((c) => c.type === type);
}

/**
 * Kubernetes' update rules: Approved, Denied and Failed conditions are
 * never removed; only `approval` sets Approved/Denied; only `status` sets the certificate, once.
 */
function validateUpdate(obj: CertificateSigningRequest, old: CertificateSigningRequest, subresource?: UpdateSubresource): FieldError[] {
  const errs: FieldError[] = [];
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOfType(obj, type).length < conditionsOfType(old, type).length) errs.push(fieldErrors.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(type)}`));
  }
  if (subresource !== 'approval') {
    for (const type of ['Approved', 'Denied']) {
      const before = conditionsOfType(old, type);
      const after = conditionsOfType(obj, type);
      if (after.length > before.length) errs.push(fieldErrors.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (after.length === before.length && !semanticEqual(before, after)) errs.push(fieldErrors.forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(type)}`));
    }
  }
  const certificate = obj.status?.certificate ?? '';
  const oldCertificate = old.status?.certificate ?? '';
  if (certificate !== oldCertificate) {
    if (subresource !== 'status') errs.push(fieldErrors.forbidden('status.certificate', 'updates may not set certificate content'));
    else if (oldCertificate !== '') errs.push(fieldErrors.forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** kubectl's CONDITION cell: Approved, Denied or Pending, then `,Failed` and `,Issued`. */
export function requestCondition(obj: CertificateSigningRequest): string {
  const has = (type: string): boolean => conditionsOfType(obj, type).length > 0;
  let condition = has('Denied') ? 'Denied' : has('Approved') ? 'Approved' : 'Pending';
  if (has('Failed')) condition += ',Failed';
  if (obj.status?.certificate) condition += ',Issued';
  return condition;
}

const columns: PrinterColumn<CertificateSigningRequest>[] = [
  nameColumn as PrinterColumn<CertificateSigningRequest>,
  ageColumn as PrinterColumn<CertificateSigningRequest>,
  column('SignerName', 'string', 'The signer asked to sign the request.', (csr) => csr.spec?.signerName || '<none>'),
  column('Requestor', 'string', 'The user who created the request.', (csr) => csr.spec?.username ?? ''),
  column('RequestedDuration', 'string', 'The requested validity of the certificate.', (csr) =>
    csr.spec?.expirationSeconds === undefined ? '<none>' : humanDuration(csr.spec.expirationSeconds * 1000),
  ),
  column('Condition', 'string', 'Approved, Denied or Pending, and whether it failed or was issued.', requestCondition),
];

export const certificateSigningRequests = defineKind<CertificateSigningRequest>({
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  scope: 'space',
  shortNames: ['csr'],
  schema,
  // Kubernetes does not care what requests are called.
  nameRule: 'path-segment',
  status: true,
  subresources: [{ name: 'approval', kind: 'CertificateSigningRequest', verbs: ['get', 'update', 'patch'] }],
  // Who asks is the server's to say, never the client's (the signer issues for the subject, and approvers judge by the requester).
  prepareForCreate: (obj, ctx) => {
    const user = ctx.user;
    obj.spec = { ...obj.spec, username: user?.name ?? '', uid: user?.uid ?? '', groups: [...(user?.groups ?? [])], extra: { ...(user?.extra ?? {}) } };
    if (!obj.spec.uid) delete obj.spec.uid;
    if (Object.keys(obj.spec.extra!).length === 0) delete obj.spec.extra;
    obj.status = {};
  },
  // The request never changes once made, as in Kubernetes (a changed spec is ignored, not refused).
  prepareForUpdate: (obj, old) => {
    obj.spec = old.spec;
  },
  validate: validateCertificateSigningRequest,
  validateUpdate,
  columns,
  // Kubernetes' one CSR field selector: signers list the requests addressed to them.
  selectableFields: { 'spec.signerName': (csr) => csr.spec?.signerName ?? '' },
});
