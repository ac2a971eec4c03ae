/**
 * The `pod-template-hash` of a deployment's ReplicaSets, shaped as kube's ComputeHash makes it:
 * FNV-1a (32 bits) over the pod template and, once a collision was met, the collision count as
 * eight little-endian bytes, then the decimal of the hash spelled with kube's SafeEncodeString
 * alphabet. kube hashes Go's spew dump of its template struct, which no other program can
 * reproduce byte for byte; we hash the template's canonical JSON (keys sorted) instead, so the
 * names look like kube's (`web-7d4b9c6f5d`) and change exactly when the template does.
 *
 * @example
 *   computeHash(deployment.spec.template, deployment.status?.collisionCount) // '7d4b9c6f5d'
 */
import type { PodTemplateSpec } from '../../api/kinds/core/types.js';

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** kube's rand.SafeEncodeString alphabet: no vowels, no 0/1/3, so no words and no look-alikes. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

export function fnv32a(bytes: Uint8Array, hash = FNV32_OFFSET): number {
  let h = hash;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, FNV32_PRIME) >>> 0;
  }
  return h >>> 0;
}

export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** JSON with every object's keys sorted, so equal templates hash and compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function computeHash(template: PodTemplateSpec, collisionCount: number | undefined): string {
  let hash = fnv32a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv32a(bytes, hash);
  }
  return safeEncodeString(String(hash));
}

/** The template without the hash label (kube's EqualIgnoreHash compares templates so). */
function withoutHash(template: PodTemplateSpec | undefined): PodTemplateSpec {
  const t = structuredClone(template ?? {});
  if (t.metadata?.labels) {
    delete t.metadata.labels[POD_TEMPLATE_HASH_LABEL];
    if (Object.keys(t.metadata.labels).length === 0) delete t.metadata.labels;
  }
  return t;
}

export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  return canonicalJson(withoutHash(a)) === canonicalJson(withoutHash(b));
}
