/**
 * The issued-credentials log, `<data-dir>/issued-credentials.jsonl`: one JSON line per credential
 * the server or its CLI hands out (certificates from `kube-spaces kubeconfig` and from approved
 * CertificateSigningRequests, token-file tokens), so `kube-spaces credentials list` can show who
 * holds what and `revoke` can name it. A line names a certificate by its serial and a token by
 * its SHA-256 digest, never the token itself.
 *
 * @example
 *   await recordIssuedCredential(dataDir, { kind: 'token', id: tokenDigest(token), tenant: 't1', user: 'alice', groups: [], source: 'kubeconfig' });
 *   const all = await readIssuedCredentials(dataDir);
 */
import { X509Certificate } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { normalizeSerial, type CredentialKind } from '../../authz/revoked-credentials.js';
import { PRIVATE_MODE, readFileIfExists } from './atomic-file.js';

export interface IssuedCredential {
  kind: CredentialKind;
  /** A certificate's serial (hex, as normalizeSerial spells it) or a token's SHA-256 (hex). */
  id: string;
  tenant: string;
  user: string;
  groups: string[];
  /** How it was issued: `kubeconfig`, or `csr/<name>` for a CertificateSigningRequest. */
  source: string;
  issuedAt: string;
  /** When a certificate expires. */
  notAfter?: string;
}

export function issuedCredentialsPath(dataDir: string): string {
  return join(dataDir, 'issued-credentials.jsonl');
}

/** Appends one line (one O_APPEND write, so concurrent issuers never interleave). */
export async function recordIssuedCredential(dataDir: string, credential: Omit<IssuedCredential, 'issuedAt'>, issuedAt = new Date()): Promise<void> {
  const line = JSON.stringify({ ...credential, id: credential.kind === 'certificate' ? normalizeSerial(credential.id) : credential.id, issuedAt: issuedAt.toISOString() });
  await appendFile(issuedCredentialsPath(dataDir), `${line}\n`, { mode: PRIVATE_MODE });
}

/** Every line of the log, oldest first; a missing log is empty. */
export async function readIssuedCredentials(dataDir: string): Promise<IssuedCredential[]> {
  const text = (await readFileIfExists(issuedCredentialsPath(dataDir))) ?? '';
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as IssuedCredential);
}

/** A PEM certificate's serial, as the log and the denylist spell it. */
export function certificateSerial(pem: string): string {
  return normalizeSerial(new X509Certificate(pem).serialNumber);
}
