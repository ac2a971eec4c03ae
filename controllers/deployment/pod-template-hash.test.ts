import { describe, expect, it } from 'vitest';
import type { PodTemplateSpec } from '../../api/kinds/core/types.js';
import { computeHash, equalIgnoreHash, fnv32a, POD_TEMPLATE_HASH_LABEL, safeEncodeString } from './pod-template-hash.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const template = (image: string, labels: Record<string, string> = { app: 'web' }): PodTemplateSpec => ({
  metadata: { labels },
  spec: { containers: [{ name: 'nginx', image }] },
});

describe('pod-template-hash', () => {
  it('FNV-1a 32 as Go’s hash/fnv', () => {
    expect(fnv32a(bytes(''))).toBe(0x811c9dc5);
    expect(fnv32a(bytes('a'))).toBe(0xe40c292c);
    expect(fnv32a(bytes('foobar'))).toBe(0xbf9cf968);
  });
  it('spells the decimal with SafeEncodeString’s alphabet', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
  it('looks like kube’s: up to ten characters of the safe alphabet, stable, changed by the template and the collision count', () => {
    const hash = computeHash(template('nginx'), undefined);
    expect(hash).toMatch(/^[456789bcdf]{1,10}$/);
    expect(computeHash(template('nginx'), undefined)).toBe(hash);
    expect(computeHash(template('nginx:1.27'), undefined)).not.toBe(hash);
    expect(computeHash(template('nginx'), 1)).not.toBe(hash);
    expect(computeHash(template('nginx'), 0)).not.toBe(hash);
  });
  it('does not depend on key order', () => {
    const reordered: PodTemplateSpec = { spec: { containers: [{ image: 'nginx', name: 'nginx' }] }, metadata: { labels: { app: 'web' } } };
    expect(computeHash(reordered, undefined)).toBe(computeHash(template('nginx'), undefined));
  });
  it('compares templates ignoring the hash label', () => {
    expect(equalIgnoreHash(template('nginx', { app: 'web', [POD_TEMPLATE_HASH_LABEL]: 'abc' }), template('nginx'))).toBe(true);
    expect(equalIgnoreHash(template('nginx:1.27'), template('nginx'))).toBe(false);
  });
});
