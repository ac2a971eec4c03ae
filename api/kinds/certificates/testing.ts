/**
 * Certificate requests made by openssl, as a user onboarding with a CSR makes them (node:crypto
 * cannot write PKCS#10), for the CSR tests.
 *
 * @example
 *   const { csr, key } = opensslCertificateRequest('/CN=alice/O=dev');
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new key and a PEM CSR for `subject` (openssl's `/CN=…/O=…` form); `keyType` as openssl's -newkey. */
export function opensslCertificateRequest(subject: string, keyType: 'ec' | 'rsa' = 'ec'): { csr: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'csr-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const csrFile = join(dir, 'req.pem');
    const newKey = keyType === 'ec' ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048'];
    execFileSync('openssl', ['req', '-new', ...newKey, '-nodes', '-keyout', keyFile, '-subj', subject, '-out', csrFile], { stdio: 'ignore' });
    return { csr: readFileSync(csrFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
