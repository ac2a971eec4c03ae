/**
 * PKI the operator brings instead of what the data directory would make: `--tls-cert-file` and
 * `--tls-private-key-file` (the serving certificate, its chain after it), `--client-ca-file`
 * (the bundle of CAs whose client certificates are trusted) and `--service-account-key-file`.
 * Each file is read once at start; a pair that does not belong together stops the start with a
 * clear reason rather than failing every handshake later.
 *
 * @example
 *   const serving = await readServingFiles({ certFile: '/etc/ks/tls.crt', keyFile: '/etc/ks/tls.key' });
 *   serving.pair   // { cert, key } for the HTTPS server
 *   serving.caBundle // what clients should trust: the chain after the leaf, else the leaf itself
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { splitPemCertificates } from '../../authz/x509-authenticator.js';
import type { CertificateAndKey } from './certificates.js';


export interface OperatorServing {
  pair: CertificateAndKey;
  /**
   * The CA bundle written into kubeconfigs and `kube-root-ca.crt`: the certificates after the leaf
   * in `--tls-cert-file` (a full chain, as web servers take it), or the leaf alone when the file
   * has no chain (a self-signed certificate).
   */
  caBundle: string;
}

export async function readServingFiles(files: { certFile: string; keyFile: string }): Promise<OperatorServing> {
  const [certText, key] = await Promise.all([readFile(files.certFile, 'utf8'), readFile(files.keyFile, 'utf8')]);
  const certs = splitPemCertificates(certText);
  if (certs.length === 0) throw new Error(`--tls-cert-file ${files.certFile} holds no PEM certificate`);
  if (!new X509Certificate(certs[0]!).checkPrivateKey(createPrivateKey(key))) {
    throw new Error(`--tls-private-key-file ${files.keyFile} is not the key of the first certificate in ${files.certFile}`);
  }
  // Re-joined one certificate a line block: a file whose PEM blocks touch (`-----END…----------BEGIN…`) fails Node's TLS.
  return { pair: { cert: certs.join(''), key }, caBundle: certs.length > 1 ? certs.slice(1).join('') : certs[0]! };
}

/** The CA bundle of `--client-ca-file`: one or more PEM certificates, each a CA. */
export async function readClientCaBundle(file: string): Promise<string> {
  const certs = splitPemCertificates(await readFile(file, 'utf8'));
  if (certs.length === 0) throw new Error(`--client-ca-file ${file} holds no PEM certificate`);
  const notCa = certs.findIndex((pem) => !new X509Certificate(pem).ca);
  if (notCa !== -1) throw new Error(`--client-ca-file ${file}: certificate ${notCa + 1} is not a CA`);
  return certs.join('');
}

/** The service-account signing key of `--service-account-key-file`: a PEM private key. */
export async function readServiceAccountKeyFile(file: string): Promise<string> {
  const pem = await readFile(file, 'utf8');
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error(`--service-account-key-file ${file} must hold an ECDSA P-256 private key (tokens are signed ES256)`);
  }
  return pem;
}
