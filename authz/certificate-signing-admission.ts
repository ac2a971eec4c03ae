/**
 * Admission for CertificateSigningRequests, as Kubernetes' `CertificateApproval`,
 * `CertificateSigning` and `CertificateSubjectRestriction` plugins, plus the rule spaces need:
 * - approving or denying (the `approval` subresource) needs `approve` on the signer (resource
 *   `signers` of certificates.k8s.io, named by the signer, or `<domain>/*`), and issuing (a
 *   certificate written through `status`) needs `sign` on it, on top of RBAC on the subresource;
 * - no request for `kubernetes.io/kube-apiserver-client` may ask for the `system:masters` group;
 * - in a tenant's space, nor for a `system:` user name or group (the names Kubernetes and this
 *   server give their own components), nor for a `tenant:` organization (the signer writes the
 *   space itself; a requested one could only be a lie).
 * The server's own writes (no user) are not checked.
 */
import type { AdmissionAttributes, AdmissionPlugin } from '../api/registry/generic-store.js';
import { parseCertificateRequest } from '../api/kinds/certificates/certificate-request.js';
import { decodedBytes, KUBE_APISERVER_CLIENT_SIGNER, type CertificateSigningRequest } from '../api/kinds/certificates/certificate-signing-request.js';
import { SYSTEM_TENANT } from '../api/spaces.js';
import { ApiError } from '../api/status.js';
import type { UserInfo } from '../api/access.js';
import type { Authorizer } from './authorize.js';
import { TENANT_ORGANIZATION_PREFIX } from './x509-authenticator.js';

const GROUP = 'certificates.k8s.io';
const SYSTEM_PREFIX = 'system:';

function forbidden(attrs: AdmissionAttributes, message: string): ApiError {
  const name = attrs.object.metadata.name ?? '';
  return new ApiError(403, 'Forbidden', `${attrs.def.resource}.${GROUP} "${name}" is forbidden: ${message}`, { group: GROUP, kind: attrs.def.resource, name });
}

/** Why a kube-apiserver-client request may not be made in `tenant`, or undefined when it may. */
export function refusedSubject(tenant: string, commonNames: readonly string[], organizations: readonly string[]): string | undefined {
  const signer = KUBE_APISERVER_CLIENT_SIGNER;
  if (organizations.includes('system:masters')) return `use of ${signer} signer with system:masters group is not allowed`;
  const tenantOrganization = organizations.find((o) => o.startsWith(TENANT_ORGANIZATION_PREFIX));
  if (tenantOrganization !== undefined) return `use of ${signer} signer with organization ${JSON.stringify(tenantOrganization)} is not allowed: the signer sets the space`;
  if (tenant === SYSTEM_TENANT) return undefined;
  const systemUser = commonNames.find((cn) => cn.startsWith(SYSTEM_PREFIX));
  if (systemUser !== undefined) return `use of ${signer} signer for user ${JSON.stringify(systemUser)} is not allowed in a tenant's space`;
  const systemGroup = organizations.find((o) => o.startsWith(SYSTEM_PREFIX));
  if (systemGroup !== undefined) return `use of ${signer} signer with group ${JSON.stringify(systemGroup)} is not allowed in a tenant's space`;
  return undefined;
}

export function certificateSigningAdmission(authorizer: Authorizer): AdmissionPlugin {
  /** Kubernetes' isAuthorizedForSignerName: the signer by name, or every signer of its domain. */
  const mayUseSigner = (user: UserInfo, tenant: string, verb: 'approve' | 'sign', signerName: string): boolean => {
    const attrs = { verb, group: GROUP, resource: 'signers', tenant };
    if (authorizer.authorize(user, { ...attrs, name: signerName }).allowed) return true;
    return authorizer.authorize(user, { ...attrs, name: `${signerName.split('/')[0]}/*` }).allowed;
  };

  return {
    admit(attrs) {
      if (attrs.def.group !== GROUP || attrs.def.kind !== 'CertificateSigningRequest' || attrs.operation === 'delete' || !attrs.user) return;
      const csr = attrs.object as CertificateSigningRequest;
      const signerName = csr.spec?.signerName ?? '';
      if (attrs.operation === 'create') {
        if (signerName !== KUBE_APISERVER_CLIENT_SIGNER) return;
        // Validation ran first: the request parses.
        const request = parseCertificateRequest(decodedBytes(csr.spec?.request));
        const refusal = refusedSubject(attrs.tenant, request.commonNames, request.organizations);
        if (refusal) throw forbidden(attrs, refusal);
        return;
      }
      const old = attrs.old as CertificateSigningRequest;
      if (attrs.subresource === 'approval' && !mayUseSigner(attrs.user, attrs.tenant, 'approve', signerName)) {
        throw forbidden(attrs, `user not permitted to approve requests with signerName ${JSON.stringify(signerName)}`);
      }
      const issued = (csr.status?.certificate ?? '') !== (old.status?.certificate ?? '');
      if (attrs.subresource === 'status' && issued && !mayUseSigner(attrs.user, attrs.tenant, 'sign', signerName)) {
        throw forbidden(attrs, `user not permitted to sign requests with signerName ${JSON.stringify(signerName)}`);
      }
    },
  };
}
