/**
 * The CSR signing controller (kube's `csrsigning` for the `kubernetes.io/kube-apiserver-client`
 * signer), one instance over every space: an approved, not yet issued request gets a client
 * certificate signed by the client CA, written through `status`. The certificate is the one
 * `kube-spaces kubeconfig` issues (the server passes `signClientCertificate` in): `CN` from the request, its `O`
 * values as groups, and the request's space as the tenant, bound to that Tenant's uid, so it
 * authenticates in that space only, and only while that incarnation of the space lives. A
 * request this signer cannot honour (usages beyond a client's, no single user name) gets a
 * Failed condition instead, as kube's signer does. Other signers' requests are left alone.
 */
import { parseCertificateRequest, type CertificateRequest } from '../../api/kinds/certificates/certificate-request.js';
import {
  certificateSigningRequests,
  decodedBytes,
  KUBE_APISERVER_CLIENT_SIGNER,
  type CertificateSigningRequest,
  type CertificateSigningRequestCondition,
} from '../../api/kinds/certificates/certificate-signing-request.js';
import type { Tenant } from '../../api/kinds/core/tenant.js';
import { isConflict, isNotFound } from '../../src/client/api-status.js';
import type { KubeClient } from '../../src/client/kube-client.js';
import type { ObjectKey } from '../../src/client/object-key.js';
import { realClock, type Clock } from '../runtime/clock.js';
import { Controller, done, requeue, type ReconcileResult } from '../runtime/controller.js';
import type { Informer } from '../runtime/informer.js';

/** kube-controller-manager's default `--cluster-signing-duration`: a year; a request may ask for less. */
const MAX_CLIENT_CERTIFICATE_SECONDS = 365 * 24 * 60 * 60;
const CLIENT_USAGES = new Set(['client auth', 'digital signature', 'key encipherment']);

/** Who a client certificate speaks for: its user and groups, and the space (and its Tenant's uid) it is bound to. */
export interface ClientCertificateIdentity {
  user: string;
  tenant: string;
  groups: string[];
  tenantUid: string;
}

/**
 * Signs the client certificate of `identity` for a request's key, valid until `notAfter` (the
 * server's client CA, as `kube-spaces kubeconfig` signs: `signClientCertificate`).
 */
export type ClientCertificateSigner = (identity: ClientCertificateIdentity, publicKey: CertificateRequest['publicKey'], notAfter: Date) => Promise<{ cert: string; serialNumber: string }>;

/** Something issued, for the issued-credentials log. */
export interface IssuedCertificate {
  serialNumber: string;
  tenant: string;
  user: string;
  groups: string[];
  notAfter: string;
  /** The CertificateSigningRequest it was issued for. */
  request: string;
}

export interface CsrSigningDeps {
  /** Acts as system:controller:certificate-controller. */
  client: KubeClient;
  requests: Informer;
  tenants: Informer;
  /** The client CA's signer (kube-controller-manager's --cluster-signing-cert-file and key). */
  sign: ClientCertificateSigner;
  /** Told of every certificate issued, before it is handed out (the issued-credentials log). */
  recordIssued?(issued: IssuedCertificate): Promise<void>;
  log: { error(obj: object, msg: string): void };
  clock?: Clock;
}

const hasCondition = (csr: CertificateSigningRequest, type: string): boolean => (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** Whether the request is this signer's to issue now: approved, not denied, failed or issued. */
function awaitsSigning(csr: CertificateSigningRequest): boolean {
  return csr.spec?.signerName === KUBE_APISERVER_CLIENT_SIGNER && hasCondition(csr, 'Approved') && !hasCondition(csr, 'Denied') && !hasCondition(csr, 'Failed') && !csr.status?.certificate;
}

/** Why this signer cannot issue what the request asks for, or undefined when it can. */
function signingProblem(usages: readonly string[], commonNames: readonly string[]): string | undefined {
  const invalid = usages.filter((u) => !CLIENT_USAGES.has(u));
  if (invalid.length > 0 || !usages.includes('client auth')) return `invalid usage for client certificate: ${JSON.stringify(invalid.length > 0 ? invalid : usages)}`;
  if (commonNames.length !== 1 || !commonNames[0]) return 'the request must name exactly one user (subject CN)';
  return undefined;
}

export function csrSigningController(deps: CsrSigningDeps): Controller {
  const clock = deps.clock ?? realClock;
  const failed = (message: string): CertificateSigningRequestCondition => {
    const now = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    return { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message, lastUpdateTime: now, lastTransitionTime: now };
  };

  const reconcile = async (key: ObjectKey): Promise<ReconcileResult> => {
    const csr = deps.requests.get(key) as CertificateSigningRequest | undefined;
    if (!csr || !awaitsSigning(csr)) return done;
    const tenant = deps.tenants.get({ tenant: '', namespace: '', name: key.tenant }) as Tenant | undefined;
    // A space being deleted takes its requests with it; nothing to issue for it.
    if (!tenant?.metadata.uid || tenant.metadata.deletionTimestamp) return done;
    const request = parseCertificateRequest(decodedBytes(csr.spec?.request));
    const problem = signingProblem(csr.spec?.usages ?? [], request.commonNames);
    const next = structuredClone(csr);
    if (problem) {
      next.status = { ...next.status, conditions: [...(next.status?.conditions ?? []), failed(problem)] };
    } else {
      const seconds = Math.min(csr.spec?.expirationSeconds ?? MAX_CLIENT_CERTIFICATE_SECONDS, MAX_CLIENT_CERTIFICATE_SECONDS);
      const notAfter = new Date(clock.now() + seconds * 1000);
      const identity = { user: request.commonNames[0]!, tenant: key.tenant, groups: request.organizations, tenantUid: tenant.metadata.uid };
      const signed = await deps.sign(identity, request.publicKey, notAfter);
      await deps.recordIssued?.({ serialNumber: signed.serialNumber, tenant: key.tenant, user: identity.user, groups: identity.groups, notAfter: notAfter.toISOString(), request: key.name });
      next.status = { ...next.status, certificate: Buffer.from(signed.cert).toString('base64') };
    }
    try {
      await deps.client.space(key.tenant).resource(certificateSigningRequests).updateStatus(next);
    } catch (err) {
      if (isNotFound(err)) return done;
      // The request changed meanwhile (denied, say): decide again from the newer one.
      if (isConflict(err)) return requeue;
      throw err;
    }
    return done;
  };
  const controller = new Controller({ name: 'csr-signing', reconcile, log: deps.log });
  deps.requests.onChange((key, obj) => {
    if (obj && awaitsSigning(obj as CertificateSigningRequest)) controller.enqueue(key);
  });
  return controller;
}
