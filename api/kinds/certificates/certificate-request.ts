/**
 * PKCS#10 certificate requests as `spec.request` carries them: PEM decoding, the subject, and the
 * signature check, synchronous (node:crypto) so validation can run it. Errors read like Go's
 * (`certificates.ParseCSR`, `x509.CertificateRequest.CheckSignature`), which kubectl users see.
 *
 * @example
 *   const req = parseCertificateRequest(pem); // throws on a bad block or a bad signature
 *   req.commonName; // 'alice'
 *   req.organizations; // ['dev']
 */
// @peculiar/x509 resolves its ASN.1 codecs through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { createPublicKey, verify } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface CertificateRequest {
  /** The subject's CN values (one for a usable client certificate). */
  commonNames: string[];
  /** The subject's O values: the groups of a client certificate. */
  organizations: string[];
  /** The requested public key, for the signer. */
  publicKey: x509.PublicKey;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/;

/** The first PEM block's type and bytes, or undefined when there is none (Go's `pem.Decode`). */
function firstPemBlock(text: string): { type: string; der: Buffer } | undefined {
  const match = PEM_BLOCK.exec(text);
  if (!match) return undefined;
  return { type: match[1]!, der: Buffer.from(match[2]!.replace(/\s+/g, ''), 'base64') };
}

/** The bytes of the first element of a DER SEQUENCE (a CSR's signed `certificationRequestInfo`). */
function firstElementOf(der: Buffer): Buffer {
  const contentStart = (offset: number): { start: number; length: number } => {
    const first = der[offset + 1]!;
    if (first < 0x80) return { start: offset + 2, length: first };
    const lengthBytes = first & 0x7f;
    let length = 0;
    for (let i = 0; i < lengthBytes; i += 1) length = length * 256 + der[offset + 2 + i]!;
    return { start: offset + 2 + lengthBytes, length };
  };
  const outer = contentStart(0);
  const inner = contentStart(outer.start);
  return der.subarray(outer.start, inner.start + inner.length);
}

/** Go's CheckSignature for the algorithms clients use (ECDSA, RSA PKCS#1 v1.5, Ed25519). */
function checkSignature(request: x509.Pkcs10CertificateRequest, der: Buffer): void {
  const algorithm = request.signatureAlgorithm as { name: string; hash?: { name: string } };
  const key = createPublicKey({ key: Buffer.from(request.publicKey.rawData), format: 'der', type: 'spki' });
  const hash = algorithm.hash?.name.replace('-', '').toLowerCase() ?? null;
  const signature = Buffer.from(request.signature);
  const signed = firstElementOf(der);
  let ok: boolean;
  switch (algorithm.name) {
    case 'ECDSA':
      ok = verify(hash, signed, key, signature);
      if (!ok) throw new Error('x509: ECDSA verification failure');
      return;
    case 'RSASSA-PKCS1-v1_5':
      ok = verify(hash, signed, key, signature);
      if (!ok) throw new Error('crypto/rsa: verification error');
      return;
    case 'Ed25519':
      ok = verify(null, signed, key, signature);
      if (!ok) throw new Error('x509: Ed25519 verification failure');
      return;
    default:
      throw new Error('x509: cannot verify signature: algorithm unimplemented');
  }
}

/**
 * Decodes the request in `pem` (the first PEM block must be a CERTIFICATE REQUEST) and checks its
 * self-signature; throws an Error with Go's message otherwise.
 */
export function parseCertificateRequest(pem: string): CertificateRequest {
  const block = firstPemBlock(pem);
  if (!block || block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let request: x509.Pkcs10CertificateRequest;
  try {
    request = new x509.Pkcs10CertificateRequest(new Uint8Array(block.der));
  } catch {
    throw new Error('x509: malformed certificate request');
  }
  checkSignature(request, block.der);
  return {
    commonNames: request.subjectName.getField('CN'),
    organizations: request.subjectName.getField('O'),
    publicKey: request.publicKey,
  };
}
